// The phone seat page (mobile-first, 360 px wide and up): whose turn, your prompt with its legal
// moves, confirm/undo, your income breakdown, your fief and tokens. It receives only this seat's
// private view: the server sends seat_state and prompt to this seat's room alone.
"use strict";

(async () => {
  const { t, el, fill, seatChip, lines, fief } = Herald;
  await Herald.loadLabels();
  document.title = t("ui/title-seat");
  for (const [id, code] of [["h-prompt", "ui/your-prompt"], ["h-income", "ui/your-income"],
    ["h-fief", "ui/your-fief"], ["h-private", "ui/private"], ["h-scores", "ui/scores"],
    ["confirm", "ui/confirm"], ["undo", "ui/undo"]]) {
    fill(id, t(code));
  }
  const match = location.pathname.match(/^\/s\/([^/]+)/);
  const token = match ? decodeURIComponent(match[1]) : "";
  let selected = null;
  let prompt = null;
  let table = null;
  let seatData = null;
  let conn = null;
  const confirmButton = document.getElementById("confirm");
  const undoButton = document.getElementById("undo");

  async function answer(body) {
    const reply = await conn.intent(body);
    if (!reply.ok) Herald.toast(reply.message, "bad");
    return reply;
  }

  // What a game's own renderer needs to offer moves (the duel panel's buttons, the dice form).
  function ctx() {
    const current = prompt && seatData && prompt.state_id === seatData.state_id ? prompt : null;
    return {
      seat: seatData ? seatData.seat : null,
      stateId: seatData ? seatData.state_id : -1,
      prompt: current,
      send: (move) => answer({ kind: "move", move }),
      sendDice: (dice) => answer({ kind: "dice", dice }),
      rerender: () => seatData && HeraldGlory.renderSeatDuel(seatData.view, ctx()),
    };
  }

  function renderPrompt() {
    const mine = prompt && prompt.prompts.length ? prompt.prompts[0] : null;
    const glory = seatData && seatData.game === "glory";
    if (glory) HeraldGlory.renderSeatDuel(seatData.view, ctx());
    if (!mine) {
      fill("prompt-text", table && table.over ? t("ui/game-over") : t("ui/waiting", { who: table ? table.to_act.join(", ") : "…" }));
      fill("moves");
    } else if (glory && mine.code.startsWith("prompt/duel-")) {
      fill("prompt-text", mine.text); // the duel panel above holds this step's choices
      fill("moves", el("p", { class: "muted" }, t("ui/glory-use-panel")));
    } else {
      fill("prompt-text", mine.text);
      fill("moves", mine.moves.map((m, i) => el("button", {
        class: `move ${selected === i ? "selected" : ""}`, "data-index": i,
        onclick: () => { selected = selected === i ? null : i; renderPrompt(); },
      }, m.label)));
    }
    confirmButton.disabled = !(mine && selected !== null);
    undoButton.disabled = !(prompt && prompt.can_undo);
    const turn = document.getElementById("turn");
    turn.className = `turn ${mine ? "mine" : ""}`;
    const over = table && table.over;
    const duel = glory ? seatData.view.duel : null;
    const myDice = duel && duel.dice_wanted && duel.dice_wanted.reporters.includes(seatData.seat);
    fill("turn", mine ? t("ui/your-turn") : over ? t("ui/game-over") : myDice ? t("ui/glory-your-dice")
      : t("ui/waiting", { who: table ? table.to_act.join(", ") : "…" }));
  }

  function renderSeat(data) {
    seatData = data;
    if (data.game === "glory") {
      fill("me", seatChip(data.seat));
      document.getElementById("summary").setAttribute("data-state-id", data.state_id);
      fill("income", lines(data.income));
      HeraldGlory.renderSeat(data, ctx());
      fill("scores", el("tbody", {}, data.view.scores.map((row) => el("tr", { class: row.seat === data.seat ? "me" : "" },
        el("td", {}, String(row.rank)), el("td", {}, seatChip(row.seat)), el("td", { class: "num" }, String(row.total))))));
      return;
    }
    const view = data.view;
    const me = view.players.find((p) => p.seat === data.seat);
    fill("me", seatChip(data.seat));
    fill("coins", me ? `${me.coins} ¤` : "");
    fill("summary", `${t("ui/round")} ${view.round} · ${t("ui/state")} ${data.state_id}`);
    document.getElementById("summary").setAttribute("data-state-id", data.state_id);
    fill("income", lines(data.income));
    if (me) {
      fill("fief", fief(me, Object.keys(view.estate_income[data.seat] || {})));
      const dl = [];
      const add = (label, value) => dl.push(el("dt", {}, label), el("dd", {}, value || t("ui/nothing")));
      add(t("ui/special-coins"), me.special_coins.join(", "));
      add(t("ui/story-tokens"), me.story_tokens.map((s) => `${s.symbol} → ${s.estate}`).join(", "));
      add(t("ui/graveyard"), me.graveyard.map((x) => x.estate).join(", "));
      fill("private", dl);
    }
    fill("scores", el("tbody", {}, view.scores.map((row) => el("tr", { class: row.seat === data.seat ? "me" : "" },
      el("td", {}, String(row.rank)), el("td", {}, seatChip(row.seat)), el("td", { class: "num" }, String(row.total))))));
  }

  conn = Herald.connect(token, {
    state: (data) => { table = data; renderPrompt(); },
    seat_state: renderSeat,
    prompt: (data) => {
      if (!prompt || prompt.state_id !== data.state_id || prompt.session !== data.session) selected = null;
      prompt = data;
      renderPrompt();
    },
    refused: (err) => Herald.toast(err.message || t("ui/disconnected"), "bad"),
    violation: (v) => Herald.toast(v.message, "bad"),
    confirm: (c) => Herald.toast(c.message, "bad"), // the camera asks: confirm the move
    error: (e) => Herald.toast(e.message, "bad"),
    roll: (r) => Herald.toast(`${r.device}: ${r.values.join(" ")}`, ""),
  });

  confirmButton.addEventListener("click", async () => {
    const mine = prompt && prompt.prompts[0];
    if (!mine || selected === null) return;
    const move = mine.moves[selected].move;
    confirmButton.disabled = true;
    const reply = await conn.intent({ kind: "move", move });
    if (!reply.ok) Herald.toast(reply.message, "bad");
    selected = null;
    renderPrompt();
  });
  undoButton.addEventListener("click", async () => {
    const reply = await conn.intent({ kind: "undo" });
    if (!reply.ok) Herald.toast(reply.message, "bad");
  });
})();
