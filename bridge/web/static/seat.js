// The phone seat page (mobile-first, 360 px wide and up): whose turn, your prompt with its legal
// moves, confirm/undo, your income breakdown, the scores. It receives only this seat's private
// view: the server sends seat_state and prompt to this seat's room alone. The seat's own
// holdings are drawn by the game's page module (common.js describes the contract); a game
// without one shows its view as a list of keys and values.
"use strict";

(async () => {
  const { t, el, fill, seatChip, lines } = Herald;
  await Herald.loadLabels();
  document.title = t("ui/title-seat");
  for (const [id, code] of [["h-prompt", "ui/your-prompt"], ["h-income", "ui/your-income"],
    ["h-scores", "ui/scores"], ["confirm", "ui/confirm"], ["undo", "ui/undo"]]) {
    fill(id, t(code));
  }
  const match = location.pathname.match(/^\/s\/([^/]+)/);
  const token = match ? decodeURIComponent(match[1]) : "";
  let selected = null;
  let prompt = null;
  let table = null;
  let seatData = null;
  let conn = null;
  let module = null; // the game's page module, once loaded
  let loadingModule = false;
  const confirmButton = document.getElementById("confirm");
  const undoButton = document.getElementById("undo");

  // Load the game's page module once the game is known; draw again when it is there.
  function needModule(data) {
    if (module !== null || loadingModule || !data) return false;
    loadingModule = true;
    Herald.loadGame(data.game, "seat").then((found) => {
      module = found;
      if (seatData) renderSeat(seatData);
      renderPrompt();
    });
    return true;
  }

  async function answer(body) {
    const reply = await conn.intent(body);
    if (!reply.ok) Herald.toast(reply.message, "bad");
    return reply;
  }

  // What a game's page module needs to draw the seat and offer moves (see common.js).
  function ctx() {
    const current = prompt && seatData && prompt.state_id === seatData.state_id ? prompt : null;
    const key = seatData ? seatData.game : table ? table.game : null;
    return {
      key,
      data: seatData,
      t: Herald.gameT(key),
      top: document.getElementById("game-top"),
      seat: seatData ? seatData.seat : null,
      stateId: seatData ? seatData.state_id : -1,
      prompt: current,
      send: (move) => answer({ kind: "move", move }),
      sendDice: (dice) => answer({ kind: "dice", dice }),
      rerender: () => seatData && drawGame(seatData),
    };
  }

  function waitingText() {
    return t("ui/waiting", { who: table ? table.to_act.join(", ") : "…" });
  }

  function renderPrompt() {
    if (module === null) return;
    const mine = prompt && prompt.prompts.length ? prompt.prompts[0] : null;
    const view = seatData ? seatData.view : null;
    const c = ctx();
    if (seatData) drawGame(seatData); // the module may offer this prompt's moves itself
    const note = mine && view && module.promptNote ? module.promptNote(mine, view, c) : null;
    if (!mine) {
      fill("prompt-text", table && table.over ? t("ui/game-over") : waitingText());
      fill("moves");
    } else if (note) {
      fill("prompt-text", mine.text); // the module's own panel holds this step's choices
      fill("moves", el("p", { class: "muted" }, note));
    } else {
      fill("prompt-text", mine.text);
      fill("moves", mine.moves.map((m, i) => el("button", {
        class: `move ${selected === i ? "selected" : ""}`, "data-index": i,
        onclick: () => { selected = selected === i ? null : i; renderPrompt(); },
      }, m.label)));
    }
    confirmButton.disabled = !(mine && !note && selected !== null);
    undoButton.disabled = !(prompt && prompt.can_undo);
    const turn = document.getElementById("turn");
    turn.className = `turn ${mine ? "mine" : ""}`;
    const over = table && table.over;
    const own = !mine && !over && view && module.turnText ? module.turnText(view, c) : null;
    fill("turn", mine ? t("ui/your-turn") : over ? t("ui/game-over") : own || waitingText());
  }

  function drawGame(data) {
    if (module === null) return;
    const root = document.getElementById("game");
    if (module.renderSeat) module.renderSeat(root, data.view, ctx());
    else Herald.genericBoard(root, data.view);
  }

  function renderSeat(data) {
    seatData = data;
    if (needModule(data) || module === null) return;
    const view = data.view;
    fill("me", seatChip(data.seat));
    fill("coins", module.header ? module.header(view, ctx()) || "" : "");
    fill("summary", Herald.summary(data));
    document.getElementById("summary").setAttribute("data-state-id", data.state_id);
    const income = data.income || [];
    document.getElementById("income-box").hidden = !income.length && !module.incomeTitle;
    fill("h-income", t(module.incomeTitle || "ui/your-income"));
    fill("income", lines(income));
    drawGame(data);
    fill("scores", Herald.scores(view, data.seat));
  }

  conn = Herald.connect(token, {
    state: (data) => { table = data; needModule(data); renderPrompt(); },
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
