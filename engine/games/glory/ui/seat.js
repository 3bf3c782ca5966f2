// Glory on a seat's phone: glory and coins in the header; above the prompt the duel panel (with
// this seat's options as buttons and the dice form when the duel waits for its dice); below it
// the seat's holdings, its hand and Personal Goals (private), and the public board (folded).
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.glory;
  const mine = (view, ctx) => view.players.find((p) => p.seat === ctx.seat);
  let boardOpen = false;

  function header(view, ctx) {
    const me = mine(view, ctx);
    return me ? `${me.glory} ✦ · ${me.coins} ¤` : "";
  }

  function renderSeat(root, view, ctx) {
    game.use(view);
    const t = ctx.t;
    ctx.top.replaceChildren(view.duel ? el("section", { id: "duel-box", class: "card duel" },
      el("h2", {}, t("duel")),
      el("div", { id: "duel" }, game.duelPanel(view.duel, ctx))) : []);
    const me = mine(view, ctx);
    root.replaceChildren(
      me ? el("section", { class: "card" },
        el("h2", {}, t("yours")),
        game.holdings(me),
        el("h3", {}, t("private")),
        el("dl", { id: "private", class: "private" }, game.privateList(me))) : [],
      // the public board is the table display's to show: folded here until opened (issue 25
      // point 4), the player's choice kept across the redraws each move brings
      el("details", { id: "board-box", class: "card board-fold", open: boardOpen,
        ontoggle: (e) => { boardOpen = e.currentTarget.open; } },
      el("summary", {}, el("h2", {}, t("board"))),
      el("div", { id: "board" }, game.board(view))));
  }

  // A duel step's choices are the duel panel's buttons, not the generic move list.
  function promptNote(prompt, view, ctx) {
    return prompt.code.startsWith("prompt/duel-") ? ctx.t("use-panel") : null;
  }

  // Not this seat's turn, but the duel waits for this seat's dice.
  function turnText(view, ctx) {
    const wanted = view.duel && view.duel.dice_wanted;
    return wanted && wanted.reporters.includes(ctx.seat) ? ctx.t("your-dice") : null;
  }

  Herald.register("glory", { header, renderSeat, promptNote, turnText, typesDice: true, incomeTitle: "glory:ui/last-gains" });
})();
