// Viscounts on the table display: the round, the end trigger and the solo AI's Scheme; the
// circular board with the decks' top cards and Manuscript stacks; the Castle; every player's
// board with its Building strip. Scores and their plot are the page's own (ScoreRow totals).
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.viscounts;

  function renderTable(root, view, ctx) {
    const t = ctx.t;
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", { id: "vi-round" }, t("round", { n: view.round || 0 })),
        game.mainBoard(view, t),
        game.castle(view, t),
        game.solo(view, t)),
      el("section", { class: "card" },
        el("h2", {}, t("players")),
        el("div", { id: "boards", class: "boards" }, (view.players || []).map((p) => game.playerBoard(view, p, t, true)))));
  }

  Herald.register("viscounts", { renderTable });
})();
