// Viscounts of the West Kingdom, parts both pages draw: components by their printed names, the
// five decks' top cards and Manuscript stacks, the Castle's three levels, a player's board (the
// three card spaces in order, Buildings built, Virtue and Corruption, Debts and Deeds).
"use strict";

(() => {
  const { el, seatChip } = Herald;
  const name = (view, id) => (id && view.names && view.names[id]) || id || "—";

  function cardItem(view, id, t) {
    const info = (view.cards || {})[id];
    return el("li", { class: "vi-card", "data-card": id || "" },
      el("b", {}, id ? name(view, id) : t("empty-space")),
      info ? el("span", { class: "muted" }, ` (${info.value ?? "?"}) ${info.symbols.map((s) => t(`symbol-${s}`)).join(" ")}`) : null,
      info && info.ability ? el("div", { class: "vi-effect" }, info.ability) : null,
      info && info.hire ? el("div", { class: "vi-effect muted" }, `${t("hire-effect")}: ${info.hire}`) : null);
  }

  function mainBoard(view, t) {
    return el("div", { id: "vi-main" },
      el("h3", {}, t("decks")),
      el("ol", { class: "vi-decks" }, (view.decks || []).map((d, i) => el("li", { "data-part": i },
        `${t("part", { n: i + 1 })}: `, el("b", {}, d.top ? name(view, d.top) : t("empty-deck")), ` · ${t("left", { n: d.size })}`))),
      el("h3", {}, t("stacks")),
      el("ol", { class: "vi-stacks" }, (view.stacks || []).map((s, i) => el("li", { "data-part": i },
        `${t("part", { n: i + 1 })}: `, s.top ? name(view, s.top) : t("empty-stack"), ` · ${t("left", { n: s.size })}`))),
      el("p", { class: "muted" }, t("kingdom", { debts: view.debts_left, deeds: view.deeds_left }),
        view.poverty ? ` · ${t("poverty")}` : "", view.prosperity ? ` · ${t("prosperity")}` : ""));
  }

  function castle(view, t) {
    const c = view.castle || { level1: [], level2: [], level3: [] };
    const seats = (view.players || []).map((p) => p.seat);
    const row = (counts) => seats.map((s, i) => (counts[i] ? `${Herald.seatName ? Herald.seatName(s) : s} ${counts[i]}` : "")).filter(Boolean).join(", ") || "—";
    return el("div", { id: "vi-castle" },
      el("h3", {}, t("castle")),
      el("p", {}, `${t("level", { n: 3 })}: ${row(c.level3)}`),
      el("ol", {}, c.level2.map((counts, i) => el("li", {}, `${t("level", { n: 2 })} · ${t("section", { n: i + 1 })}: ${row(counts)}`))),
      el("ol", {}, c.level1.map((counts, i) => el("li", {}, `${t("level", { n: 1 })} · ${t("section", { n: i + 1 })}: ${row(counts)}`))),
      view.lord ? el("p", {}, t("lord"), " ", seatChip(view.lord)) : null);
  }

  function playerBoard(view, p, t) {
    return el("article", { class: `board ${view.active === p.seat ? "acting" : ""}`, "data-seat": p.seat },
      el("header", {}, seatChip(p.seat), el("span", { class: "coins" }, `${p.silver} ⛀`)),
      el("p", {}, t("at", { town: name(view, p.town) })),
      el("ol", { class: "vi-row" }, p.board.map((id) => cardItem(view, id, t))),
      el("p", {}, t("resources", { ink: p.ink, stone: p.stone, gold: p.gold, pool: p.pool })),
      el("p", {}, t("track", { virtue: p.virtue, corruption: p.corruption }), p.stacked ? ` · ${t("collision")}` : ""),
      el("p", {}, t("debts-deeds", { debts: p.debts, paid: p.paid, deeds: p.deeds, granted: p.granted })),
      el("p", {}, t("built"), " ", p.built.length ? p.built.map((b) => `${name(view, b.building)} ${b.position + 1}`).join(", ") : "—"),
      el("p", { class: "muted" }, t("cards-count", { hand: p.hand_size, deck: p.deck_size, discard: p.discard.length }),
        p.manuscripts.length ? ` · ${t("manuscripts", { n: p.manuscripts.length })}` : ""));
  }

  Herald.games.viscounts = Object.assign(Herald.games.viscounts || {}, { name, cardItem, mainBoard, castle, playerBoard });
})();
