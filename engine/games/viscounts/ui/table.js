// Viscounts on the table display: round and phase, the main board's decks and stacks, the
// Castle, and every player's board.
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.viscounts;

  function renderTable(root, view, ctx) {
    const t = ctx.t;
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", {}, t("round", { n: view.round || 0 })),
        game.mainBoard(view, t),
        game.castle(view, t)),
      el("section", { class: "card" },
        el("h2", {}, t("players")),
        el("div", { id: "boards", class: "boards" }, (view.players || []).map((p) => game.playerBoard(view, p, t)))));
  }

  Herald.register("viscounts", { renderTable });
})();
