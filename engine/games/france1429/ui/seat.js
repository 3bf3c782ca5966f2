// France 1429 on a seat's phone: VP and Deniers in the header; above the prompt the sealed vote
// (FOR and DECOY per candidate, sealed with one tap; once sealed, what this phone sealed, which
// no other page sees before the reveal) and the battle under way; below it the family's own
// Lords with their titles and markers, the hand with each card's effect and when it may be
// played, the counters left, and the map.
"use strict";

(() => {
  const { el } = Herald;
  const game = Herald.games.france1429;
  const VOTE = "prompt/election-vote";
  let pick = { for: null, decoy: null, stateId: null };
  const mine = (view, ctx) => (view.families || []).find((f) => f.seat === ctx.seat);

  function header(view, ctx) {
    const me = mine(view, ctx);
    return me ? `${me.vp} ${ctx.t("vp")} · ${me.deniers} ¤` : "";
  }

  const votePrompt = (ctx) => (ctx.prompt && ctx.prompt.prompts[0] && ctx.prompt.prompts[0].code === VOTE ? ctx.prompt.prompts[0] : null);

  // The sealed vote: FOR on a candidate (or none), DECOY on a candidate (or none), then seal.
  function voteForm(view, ctx) {
    const prompt = votePrompt(ctx);
    const t = ctx.t;
    const e = view.election;
    if (!prompt || !e) return null;
    if (pick.stateId !== ctx.stateId) pick = { for: null, decoy: null, stateId: ctx.stateId };
    const options = [[0, t("marker-none")], ...e.candidates.map((id, i) => [i + 1, game.lordName(view, id)])];
    const row = (which) => el("div", { class: "fr-vote-row", "data-marker": which },
      el("span", { class: "muted" }, t(`marker-${which}`)),
      options.map(([n, label]) => el("button", {
        type: "button", class: `face ${pick[which] === n ? "on" : ""}`, "data-choice": n,
        onclick: () => { pick[which] = n; ctx.rerender(); },
      }, label)));
    const move = pick.for === null || pick.decoy === null ? null
      : prompt.moves.find((m) => m.move.vote_for === pick.for && m.move.decoy === pick.decoy);
    return el("div", { class: "fr-vote", id: "fr-vote" },
      el("p", { class: "note" }, t("vote-help")),
      row("for"), row("decoy"),
      el("button", { class: "primary", id: "fr-seal", type: "button", disabled: !move, onclick: () => move && ctx.send(move.move) }, t("seal")));
  }

  // What this seat sealed (its own view only, until the reveal).
  function sealedNote(view, ctx) {
    const yours = (view.sealed || {}).yours;
    if (!yours || yours.kind !== "vote" || !view.election) return null;
    const name = (n) => (n ? game.lordName(view, view.election.candidates[n - 1]) : ctx.t("marker-none"));
    return el("p", { class: "fr-your-vote", id: "fr-your-vote" }, ctx.t("your-vote", { for: name(yours.vote_for), decoy: name(yours.decoy) }));
  }

  // A card of the hand: its name, what it does and when it may be played (a Lord card: the Lord).
  function card(view, id, t) {
    const code = `france1429:ui/card-${id}`;
    const known = Herald.t(code) !== code;
    return el("li", { class: "fr-hand-card", "data-card": id },
      el("b", {}, known ? t(`card-${id}`) : game.lordName(view, id)),
      known ? el("span", { class: "fr-effect" }, ` — ${t(`card-${id}-effect`)}`) : el("span", { class: "muted" }, ` — ${t("lord-card")}`),
      known ? el("span", { class: "fr-when muted" }, ` (${t(`card-${id}-when`)})`) : null);
  }

  // The seat's view with the map's drawing, which only the public state carries (a seat's view
  // travels whole on every move; the drawing never changes).
  function withMap(view) {
    const pub = window.heraldSeat && window.heraldSeat.table();
    return view.map || !pub || !pub.view ? view : { ...view, map: pub.view.map };
  }

  // The map on a phone (issue 25 point 4): drawn for a TV, at 390 px it is a thumbnail. Here it
  // opens at twice the width in a box that pans by swiping (the box scrolls), centred on the
  // Villages this seat's options name (else its own Lords); + and − zoom from 1× to 4× about the
  // middle of what is shown, "fit" shows it whole. The zoom and where the player panned to are
  // kept across the redraws each move brings; a new set of options centres again.
  const zoom = { z: null, left: 0, top: 0, focus: "" };
  const ZOOMS = [1, 1.5, 2, 3, 4];

  function focusVillages(view, ctx) {
    const known = new Set(((view.map || {}).villages || []).map((v) => v.id));
    const found = new Set();
    const walk = (x) => {
      if (typeof x === "string") { if (known.has(x)) found.add(x); }
      else if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === "object") Object.values(x).forEach(walk);
    };
    for (const p of (ctx.prompt && ctx.prompt.prompts) || []) for (const m of p.moves || []) walk(m.move);
    if (!found.size) for (const l of view.lords || []) if (l.seat === ctx.seat && l.village && known.has(l.village)) found.add(l.village);
    return [...found].sort();
  }

  function zoomableMap(view, ctx) {
    const t = ctx.t;
    const drawn = game.mapSvg(view);
    const map = drawn.querySelector && drawn.querySelector("svg");
    if (!map || !view.map) return drawn;
    if (zoom.z === null) zoom.z = window.innerWidth < 700 ? 2 : 1;
    const inner = el("div", { class: "fr-zoom-inner" }, map); // the stand-in map's note stays below
    const box = el("div", { class: "fr-zoom", id: "fr-zoom", "data-zoom": zoom.z,
      onscroll: () => { zoom.left = box.scrollLeft; zoom.top = box.scrollTop; } }, inner);
    const targets = focusVillages(view, ctx);
    const key = targets.join(",");
    const place = (z, centre) => {
      zoom.z = z;
      box.dataset.zoom = String(z);
      inner.style.width = `${z * 100}%`;
      const [cx, cy] = centre;
      box.scrollLeft = zoom.left = Math.max(0, cx * inner.clientWidth - box.clientWidth / 2);
      box.scrollTop = zoom.top = Math.max(0, cy * inner.clientHeight - box.clientHeight / 2);
    };
    const middle = () => [(box.scrollLeft + box.clientWidth / 2) / (inner.clientWidth || 1),
      (box.scrollTop + box.clientHeight / 2) / (inner.clientHeight || 1)];
    const step = (d) => {
      const i = ZOOMS.indexOf(zoom.z);
      const next = ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, (i < 0 ? 2 : i) + d))];
      place(next, middle());
    };
    const tools = el("div", { class: "fr-zoom-tools" },
      el("button", { type: "button", class: "small", id: "fr-zoom-out", "aria-label": t("zoom-out"), onclick: () => step(-1) }, "−"),
      el("button", { type: "button", class: "small", id: "fr-zoom-in", "aria-label": t("zoom-in"), onclick: () => step(1) }, "+"),
      el("button", { type: "button", class: "small", id: "fr-zoom-fit", onclick: () => place(1, [0.5, 0.5]) }, t("zoom-fit")),
      targets.length ? el("span", { class: "muted" }, t("zoom-focus")) : null);
    // after the box is on the page (its size known): where the player was, or the options' Villages
    const settle = () => {
      inner.style.width = `${zoom.z * 100}%`;
      if (key !== zoom.focus && targets.length) {
        const at = Object.fromEntries(view.map.villages.map((v) => [v.id, v]));
        const xs = targets.map((id) => at[id].x / view.map.width);
        const ys = targets.map((id) => at[id].y / view.map.height);
        const mid = (a) => (Math.min(...a) + Math.max(...a)) / 2;
        place(zoom.z, [mid(xs), mid(ys)]);
      } else {
        box.scrollLeft = zoom.left;
        box.scrollTop = zoom.top;
      }
      zoom.focus = key;
    };
    return { node: el("div", { class: "fr-zoom-wrap" }, tools, box, drawn), settle };
  }

  function renderSeat(root, seatView, ctx) {
    const t = ctx.t;
    const view = withMap(seatView); // the drawing also names the Villages (battle, your Lords)
    const me = mine(view, ctx);
    const election = game.electionPanel(view, el("div", {}, sealedNote(view, ctx), voteForm(view, ctx)));
    ctx.top.replaceChildren(...[election, game.battlePanel(view)].filter(Boolean));
    if (!me) return root.replaceChildren();
    const hand = me.hand || [];
    const map = zoomableMap(view, ctx);
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", {}, t("your-family")),
        game.lordList(view, ctx.seat),
        el("h3", {}, t("your-hand")),
        hand.length ? el("ul", { id: "fr-hand", class: "fr-hand" }, hand.map((id) => card(view, id, t)))
          : el("p", { id: "fr-hand", class: "muted" }, Herald.t("ui/nothing")),
        el("p", { class: "fr-money" }, t("money", { n: me.deniers })),
        el("p", { class: "muted" }, t("counters-left", { maa: me.stock.maa, knights: me.stock.knights, tax: me.tax_left, diplomacy: me.diplomacy })),
        game.thresholds(view)),
      el("section", { class: "card" },
        el("h2", {}, t("map")),
        map.node || map,
        game.track(view)));
    if (map.settle) map.settle();
  }

  // The vote is sealed from the panel above (the generic buttons would all read "votes").
  function promptNote(prompt, view, ctx) {
    return prompt.code === VOTE ? ctx.t("vote-on-panel") : null;
  }

  Herald.register("france1429", { header, renderSeat, promptNote, incomeTitle: "france1429:ui/last-income" });
})();
