// Viscounts on a seat's phone: Silver in the header; the hand with each card's value, symbols
// and effects; the player's own board; the main board and the Castle.
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.viscounts;
  const mine = (view, ctx) => (view.players || []).find((p) => p.seat === ctx.seat);

  function header(view, ctx) {
    const me = mine(view, ctx);
    return me ? `${me.silver} ⛀` : "";
  }

  function renderSeat(root, view, ctx) {
    const t = ctx.t;
    const me = mine(view, ctx);
    if (!me) return root.replaceChildren();
    const hand = me.hand || [];
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", {}, t("your-hand")),
        hand.length ? el("ul", { id: "vi-hand", class: "vi-hand private" }, hand.map((id) => game.cardItem(view, id, t)))
          : el("p", { id: "vi-hand", class: "muted" }, Herald.t("ui/nothing"))),
      el("section", { class: "card" }, game.playerBoard(view, me, t, false)),
      el("section", { class: "card" }, game.solo(view, t), game.mainBoard(view, t), game.castle(view, t)));
  }

  Herald.register("viscounts", { header, renderSeat });
})();
