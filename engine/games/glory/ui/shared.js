// Glory on both pages (loaded before table.js or seat.js; the contract is in
// bridge/web/static/common.js): the duel panel (both Attacks itemised, the pass
// and step, Advantage, who decides, the options left; on the deciding seat's page the options as
// buttons, and a dice form when the duel waits for this seat's dice), the seat's holdings, hand
// and Personal Goals (private), and the public board. Every sentence comes from the catalog.
"use strict";

Herald.register("glory", (() => {
  const { t, el, seatChip } = Herald;
  const T = Herald.gameT("glory"); // this game's own labels: glory:ui/<code>
  const lines = Herald.lines;
  const STEPS = ["tent", "strength", "roll", "faith", "lance1", "lance2", "relic", "recover", "over"];
  let faithPick = new Set(); // the dice chosen for a Faith reroll, kept while the state stays
  let dicePick = {}; // die index → wire value, for the dice form
  let pickedFor = null; // the state_id both picks belong to

  // printed names of the box's cards and tokens (the view's `names`), set by `use` before a render
  let printedNames = {};
  const N = (id) => (id && printedNames[id]) || id;
  const use = (view) => { printedNames = (view && view.names) || {}; };
  const stageText = (where) => {
    const m = /^stage (\d+):(\d+)$/.exec(where || "");
    return m ? T("stage-match", { stage: m[1], match: m[2] }) : "";
  };
  const face = (f) => (f === "special" ? "★" : f === null || f === undefined ? "?" : String(f));
  const name = (side) => (side.player ? seatChip(side.name) : el("strong", {}, side.name));

  function die(d, extra) {
    return el("span", { class: `gdie gdie-${d.type} ${extra || ""}`, title: d.id || d.type, "data-die": d.id || "" }, face(d.face));
  }

  // One side of the duel: name, Advantage tokens, Attack total and its itemised lines, dice.
  function sideCard(side, panel) {
    const deciding = panel.deciding === side.name;
    const rolling = panel.dice_wanted && panel.dice_wanted.side === side.name;
    return el("article", { class: `duel-side ${deciding ? "deciding" : ""} ${rolling ? "rolling" : ""}`, "data-side": side.name },
      el("header", {}, name(side),
        el("span", { class: "wins", title: T("wins") }, `${T("wins")} ${"●".repeat(side.wins)}${"○".repeat(Math.max(0, 2 - side.wins))}`)),
      el("div", { class: "attack" }, el("span", { class: "muted" }, T("attack")), el("b", { class: "attack-total" }, String(side.attack))),
      el("ul", { class: "lines" }, lines(side.lines)),
      el("div", { class: "duel-meta muted" },
        side.prestige !== null && side.prestige !== undefined ? T("prestige", { n: side.prestige }) : null,
        side.player ? ` · ${T("committed", { n: side.committed })}` : null),
      side.dice.length ? el("div", { class: "gdice" }, side.dice.map((d) => die(d))) : null);
  }

  // What the deciding side may still do, as a sentence everyone can read.
  function optionsText(o) {
    const parts = [];
    if (o.strength && o.strength.length) parts.push(T("opt-strength", { values: o.strength.join(", ") }));
    if (o.faith) parts.push(T("opt-faith", { n: o.faith_dice_max }));
    if (o.allies && o.allies.length) parts.push(T("opt-allies", { names: o.allies.join(", ") }));
    if (o.relics && o.relics.length) parts.push(T("opt-relics", { names: o.relics.join(", ") }));
    if (o.recover && o.recover.length) parts.push(T("opt-recover", { n: o.recover.length }));
    if (o.decline) parts.push(T("opt-pass"));
    return parts.join(" · ") || T("opt-none");
  }

  // The deciding seat's buttons: every legal duel move of its prompt, grouped by kind.
  function optionButtons(panel, ctx) {
    const moves = (ctx.prompt && ctx.prompt.prompts[0] ? ctx.prompt.prompts[0].moves : [])
      .filter((m) => m.move.kind === "duel");
    if (!moves.length) return null;
    const out = [];
    const button = (m, text, cls) => el("button", {
      class: `opt ${cls || ""}`, "data-kind": m.move.move.kind, onclick: () => ctx.send(m.move),
    }, text, Herald.preview(m)); // what the option gives, when the engine previews it
    const faith = [];
    for (const m of moves) {
      const inner = m.move.move;
      if (inner.kind === "strength") out.push(button(m, T("commit", { n: inner.tokens }), "strength"));
      else if (inner.kind === "faith") faith.push(m);
      else if (inner.kind !== "decline") out.push(button(m, m.label, inner.kind));
    }
    if (faith.length) out.push(faithPicker(panel, faith, ctx));
    const decline = moves.find((m) => m.move.move.kind === "decline");
    if (decline) out.push(button(decline, T("pass"), "decline"));
    return el("div", { class: "duel-options", id: "duel-options" }, out);
  }

  // Faith: tap your dice to choose them, then spend the token (enabled for a legal choice only).
  function faithPicker(panel, faithMoves, ctx) {
    const side = panel.sides.find((s) => s.name === ctx.seat);
    const key = (ids) => ids.slice().sort().join(",");
    const legal = new Map(faithMoves.map((m) => [key(m.move.move.dice), m.move]));
    const chosen = [...faithPick];
    const move = legal.get(key(chosen));
    const box = el("div", { class: "faith-pick" },
      el("p", { class: "note" }, T("faith-pick", { n: panel.options.faith_dice_max })),
      el("div", { class: "gdice" }, (side ? side.dice : []).map((d) => el("button", {
        class: `pick ${faithPick.has(d.id) ? "on" : ""}`, "data-die": d.id,
        onclick: () => { if (faithPick.has(d.id)) faithPick.delete(d.id); else faithPick.add(d.id); ctx.rerender(); },
      }, die(d)))),
      el("button", {
        class: "opt faith primary", "data-kind": "faith", disabled: !move,
        onclick: () => move && ctx.send(move),
      }, T("faith-go", { dice: chosen.length ? chosen.join(", ") : "—" })));
    return box;
  }

  // Typed-in dice: one row of face buttons per die the duel waits for.
  function diceForm(wanted, ctx) {
    const rows = wanted.dice.map((d, i) => {
      const faces = wanted.faces[d.type] || [];
      const seen = new Set();
      const choices = [];
      faces.forEach((f, k) => {
        if (f === null || seen.has(f)) return;
        seen.add(f);
        choices.push([f, k + 1]);
      });
      return el("div", { class: "dice-row", "data-die-index": i },
        el("span", { class: `gdie gdie-${d.type}`, title: d.type }, d.id || T(`die-${d.type}`)),
        choices.map(([f, value]) => el("button", {
          class: `face ${dicePick[i] === value ? "on" : ""}`, "data-value": value,
          onclick: () => { dicePick[i] = value; ctx.rerender(); },
        }, face(f))));
    });
    const complete = wanted.dice.every((_, i) => dicePick[i]);
    const send = () => ctx.sendDice(wanted.dice.map((d, i) => ({ sides: d.sides, value: dicePick[i], type: d.type, color: d.color })));
    return el("div", { class: "dice-form", id: "dice-form" },
      el("h3", {}, T("dice-form", { side: wanted.side, kind: T(`kind-${wanted.kind}`) })),
      el("p", { class: "note muted" }, T("dice-help")),
      rows,
      el("button", { class: "primary", id: "dice-send", disabled: !complete, onclick: send }, T("dice-send")));
  }

  // The whole duel panel; ctx (seat page only) adds the buttons and the dice form.
  function duelPanel(panel, ctx) {
    if (!panel) return [el("p", { class: "muted" }, T("no-duel"))];
    if (ctx && pickedFor !== ctx.stateId) { faithPick = new Set(); dicePick = {}; pickedFor = ctx.stateId; }
    const step = STEPS.includes(panel.step) ? T(`step-${panel.step}`) : panel.step;
    const head = el("p", { class: "duel-head" },
      el("b", {}, T(`context-${panel.context}`)),
      stageText(panel.where) ? ` · ${stageText(panel.where)}` : "",
      ` · ${T("pass-no", { pass: panel.pass })} · ${step}`);
    const who = [];
    // a player's side by its seat's name and colour; a Knight by its own name
    const said = (n) => (panel.sides.some((s) => s.name === n && s.player) ? Herald.seatName(n) : n);
    if (panel.winner) who.push(T("winner", { side: said(panel.winner) }));
    else if (panel.deciding) who.push(ctx && ctx.seat === panel.deciding ? T("you-decide") : T("deciding", { side: said(panel.deciding) }));
    else if (panel.dice_wanted) who.push(T("waiting-dice", { side: said(panel.dice_wanted.side), kind: T(`kind-${panel.dice_wanted.kind}`) }));
    const out = [head, el("div", { class: "duel-sides" }, panel.sides.map((s) => sideCard(s, panel))),
      el("p", { class: "duel-who", id: "duel-who", "data-deciding": panel.deciding || "" }, who.join(" "))];
    if (panel.deciding) {
      out.push(el("p", { class: "duel-left" }, el("span", { class: "muted" }, `${T("options-left")}: `), optionsText(panel.options)));
    }
    if (panel.passes && panel.passes.length) {
      out.push(el("p", { class: "duel-passes muted" }, T("passes-won", {
        list: panel.passes.map((p) => `${p.number}: ${said(p.winner)}`).join(" · "),
      })));
    }
    if (ctx && panel.deciding === ctx.seat) {
      const buttons = optionButtons(panel, ctx);
      if (buttons) out.push(buttons);
    }
    if (ctx && panel.dice_wanted && panel.dice_wanted.reporters.includes(ctx.seat)) {
      out.push(diceForm(panel.dice_wanted, ctx));
    }
    return out;
  }

  function tokens(list) {
    return (list || []).map((x) => el("span", { class: `token ${x.active === false ? "used" : ""}`, title: x.active === false ? T("used") : "" }, N(x.kind)));
  }

  // A player's public holdings (and, for the seat itself, hand and Personal Goals).
  function holdings(p) {
    const stat = (code, value) => el("div", { class: "stat" }, el("span", { class: "muted" }, T(code)), el("b", {}, String(value)));
    return el("div", { class: "holdings", "data-seat": p.seat },
      el("div", { class: "stats" },
        stat("res-glory", p.glory), stat("res-coins", p.coins),
        stat("res-strength", p.strength), stat("res-faith", p.faith),
        stat("res-horse", p.horse), stat("res-armour", p.armour),
        stat("res-pawns", p.pawns), stat("res-initiative", p.initiative ?? "—")),
      el("dl", { class: "private" },
        el("dt", {}, T("res-character")), el("dd", {}, N(p.character) || "—"),
        el("dt", {}, T("res-allies")), el("dd", {}, tokens(p.allies).length ? tokens(p.allies) : "—"),
        el("dt", {}, T("res-relics")), el("dd", {}, tokens(p.relics).length ? tokens(p.relics) : "—"),
        el("dt", {}, T("res-prestige")), el("dd", {}, tokens(p.prestige).length ? tokens(p.prestige) : "—"),
        el("dt", {}, T("res-played")), el("dd", {}, p.played.length ? p.played.map(N).join(", ") : "—"),
        el("dt", {}, T("res-cards")), el("dd", {}, T("hand-count", { hand: p.hand_count, goals: p.goals_count }))));
  }

  function privateList(p) {
    const dl = [];
    dl.push(el("dt", {}, T("hand")), el("dd", { id: "glory-hand" }, p.hand && p.hand.length ? p.hand.map(N).join(", ") : t("ui/nothing")));
    dl.push(el("dt", {}, T("goals")), el("dd", { id: "glory-goals" }, p.goals && p.goals.length ? p.goals.map(N).join(", ") : t("ui/nothing")));
    return dl;
  }

  // The public board: Event, Tournament, Initiative Track, Ally Track, Quest columns, Titles.
  function board(view) {
    use(view);
    const rows = [];
    const add = (code, value) => rows.push(el("dt", {}, T(code)), el("dd", {}, value || "—"));
    if (view.data && view.data.stand_in) rows.push(el("dt", { class: "warn" }, "!"), el("dd", { class: "warn" }, T("stand-in")));
    add("event", view.events.current ? `${N(view.events.current)}${view.events.next ? ` → ${N(view.events.next)}` : ""}` : "");
    const tour = view.tournament;
    if (tour) {
      let where = "";
      if (tour.cities && tour.cities.length) {
        where = tour.cities.map((city, c) => `${c + 1}: ${city.map((k) => `${Herald.seatName(k.knight)}${k.crest ? ` [${Herald.seatName(k.crest)}]` : ""}`).join(", ")}`).join(" | ");
      } else if (tour.bracket && tour.bracket.length) {
        // a player's entry by its seat's name and colour (in the page's language); a Knight by its own
        where = tour.bracket[0].filter((e) => e).map((e) => Herald.seatName(e.name)).join(", ");
      }
      add("tournament", `${N(tour.card)} (${T(`context-${tour.type}`)})${where ? ` ${where}` : ""}`);
    }
    add("order", view.order.map((s, i) => `${i + 1}. ${Herald.seatName(s)}`).join("  "));
    add("ally-track", view.board.ally_track.filter((a) => a).map(N).join(", "));
    for (const [deck, cards] of Object.entries(view.board.columns || {})) {
      add(`column-${deck}`, `${cards.map(N).join(", ")} (${T("deck-left", { n: view.board.decks[deck] ?? 0 })})`);
    }
    add("titles", (view.public_titles || []).map(N).join(", "));
    return el("dl", { class: "private glory-board" }, rows);
  }

  return { use, duelPanel, holdings, privateList, board };
})());
