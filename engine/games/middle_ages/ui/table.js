// Middle Ages on the table display: the rows of tiles with the Lords and Scouts on them, the
// event cards, and every seat's fief with its coins and last income.
"use strict";

(() => {
  const { el, seatChip, lines } = Herald;
  const game = Herald.games["middle-ages"];

  function rows(view, t) {
    const marks = {};
    for (const p of view.players) {
      if (p.lord) (marks[`${p.lord.row}/${p.lord.slot}`] ||= []).push(el("span", { class: "pawn lord", title: t("lord") }, seatChip(p.seat)));
      if (p.scout) (marks[`${p.scout.row}/${p.scout.slot}`] ||= []).push(el("span", { class: "pawn scout", title: t("scout") }, "⚑ ", Herald.seatName(p.seat)));
    }
    return view.rows.map((row, r) => el("div", { class: "row" },
      el("span", { class: "row-no" }, `R${r + 1}`),
      row.map((x, s) => game.tile(x, marks[`${r + 1}/${s + 1}`] || []))));
  }

  function boards(view, ctx) {
    return view.players.map((p) => el("article", { class: "board", "data-seat": p.seat },
      el("header", {}, seatChip(p.seat), el("span", { class: "coins" }, `${p.coins} ¤`)),
      game.fief(p, game.estatesOf(view, p.seat)),
      el("h4", {}, Herald.t("ui/income")),
      el("ul", { class: "lines" }, lines((ctx.data.income || {})[p.seat]))));
  }

  function renderTable(root, view, ctx) {
    const t = ctx.t;
    root.replaceChildren(
      el("section", { class: "card rows-card" },
        el("h2", {}, t("rows")),
        el("div", { id: "rows", class: "rows" }, rows(view, t)),
        el("h3", {}, t("events")),
        el("div", { id: "events", class: "events" }, view.event_cards.map((c) =>
          el("span", { class: `card-ev ${c.face_up ? "" : "down"}` }, `E${c.number} ${c.name}`)))),
      el("section", { class: "card" },
        el("h2", {}, t("boards")),
        el("div", { id: "boards", class: "boards" }, boards(view, ctx))));
  }

  Herald.register("middle-ages", { renderTable });
})();
