// Middle Ages on a seat's phone: the coins in the header, the seat's fief and its private
// tokens (special coins, story tokens, graveyard).
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games["middle-ages"];
  const mine = (view, ctx) => view.players.find((p) => p.seat === ctx.seat);

  function header(view, ctx) {
    const me = mine(view, ctx);
    return me ? `${me.coins} ¤` : "";
  }

  function renderSeat(root, view, ctx) {
    const t = ctx.t;
    const me = mine(view, ctx);
    if (!me) return root.replaceChildren();
    const dl = [];
    const add = (label, value) => dl.push(el("dt", {}, label), el("dd", {}, value || Herald.t("ui/nothing")));
    const name = game.estateName;
    add(t("special-coins"), me.special_coins.map(name).join(", "));
    add(t("story-tokens"), me.story_tokens.map((s) => `${name(s.symbol)} → ${name(s.estate)}`).join(", "));
    add(t("graveyard"), me.graveyard.map((x) => name(x.estate)).join(", "));
    root.replaceChildren(el("section", { class: "card" },
      el("h2", {}, t("your-fief")),
      el("div", { id: "fief" }, game.fief(me, game.estatesOf(view, ctx.seat))),
      el("h3", {}, t("private")),
      el("dl", { id: "private", class: "private" }, dl)));
  }

  Herald.register("middle-ages", { header, renderSeat });
})();
