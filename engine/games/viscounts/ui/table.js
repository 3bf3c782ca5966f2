// Viscounts on the table display: round and phase, the main board's decks and stacks, the
// Castle, and every player's board.
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.viscounts;

  // Solo (digest §8): the AI board, its Scheme piles and the Schemes on its three spaces,
  // this turn's leftmost with every step and the step the AI is at.
  function soloPanel(view, t) {
    const s = view.solo;
    if (!s) return null;
    const scheme = (id, i) => {
      const info = id ? s.schemes[id] : null;
      return el("li", { class: "vi-card", "data-scheme": id || "" },
        el("b", {}, id ? info.name : t("empty-space")),
        info ? el("span", { class: "muted" }, ` ${info.symbols.map((x) => t(`symbol-${x}`)).join(" ")}`) : null,
        info ? el("ol", { class: "vi-steps" }, info.steps.map((text, k) =>
          el("li", { class: i === 0 && s.step === k ? "acting" : "" }, text))) : null);
    };
    return el("div", { id: "vi-solo", "data-seat": s.seat },
      el("h3", {}, t("ai-board", { ai: s.ai_name, goal: s.goal_text })),
      el("p", { class: "muted" }, t("ai-piles", { deck: s.deck_size, future: s.future_size })),
      el("h4", {}, t("ai-scheme-now")),
      el("ol", { class: "vi-row" }, s.board.map(scheme)));
  }

  function renderTable(root, view, ctx) {
    const t = ctx.t;
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", {}, t("round", { n: view.round || 0 })),
        game.mainBoard(view, t),
        game.castle(view, t),
        soloPanel(view, t)),
      el("section", { class: "card" },
        el("h2", {}, t("players")),
        el("div", { id: "boards", class: "boards" }, (view.players || []).map((p) => game.playerBoard(view, p, t)))));
  }

  Herald.register("viscounts", { renderTable });
})();
