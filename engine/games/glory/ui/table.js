// Glory on the table display: the duel, the public board, each player's holdings and gains.
"use strict";

(() => {
  const { el, seatChip, lines } = Herald;
  const game = Herald.games.glory;

  function renderTable(root, view, ctx) {
    const t = ctx.t;
    game.use(view);
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", {}, t("duel")),
        el("div", { id: "duel", class: "duel-panel" }, game.duelPanel(view.duel, null))),
      el("section", { class: "card" },
        el("h2", {}, t("board")),
        el("div", { id: "board" }, game.board(view))),
      el("section", { class: "card" },
        el("h2", {}, t("players")),
        el("div", { id: "boards", class: "boards" }, view.players.map((p) => el("article", { class: "board", "data-seat": p.seat },
          el("header", {}, seatChip(p.seat), el("span", { class: "coins" }, `${p.glory} ✦`)),
          game.holdings(p),
          el("h4", {}, Herald.t("ui/income")),
          el("ul", { class: "lines" }, lines((ctx.data.income || {})[p.seat])))))));
  }

  Herald.register("glory", { renderTable });
})();
