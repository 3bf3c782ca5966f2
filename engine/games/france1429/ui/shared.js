// France 1429 on both pages (loaded before table.js or seat.js; the contract is in
// bridge/web/static/common.js): the map drawn as SVG from the view (the drawing fixed at setup,
// `view.map`, with the table's marks on it: who controls each Village, troop stacks by type,
// Lord tokens standing or lying when captive, Strongholds and Fortified Cities, Mills, sieges,
// the cards at each Bishopric's mitre), the battle panel, the election panel (how many sealed
// votes are in, never what they hold before the reveal), a family's board and the Disaster
// track. Every word comes from the game's catalog (`france1429:ui/<code>`).
"use strict";

Herald.register("france1429", (() => {
  const { el, seatChip } = Herald;
  const T = Herald.gameT("france1429");
  const SVG = "http://www.w3.org/2000/svg";
  const EXTRA = ["#7a5c3e", "#3d7d7d", "#9c3d6b", "#5a6b2e", "#6b4fa0", "#b0602a"];
  const INK = "#2b2118";

  // An SVG element with attributes (text children as text nodes).
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // A family's colour: the seat's own colour when it is one, else one of a fixed set by seat order.
  function colour(seat, view) {
    if (Herald.SEAT_COLOURS[seat]) return Herald.SEAT_COLOURS[seat];
    const seats = (view.families || []).map((f) => f.seat);
    const i = seats.indexOf(seat);
    return EXTRA[(i < 0 ? 0 : i) % EXTRA.length];
  }

  const lordName = (view, id) => {
    const lord = (view.lords || []).find((x) => x.id === id);
    return lord ? lord.name : (view.lord_names || {})[id] || id;
  };
  const villageName = (view, id) => {
    const spot = ((view.map || {}).villages || []).find((v) => v.id === id);
    return spot ? spot.name : id;
  };

  // A Lord's title in words: "Fief: bourg" → the catalog's "Duke/Count of …" is the game's; here
  // the title's kind and its place.
  function titleWords(view, title) {
    const [kind, where] = String(title).split(":");
    if (kind === "fief") return T("title-fief", { fief: fiefName(view, where) });
    if (kind === "bishop") return T("title-bishop", { n: where });
    return T(`title-${kind}`);
  }
  function fiefName(view, id) {
    const fief = ((view.map || {}).fiefs || []).find((f) => f.id === id);
    return fief && fief.name ? fief.name : id;
  }

  // --- the map -------------------------------------------------------------------------------

  function tower(x, y, fortified) {
    const g = svg("g", { class: fortified ? "fr-fortified" : "fr-stronghold" },
      svg("path", { d: `M${x - 6},${y + 6} V${y - 6} h3 v3 h1.5 v-3 h3 v3 h1.5 v-3 h3 V${y + 6} Z`, fill: "#5d5d5d", stroke: INK, "stroke-width": 1 }));
    if (fortified) {
      g.append(svg("line", { x1: x, y1: y - 6, x2: x, y2: y - 15, stroke: INK, "stroke-width": 1.5 }),
        svg("path", { d: `M${x},${y - 15} L${x + 7},${y - 12.5} L${x},${y - 10} Z`, fill: "#c0392b" }));
    }
    return g;
  }

  function mill(x, y) {
    return svg("g", { class: "fr-mill", stroke: INK, "stroke-width": 1.2 },
      svg("circle", { cx: x, cy: y, r: 5, fill: "#fdf6e3" }),
      svg("path", { d: `M${x - 3.5},${y - 3.5} L${x + 3.5},${y + 3.5} M${x - 3.5},${y + 3.5} L${x + 3.5},${y - 3.5}` }));
  }

  // A Siege Engine beside a besieged Village, in the besieger's colour, showing its dice (1 or 2).
  function engine(x, y, seat, dice, view) {
    return svg("g", { class: "fr-engine", "data-seat": seat, "data-dice": dice },
      svg("title", {}, T("engine-title", { seat: Herald.seatName(seat), n: dice })),
      svg("path", { d: `M${x - 7},${y + 4} L${x + 7},${y + 4} L${x + 4},${y - 2} L${x - 4},${y - 2} Z M${x - 2},${y - 2} L${x + 6},${y - 9}`, fill: colour(seat, view), stroke: INK, "stroke-width": 1.2 }),
      svg("text", { x: x + 9, y: y + 4, "font-size": 10, "font-weight": "bold", fill: INK }, `×${dice}`));
  }

  // A Bishopric's mitre with its number, the Fortune and Disaster cards lying beside it and the
  // Tithe markers on it (in the taxing family's colour).
  function mitre(b, cards, tithes, view) {
    const { x, y } = b;
    return svg("g", { class: "fr-mitre", "data-bishopric": b.number },
      tithes.map((seat, i) => svg("g", { class: "fr-tithe", "data-seat": seat },
        svg("title", {}, T("tithe-title", { seat: Herald.seatName(seat) })),
        svg("rect", { x: x - 22 - i * 11, y: y - 4, width: 9, height: 9, fill: colour(seat, view), stroke: INK, "stroke-width": 1 }))),
      svg("path", { d: `M${x - 13},${y + 12} L${x - 13},${y - 6} L${x},${y - 20} L${x + 13},${y - 6} L${x + 13},${y + 12} Z`, fill: b.colour, stroke: "#fff", "stroke-width": 2 }),
      svg("text", { x, y: y + 7, "font-size": 15, "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, String(b.number)),
      cards.map((c, i) => svg("text", { class: "fr-mitre-card", x: x + 17, y: y - 4 + i * 13, "font-size": 11, fill: INK }, T(`card-${c}`, {}))));
  }

  // One family's troops in a Village: a chip in its colour with Men at Arms and Knights (or,
  // under Fog of War, only how many counters).
  function stack(seat, troops, x, y, view) {
    const text = troops.counters !== undefined
      ? `?${troops.counters}`
      : `${troops.maa || 0}⚔ ${troops.knights || 0}♞`;
    const w = 8 + text.length * 6.4;
    return svg("g", { class: "fr-stack", "data-seat": seat, "data-maa": troops.maa, "data-knights": troops.knights },
      svg("title", {}, T("stack-title", { seat: Herald.seatName(seat), maa: troops.maa ?? "?", knights: troops.knights ?? "?" })),
      svg("rect", { x, y: y - 9, width: w, height: 13, rx: 3, fill: colour(seat, view), stroke: "#fff", "stroke-width": 1 }),
      svg("text", { x: x + 4, y: y + 1, "font-size": 10, "font-weight": "bold", fill: "#fff" }, text));
  }

  // A Lord token: standing (a disc with his initial) or lying on its side when captive.
  function lordToken(lord, x, y, view) {
    const fill = colour(lord.seat, view);
    const captive = Boolean(lord.captor);
    const title = captive
      ? T("lord-captive", { lord: lord.name, captor: Herald.seatName(lord.captor) })
      : T("lord-standing", { lord: lord.name, seat: Herald.seatName(lord.seat) });
    const shape = captive
      ? svg("rect", { x: x - 9, y: y - 4, width: 18, height: 8, rx: 3, fill, stroke: INK, "stroke-width": 1, "stroke-dasharray": "2 1" })
      : svg("circle", { cx: x, cy: y, r: 7, fill, stroke: INK, "stroke-width": 1 });
    return svg("g", { class: `fr-lord ${captive ? "lying" : "standing"}`, "data-lord": lord.id, "data-seat": lord.seat },
      svg("title", {}, title), shape,
      captive ? null : svg("text", { x, y: y + 3.5, "font-size": 9, "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, lord.name.charAt(0)));
  }

  function villageMark(spot, place, view) {
    const side = spot.principal ? 26 : 18;
    const half = side / 2;
    const { x, y } = spot;
    const owner = place ? place.controller : null;
    const g = svg("g", { class: "fr-village", "data-village": spot.id, "data-controller": owner || "" });
    g.append(svg("title", {}, owner ? T("village-held", { village: spot.name, seat: Herald.seatName(owner) }) : spot.name));
    if (place && place.besieged_by) {
      g.append(svg("rect", { class: "fr-siege", x: x - half - 4, y: y - half - 4, width: side + 8, height: side + 8, fill: "none", stroke: colour(place.besieged_by, view), "stroke-width": 2.5, "stroke-dasharray": "4 2" }));
    }
    g.append(svg("rect", { x: x - half, y: y - half, width: side, height: side, fill: owner ? colour(owner, view) : "#fff", stroke: INK, "stroke-width": spot.principal ? 3.5 : 2 }));
    if (place && place.fort && place.fort !== "none") g.append(tower(x + half, y - half, place.fort === "fortified"));
    if (place && place.besieged_by && place.engine) g.append(engine(x + half + 8, y + half + 6, place.besieged_by, place.engine, view));
    for (let i = 0; i < Math.min(2, (place && place.mills) || 0); i++) g.append(mill(x - half - 7, y - half + 5 + i * 12));
    const label = spot.principal ? spot.name.toUpperCase() : spot.name;
    g.append(svg("text", { x, y: y + half + (spot.principal ? 17 : 15), "font-size": spot.principal ? 14 : 12, "font-weight": spot.principal ? "bold" : null, "text-anchor": "middle", fill: INK, stroke: "#f6efdc", "stroke-width": 4, "paint-order": "stroke" }, label));
    if (place) {
      Object.entries(place.troops || {}).forEach(([seat, troops], i) => g.append(stack(seat, troops, x + half + 3, y - half + 4 + i * 14, view)));
    }
    (view.lords || []).filter((l) => l.village === spot.id).forEach((lord, i) => {
      g.append(lordToken(lord, x - half - 9 - (i % 3) * 16, y + half + 2 + Math.floor(i / 3) * 16 - (i < 3 ? 0 : 0), view));
    });
    return g;
  }

  // The whole map: Fiefs' backgrounds, Bishoprics' borders, roads, mitres with their cards, and
  // every Village with its marks. Without a drawing (a state built by a test): nothing.
  function mapSvg(view) {
    const m = view.map;
    if (!m) return el("p", { class: "muted" }, T("no-map"));
    const places = Object.fromEntries((view.villages || []).map((v) => [v.id, v]));
    const at = Object.fromEntries(m.villages.map((v) => [v.id, v]));
    const root = svg("svg", { id: "fr-map", class: "fr-map", viewBox: `0 0 ${m.width} ${m.height}`, role: "img", "aria-label": T("map") });
    root.append(svg("rect", { x: 0, y: 0, width: m.width, height: m.height, fill: "#f6efdc" }));
    root.append(svg("g", { class: "fr-fiefs" }, m.fiefs.map((f) => svg("g", { "data-fief": f.id },
      svg("title", {}, f.name || f.id),
      svg("path", { d: f.fill, fill: f.colour, stroke: f.colour, "stroke-width": 1.5, opacity: 0.4 }),
      svg("path", { d: f.border, fill: "none", stroke: f.colour, "stroke-width": 2 })))));
    root.append(svg("g", { class: "fr-bishoprics", fill: "none", "stroke-width": 4.5, "stroke-linecap": "round" },
      m.bishoprics.map((b) => svg("path", { d: b.border, stroke: b.colour, "stroke-opacity": 0.9, "stroke-dasharray": "12 5", "data-bishopric": b.number }))));
    root.append(svg("g", { class: "fr-roads", stroke: "#8a6d43", "stroke-width": 3.5, "stroke-linecap": "round" },
      (m.roads || []).filter(([a, b]) => at[a] && at[b]).map(([a, b]) => svg("line", { x1: at[a].x, y1: at[a].y, x2: at[b].x, y2: at[b].y }))));
    const cards = {};
    for (const c of view.mitres || []) (cards[c.bishopric] ||= []).push(c.card);
    const tithes = {};
    for (const tax of view.taxes || []) {
      if (tax.on !== "bishopric") continue;
      const on = tax.target === "all" ? m.bishoprics.map((b) => b.number) : [Number(tax.target)];
      for (const n of on) (tithes[n] ||= []).push(tax.seat);
    }
    root.append(svg("g", { class: "fr-mitres" }, m.bishoprics.map((b) => mitre(b, cards[b.number] || [], tithes[b.number] || [], view))));
    root.append(svg("g", { class: "fr-villages" }, m.villages.map((spot) => villageMark(spot, places[spot.id], view))));
    const box = el("div", { class: "fr-map-box" }, root);
    if (m.invented) box.append(el("p", { class: "fr-invented muted" }, T("invented-map")));
    return box;
  }

  // --- panels --------------------------------------------------------------------------------

  const said = (view, seat) => seatChip(seat);

  // One side of the battle: its families, strength points, dice, last hits, troops, Lords.
  function sideCard(view, side, role) {
    return el("article", { class: `fr-side ${side.owing ? "owing" : ""}`, "data-side": role, "data-seat": side.seat },
      el("header", {}, el("span", { class: "muted" }, T(`side-${role}`)), side.members.map((s) => said(view, s))),
      el("div", { class: "fr-side-nums" },
        el("span", {}, el("b", { class: "fr-sp" }, String(side.sp)), ` ${T("sp")}`),
        el("span", {}, el("b", { class: "fr-dice" }, String(side.dice)), ` ${T("dice")}`),
        el("span", {}, el("b", { class: "fr-hits" }, side.hits === null || side.hits === undefined ? "—" : String(side.hits)), ` ${T("hits")}`)),
      el("p", { class: "fr-side-troops" }, T("troops", { maa: side.maa, knights: side.knights })),
      side.lords.length ? el("p", { class: "fr-side-lords" }, side.lords.map((id) => lordName(view, id)).join(", ")) : null,
      side.owing ? el("p", { class: "fr-owing" }, T("owing", { hits: side.hits || 0 })) : null);
  }

  function battlePanel(view) {
    const b = view.battle;
    if (!b) return null;
    const captives = (view.lords || []).filter((l) => l.captor && l.village === b.village);
    return el("section", { class: "card fr-battle", id: "fr-battle", "data-village": b.village },
      el("h2", {}, T("battle-in", { village: villageName(view, b.village) })),
      el("p", { class: "muted" }, [T(`stage-${b.stage}`, {}), b.fort !== "none" ? T(`fort-${b.fort}`) : null,
        T("quiet", { n: b.quiet }), b.cavalcade ? T("cavalcade", { lord: lordName(view, b.cavalcade) }) : null,
        b.tunnels ? T("tunnels") : null, b.truce ? T("truce") : null].filter(Boolean).join(" · ")),
      el("div", { class: "fr-sides" }, sideCard(view, b.attacker, "attacker"), sideCard(view, b.defender, "defender")),
      captives.length ? el("p", { class: "fr-captives" }, T("captives", { lords: captives.map((l) => l.name).join(", ") })) : null);
  }

  function officeWords(e) {
    return e.office === "bishop" ? T("office-bishop", { n: e.bishopric }) : T(`office-${e.office}`);
  }

  // The election: candidates, then how many sealed votes are in (who has sealed, never what);
  // after the reveal each family's markers, the votes per candidate and the result with its rule.
  function electionPanel(view, mine) {
    const e = view.election;
    const last = view.last_election;
    if (!e && !last) return null;
    const out = [];
    if (e) {
      out.push(el("h2", {}, T("election-of", { office: officeWords(e) })));
      out.push(el("p", { class: "fr-candidates" }, el("span", { class: "muted" }, `${T("candidates")}: `),
        e.candidates.length ? e.candidates.map((id, i) => el("span", { class: "fr-cand", "data-lord": id }, `${i + 1}. ${lordName(view, id)}`, " ",
          said(view, ((view.lords || []).find((l) => l.id === id) || {}).seat || ""))) : T("none-yet")));
      if (e.stage === "vote") {
        const sealed = new Set(((view.sealed || {}).committed) || []);
        const voters = e.voters || [];
        out.push(el("p", { class: "fr-sealed-count", "data-in": sealed.size, "data-of": voters.length },
          T("sealed-in", { n: [...sealed].filter((s) => voters.includes(s)).length, of: voters.length })));
        out.push(el("ul", { class: "fr-voters" }, voters.map((s) => el("li", { "data-voter": s, "data-sealed": sealed.has(s) ? "yes" : "no" },
          said(view, s), " ", sealed.has(s) ? T("voter-sealed") : T("voter-waiting")))));
        if (mine) out.push(mine);
      }
    }
    if (last) {
      const names = (id) => (id ? lordName(view, id) : T("marker-none"));
      out.push(el("div", { class: "fr-last-election", id: "fr-last-election" },
        el("h3", {}, T("revealed", { office: officeWords(last) })),
        el("ul", { class: "fr-markers" }, last.markers.map(([seat, f, d]) => el("li", { "data-seat": seat },
          said(view, seat), " ", T("markers", { for: names(f), decoy: names(d) })))),
        el("p", {}, last.votes.map(([id, n]) => T("votes-for", { lord: lordName(view, id), n })).join(" · ")),
        el("p", { class: "fr-winner" }, last.winner ? T("elected", { lord: lordName(view, last.winner) }) : T("nobody-elected")),
        el("p", { class: "muted fr-rule" }, T(`rule-${last.office}`))));
    }
    return el("section", { class: "card fr-election", id: "fr-election" }, out);
  }

  // The Disaster track: cards face down until resolved.
  function track(view) {
    const tr = view.track || { face_down: 0, resolved: 0 };
    return el("div", { class: "fr-track", id: "fr-track", "data-face-down": tr.face_down, "data-resolved": tr.resolved },
      el("span", { class: "muted" }, `${T("track")}: `),
      Array.from({ length: tr.resolved }, () => el("span", { class: "fr-card resolved", title: T("track-resolved") }, "✓")),
      Array.from({ length: tr.face_down }, () => el("span", { class: "fr-card down", title: T("track-down") }, "▮")));
  }

  // A family's Lords with their titles and markers (captive, married, assassin, excommunicated).
  function lordList(view, seat) {
    const lords = (view.lords || []).filter((l) => l.seat === seat);
    if (!lords.length) return el("p", { class: "muted" }, T("no-lords"));
    return el("ul", { class: "fr-lords" }, lords.map((l) => el("li", { "data-lord": l.id, class: l.captor ? "captive" : "" },
      el("b", {}, l.name), ` — ${villageName(view, l.village)}`,
      l.titles.length ? el("span", { class: "fr-titles" }, ` · ${l.titles.map((x) => titleWords(view, x)).join(", ")}`) : null,
      l.captor ? el("span", { class: "fr-mark" }, ` · ${T("captive-of", { seat: Herald.seatName(l.captor) })}`) : null,
      l.spouse ? el("span", { class: "fr-mark" }, ` · ${T("married-to", { lord: lordName(view, l.spouse) })}`) : null,
      l.excommunicated ? el("span", { class: "fr-mark" }, ` · ${T("excommunicated")}`) : null)));
  }

  // A family's public board: VP, Deniers, counters left, titles through its Lords.
  function familyBoard(view, fam, income) {
    const stat = (code, value) => el("div", { class: "stat" }, el("span", { class: "muted" }, T(code)), el("b", {}, String(value)));
    const allied = (view.alliances || []).find((p) => p.includes(fam.seat));
    return el("article", { class: "board fr-family", "data-seat": fam.seat },
      el("header", {}, seatChip(fam.seat), el("span", { class: "coins" }, `${fam.vp} ${T("vp")} · ${fam.deniers} ¤`)),
      el("div", { class: "fr-stats" }, stat("res-cards", fam.hand_size), stat("res-maa", fam.stock.maa),
        stat("res-knights", fam.stock.knights), stat("res-tax", fam.tax_left), stat("res-diplomacy", fam.diplomacy)),
      tallage(view, fam.seat),
      allied ? el("p", { class: "fr-ally" }, T("allied-with", { seat: Herald.seatName(allied.find((s) => s !== fam.seat)) })) : null,
      lordList(view, fam.seat),
      income ? el("ul", { class: "lines" }, Herald.lines(income)) : null);
  }

  // The Tax markers a family has put on Fiefs (Tallage) and Bishoprics (Tithe) this round.
  function tallage(view, seat) {
    const taxes = (view.taxes || []).filter((x) => x.seat === seat);
    if (!taxes.length) return null;
    return el("p", { class: "fr-taxes" }, taxes.map((x) => (x.on === "fief"
      ? T("tax-fief", { fief: fiefName(view, x.target) })
      : T("tax-bishopric", { n: x.target === "all" ? T("all-bishoprics") : x.target }))).join(" · "));
  }

  function thresholds(view) {
    const th = view.thresholds || {};
    const parts = [T("solo-vp", { n: th.solo })];
    if (th.alliance) parts.push(T("alliance-vp", { n: th.alliance }));
    return el("p", { class: "fr-thresholds muted" }, parts.join(" · "));
  }

  function alliances(view) {
    const pairs = view.alliances || [];
    return el("p", { class: "fr-alliances", id: "fr-alliances" }, el("span", { class: "muted" }, `${T("alliances")}: `),
      pairs.length ? pairs.map(([a, b]) => el("span", { class: "fr-pair", "data-pair": `${a} ${b}` }, seatChip(a), " ⚭ ", seatChip(b), " ")) : T("none"));
  }

  // The round and phase in large type.
  function phaseLine(view) {
    const phase = Herald.phaseWords("france1429", view.phase) || view.phase;
    return el("p", { class: "fr-phase", id: "fr-phase" }, `${Herald.t("ui/round")} ${view.round} · ${phase}`);
  }

  return { svg, colour, mapSvg, battlePanel, electionPanel, track, familyBoard, lordList, thresholds, alliances, phaseLine, lordName, villageName, officeWords };
})());
