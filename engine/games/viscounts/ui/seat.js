// Viscounts on a seat's phone: Silver in the header; above the options, the seat's own hand
// (each card's value, symbols and effects); below them, the seat's own board; the shared board
// (the ring, its parts in words, the Castle, the solo AI) folded away until the player opens it,
// since it is the table display's to show and it made the phone page four screens long.
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.viscounts;
  const mine = (view, ctx) => (view.players || []).find((p) => p.seat === ctx.seat);
  let sharedOpen = false; // the player's choice, kept across the state updates that redraw

  function header(view, ctx) {
    const me = mine(view, ctx);
    return me ? `${me.silver} ⛀` : "";
  }

  function renderSeat(root, view, ctx) {
    const t = ctx.t;
    const me = mine(view, ctx);
    if (!me) {
      if (ctx.top) ctx.top.replaceChildren();
      return root.replaceChildren();
    }
    const hand = me.hand || [];
    const handCard = el("section", { class: "card vi-hand-card" },
      el("h2", {}, t("your-hand")),
      hand.length ? el("ul", { id: "vi-hand", class: "vi-hand" }, hand.map((id) => game.cardItem(view, id, t)))
        : el("p", { id: "vi-hand", class: "muted" }, Herald.t("ui/nothing")));
    const shared = el("details", { id: "vi-shared", class: "card vi-shared", open: sharedOpen,
      ontoggle: (e) => { sharedOpen = e.currentTarget.open; } },
    el("summary", {}, el("h2", {}, t("shared-board"))),
    game.mainBoard(view, t), game.castle(view, t));
    // solo: the AI's board is the opponent a lone player plays against, so it stays in view
    const ai = game.solo(view, t);
    const opponent = ai ? el("section", { class: "card" }, ai) : null;
    if (ctx.top) {
      ctx.top.replaceChildren(handCard);
      root.replaceChildren(...[el("section", { class: "card" }, game.playerBoard(view, me, t, false)), opponent, shared].filter(Boolean));
    } else {
      root.replaceChildren(...[handCard, el("section", { class: "card" }, game.playerBoard(view, me, t, false)), opponent, shared].filter(Boolean));
    }
  }

  Herald.register("viscounts", { header, renderSeat });
})();
