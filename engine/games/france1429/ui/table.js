// France 1429 on the table display: the round and phase in large type, the map of France with
// every public mark, the battle and election panels while one is under way (an election shows
// how many sealed votes are in, never their content before the reveal), the Disaster track and
// the decks, the VP thresholds and alliances, and each family's board with its last income.
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.france1429;

  function renderTable(root, view, ctx) {
    const t = ctx.t;
    const decks = view.decks || {};
    root.replaceChildren(...[
      el("section", { class: "card fr-map-card" },
        game.phaseLine(view),
        el("div", { id: "fr-map-box" }, game.mapSvg(view)),
        game.track(view),
        el("p", { class: "fr-decks muted" }, t("decks", { lords: decks.lords ?? 0, fortune: decks.fortune ?? 0 }))),
      game.battlePanel(view),
      game.electionPanel(view, null),
      el("section", { class: "card" },
        el("h2", {}, t("families")),
        game.thresholds(view),
        game.alliances(view),
        el("div", { id: "boards", class: "boards" }, (view.families || []).map((fam) =>
          game.familyBoard(view, fam, (ctx.data.income || {})[fam.seat])))),
    ].filter(Boolean));
  }

  Herald.register("france1429", { renderTable });
})();
