// Viscounts of the West Kingdom, parts both pages draw: components by their printed names; the
// circular board (town spaces with the Viscounts, building sites with their Buildings, the five
// Townsfolk decks' top cards and Manuscript stacks) drawn as a ring and said part by part; the
// Castle's three levels; a player's board (the three card spaces in order, the Building strip
// with the abilities built Buildings uncover, Virtue and Corruption, Debts and Deeds); the end
// trigger.
"use strict";

(() => {
  const { el, seatChip, SEAT_COLOURS } = Herald;
  const SVG = "http://www.w3.org/2000/svg";
  const name = (view, id) => (id && view.names && view.names[id]) || id || "—";
  const colour = (seat) => (SEAT_COLOURS && SEAT_COLOURS[seat]) || "#666";
  const seatWords = (seat) => (Herald.seatName ? Herald.seatName(seat) : seat);
  // a town's fill by its Merchant exchange (the legend says which is which)
  const EXCHANGE_FILL = {
    silver: "#d9d9d9", resource: "#f3ead2", ink: "#9fb7d9", stone: "#c2b8a3",
    gold: "#f0cf5a", destroy: "#e3a49a", flip: "#b9d8a8",
  };

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child instanceof Node ? child : document.createTextNode(String(child)));
      }
    }
    return node;
  }

  function cardItem(view, id, t) {
    const info = (view.cards || {})[id];
    return el("li", { class: id ? "vi-card" : "vi-card vi-empty", "data-card": id || "" },
      el("b", {}, id ? name(view, id) : t("empty-space")),
      info ? el("span", { class: "muted" }, ` (${info.value ?? "?"}) `) : null,
      info ? el("span", { class: "vi-symbols" }, info.symbols.map((x) => el("span", { class: `vi-symbol vi-s-${x}` }, t(`symbol-${x}`)))) : null,
      info && info.ability ? el("div", { class: "vi-effect" }, info.ability) : null,
      info && info.hire ? el("div", { class: "vi-effect muted" }, `${t("hire-effect")}: ${info.hire}`) : null);
  }

  // The ring: five parts around the Castle, each with its outer towns on the rim, its inner town
  // inside, its building sites outside the rim (a Building in its owner's colour with the kind's
  // initial), the Viscounts as pawns in their colours on their towns.
  function ring(view, t) {
    const parts = view.board || [];
    const n = parts.length || 5;
    const C = 160;
    const at = (angle, r) => [C + r * Math.sin(angle), C - r * Math.cos(angle)];
    const root = svg("svg", { id: "vi-ring", viewBox: "0 0 320 320", role: "img", "aria-label": t("board") },
      svg("circle", { cx: C, cy: C, r: 118, fill: "none", stroke: "#8a7a5a", "stroke-width": 2 }),
      svg("circle", { cx: C, cy: C, r: 72, fill: "none", stroke: "#8a7a5a", "stroke-width": 1, "stroke-dasharray": "4 3" }),
      svg("text", { x: C, y: C + 4, "text-anchor": "middle", class: "vi-ring-castle" }, t("castle")));
    parts.forEach((part, i) => {
      const mid = (2 * Math.PI * i) / n;
      const span = (2 * Math.PI) / n;
      const [lx, ly] = at(mid - span / 2, 140);
      const [ix, iy] = at(mid - span / 2, 50);
      root.append(svg("line", { x1: ix, y1: iy, x2: lx, y2: ly, stroke: "#c8b994", "stroke-width": 1 }));
      const [px, py] = at(mid, 96);
      root.append(svg("text", { x: px, y: py + 4, "text-anchor": "middle", class: "vi-ring-part" }, String(i + 1)));
      const spot = (town) => {
        if (town.path === "inner") return at(mid, 72);
        return at(mid + (town.side === "right" ? 0.28 : -0.28) * span, 118);
      };
      for (const town of part.towns) {
        const [x, y] = spot(town);
        const g = svg("g", { class: "vi-town", "data-town": town.town, "data-exchange": town.exchange || "silver" },
          svg("title", {}, `${name(view, town.town)} · ${t(`exchange-${town.exchange || "silver"}`)}`),
          svg("circle", { cx: x, cy: y, r: 9, fill: EXCHANGE_FILL[town.exchange || "silver"] || "#f3ead2", stroke: "#6b5b3a", "stroke-width": 1.5 }),
          town.number ? svg("text", { x, y: y + 3.5, "text-anchor": "middle", class: "vi-ring-number" }, String(town.number)) : null);
        town.viscounts.forEach((seat, k) => {
          const [vx, vy] = [x + 8 + 7 * k, y - 9];
          g.append(svg("circle", { class: "vi-pawn", "data-seat": seat, cx: vx, cy: vy, r: 5, fill: colour(seat), stroke: "#222", "stroke-width": 1 },
            svg("title", {}, seatWords(seat))));
        });
        root.append(g);
      }
      part.sites.forEach((site, k) => {
        const count = part.sites.length || 1;
        const [x, y] = at(mid + ((k + 0.5) / count - 0.5) * span * 0.8, 136);
        const built = site.building ? name(view, site.building) : t("site-empty");
        root.append(svg("g", { class: "vi-site", "data-site": site.site, "data-owner": site.owner || "" },
          svg("title", {}, `${name(view, site.site)}: ${built}`),
          svg("rect", { x: x - 5.5, y: y - 5.5, width: 11, height: 11, rx: 2, fill: site.owner ? colour(site.owner) : "#fff", stroke: "#6b5b3a" }),
          site.building ? svg("text", { x, y: y + 3.5, "text-anchor": "middle", class: "vi-ring-building" }, name(view, site.building).slice(0, 1)) : null));
      });
    });
    return root;
  }

  // What the ring's marks mean, in the page's language: a town's colour is its Merchant exchange
  // (only those the board has), its red number the Player card that starts there; a square is a
  // building site, white while empty, in its owner's colour with the Building's initial once
  // built; a dot is a Viscount in its player's colour.
  function legend(view, t) {
    const parts = view.board || [];
    const exchanges = [...new Set(parts.flatMap((p) => p.towns.map((x) => x.exchange || "silver")))];
    const kinds = [...new Set(parts.flatMap((p) => p.sites.map((x) => x.building)).filter(Boolean)),
      ...["workshop", "trading-post", "guildhall"]].filter((k, i, all) => all.indexOf(k) === i);
    const swatch = (cls, style, text) => el("span", { class: `vi-swatch ${cls}`, style }, text || "");
    const items = [
      ...exchanges.map((x) => el("li", { "data-legend": `exchange-${x}` },
        swatch("vi-sw-town", `background:${EXCHANGE_FILL[x] || "#f3ead2"}`), t(`exchange-${x}`))),
      el("li", { "data-legend": "number" }, swatch("vi-sw-town", "background:#f3ead2", "7"), t("legend-number")),
      el("li", { "data-legend": "inner" }, swatch("vi-sw-inner", ""), t("legend-inner")),
      el("li", { "data-legend": "site" }, swatch("vi-sw-site", "background:#fff"), t("legend-site")),
      ...kinds.map((k) => el("li", { "data-legend": `building-${k}` },
        swatch("vi-sw-site", "background:#6b5b3a;color:#fff", name(view, k).slice(0, 1)), name(view, k))),
      ...(view.players || []).map((p) => el("li", { "data-legend": `viscount-${p.seat}` },
        swatch("vi-sw-pawn", `background:${colour(p.seat)}`), t("legend-viscount", { seat: seatWords(p.seat) }))),
    ];
    return el("ul", { id: "vi-legend", class: "vi-legend" }, items);
  }

  // The board in words, part by part: towns with their exchange and the Viscounts there, building
  // sites with their bonus and Building, the deck's top card and the Manuscript stack's top.
  function parts(view, t) {
    const decks = view.decks || [];
    const stacks = view.stacks || [];
    return el("ol", { id: "vi-parts", class: "vi-parts" }, (view.board || []).map((part, i) => {
      const d = decks[i] || { top: null, size: 0 };
      const s = stacks[i] || { top: null, size: 0 };
      return el("li", { "data-part": i },
        el("b", {}, t("part", { n: i + 1 })),
        el("div", { class: "vi-towns" }, part.towns.map((town) => el("div", { class: "vi-town-line", "data-town": town.town },
          `${name(view, town.town)} · ${t(`exchange-${town.exchange || "silver"}`)}`,
          town.viscounts.length ? " · " : "", ...town.viscounts.map((seat) => seatChip(seat))))),
        el("div", { class: "vi-deck", "data-part": i }, `${t("deck")}: `,
          d.top ? el("b", { "data-card": d.top }, name(view, d.top)) : t("empty-deck"), ` · ${t("left", { n: d.size })}`),
        d.top && (view.cards || {})[d.top] ? el("ul", { class: "vi-row" }, cardItem(view, d.top, t)) : null,
        el("div", { class: "vi-stack", "data-part": i }, `${t("stack")}: `,
          s.top ? name(view, s.top) : t("empty-stack"), ` · ${t("left", { n: s.size })}`),
        el("ul", { class: "vi-sites" }, part.sites.map((site) => el("li", { "data-site": site.site, "data-owner": site.owner || "" },
          `${name(view, site.site)}${site.bonus ? ` (${site.bonus})` : ""}: `,
          site.building ? [name(view, site.building), " ", seatChip(site.owner)] : t("site-empty")))));
    }));
  }

  // The end trigger and the Kingdom's stacks: Debts left on Poverty, Deeds on Prosperity, which
  // is uncovered, and whether this round is the last.
  function status(view, t) {
    const flags = [];
    if (view.poverty) flags.push(el("span", { class: "vi-flag", "data-flag": "poverty" }, t("poverty")));
    if (view.prosperity) flags.push(el("span", { class: "vi-flag", "data-flag": "prosperity" }, t("prosperity")));
    if (view.last_round) flags.push(el("span", { class: "vi-flag vi-last", "data-flag": "last-round" }, t("last-round")));
    else if (view.end_round) flags.push(el("span", { class: "vi-flag", "data-flag": "end-round" }, t("ends-after", { n: view.end_round })));
    return el("div", { id: "vi-status" },
      el("p", {}, t("kingdom", { debts: view.debts_left, deeds: view.deeds_left })),
      flags.length ? el("p", { class: "vi-flags" }, flags) : el("p", { class: "muted" }, t("no-trigger")));
  }

  // Solo (digest §8): the AI board, its Scheme piles and the Schemes on its three spaces,
  // this turn's leftmost with every step and the step the AI is at.
  function solo(view, t) {
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

  function mainBoard(view, t) {
    return el("div", { id: "vi-main" },
      el("div", { class: "vi-ring-box" }, ring(view, t)),
      legend(view, t),
      parts(view, t),
      status(view, t));
  }

  function castle(view, t) {
    const c = view.castle || { level1: [], level2: [], level3: [], inward: [] };
    const seats = (view.players || []).map((p) => p.seat);
    const row = (counts) => {
      const here = seats.map((s, i) => [s, counts[i] || 0]).filter(([, k]) => k);
      return here.length ? here.map(([s, k]) => el("span", { class: "vi-workers", "data-seat": s }, seatChip(s), ` ${k}`)) : "—";
    };
    const inward = c.inward || [];
    const effects = view.level2 || [];
    return el("div", { id: "vi-castle" },
      el("h3", {}, t("castle")),
      el("p", { "data-level": 3 }, `${t("level", { n: 3 })}: `, row(c.level3)),
      el("ol", { "data-level": 2 }, c.level2.map((counts, i) => el("li", { "data-section": i },
        `${t("level", { n: 2 })} · ${t("section", { n: i + 1 })}${effects[i] ? ` (${effects[i]})` : ""}: `, row(counts)))),
      el("ol", { "data-level": 1 }, c.level1.map((counts, i) => el("li", { "data-section": i },
        `${t("level", { n: 1 })} · ${t("section", { n: i + 1 })}${inward[i] !== undefined ? ` → ${t("section", { n: inward[i] + 1 })}` : ""}: `, row(counts)))),
      view.lord ? el("p", {}, t("lord"), " ", seatChip(view.lord)) : null);
  }

  // The Building strip: each kind's three positions left to right, still on the strip or built
  // (where), and the ability its emptied space uncovers (§5.2).
  function strip(view, p, t) {
    return el("ul", { class: "vi-strip" }, (p.strip || []).map((b) => el("li", {
      class: b.site ? "built" : "left", "data-building": b.building, "data-position": b.position },
    `${name(view, b.building)} ${b.position + 1}: `,
    b.site ? el("b", {}, t("built-on", { site: name(view, b.site) })) : t("on-strip"),
    b.ability ? el("span", { class: b.site ? "vi-effect" : "vi-effect muted" }, ` · ${b.site ? t("uncovered") : t("covers")} ${b.ability}`) : "")));
  }

  function playerBoard(view, p, t, open) {
    const favours = Object.entries(view.favours || {}).filter(([, s]) => s === p.seat).map(([f]) => name(view, f));
    return el("article", { class: `board ${view.active === p.seat ? "acting" : ""}`, "data-seat": p.seat },
      el("header", {}, seatChip(p.seat), el("span", { class: "coins" }, `${p.silver} ⛀`)),
      el("p", { class: "vi-at" }, t("at", { town: name(view, p.town) })),
      el("ol", { class: "vi-row vi-spaces" }, p.board.map((id) => cardItem(view, id, t))),
      el("div", { class: "vi-counters", title: t("resources", { ink: p.ink, stone: p.stone, gold: p.gold, pool: p.pool }) },
        [["ink", p.ink, t("resource-ink")], ["stone", p.stone, t("resource-stone")], ["gold", p.gold, t("resource-gold")], ["pool", p.pool, t("workers-pool")]]
          .map(([k, n, said]) => el("span", { class: "stat", "data-counter": k }, el("b", {}, String(n)), said))),
      el("p", { class: "vi-track" }, t("track", { virtue: p.virtue, corruption: p.corruption }), p.stacked ? ` · ${t("collision")}` : ""),
      el("p", { class: "vi-debts" }, t("debts-deeds", { debts: p.debts, paid: p.paid, deeds: p.deeds, granted: p.granted })),
      el("details", { class: "vi-strip-box", open: Boolean(open) }, el("summary", {}, t("strip", { n: (p.strip || []).filter((b) => !b.site).length })), strip(view, p, t)),
      favours.length ? el("p", {}, favours.join(", ")) : null,
      el("p", { class: "muted" }, t("cards-count", { hand: p.hand_size, deck: p.deck_size, discard: p.discard.length }),
        p.manuscripts.length ? ` · ${t("manuscripts", { n: p.manuscripts.length })}` : ""));
  }

  Herald.games.viscounts = Object.assign(Herald.games.viscounts || {},
    { name, cardItem, ring, legend, parts, status, solo, mainBoard, castle, strip, playerBoard });
})();
