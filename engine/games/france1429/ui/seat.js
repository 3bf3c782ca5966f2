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

  function renderSeat(root, seatView, ctx) {
    const t = ctx.t;
    const view = withMap(seatView); // the drawing also names the Villages (battle, your Lords)
    const me = mine(view, ctx);
    const election = game.electionPanel(view, el("div", {}, sealedNote(view, ctx), voteForm(view, ctx)));
    ctx.top.replaceChildren(...[election, game.battlePanel(view)].filter(Boolean));
    if (!me) return root.replaceChildren();
    const hand = me.hand || [];
    root.replaceChildren(
      el("section", { class: "card" },
        el("h2", {}, t("your-family")),
        game.lordList(view, ctx.seat),
        el("h3", {}, t("your-hand")),
        hand.length ? el("ul", { id: "fr-hand", class: "fr-hand private" }, hand.map((id) => card(view, id, t)))
          : el("p", { id: "fr-hand", class: "muted" }, Herald.t("ui/nothing")),
        el("p", { class: "fr-money" }, t("money", { n: me.deniers })),
        el("p", { class: "muted" }, t("counters-left", { maa: me.stock.maa, knights: me.stock.knights, tax: me.tax_left, diplomacy: me.diplomacy })),
        game.thresholds(view)),
      el("section", { class: "card" },
        el("h2", {}, t("map")),
        game.mapSvg(view),
        game.track(view)));
  }

  // The vote is sealed from the panel above (the generic buttons would all read "votes").
  function promptNote(prompt, view, ctx) {
    return prompt.code === VOTE ? ctx.t("vote-on-panel") : null;
  }

  Herald.register("france1429", { header, renderSeat, promptNote, incomeTitle: "france1429:ui/last-income" });
})();
