// The phone seat page (mobile-first, 360 px wide and up): whose turn, your prompt with its legal
// moves and what each gives you, confirm/undo, your income breakdown, the scores with theirs. It
// receives only this seat's private view: the server sends seat_state and prompt to this seat's
// room alone, in the language this phone reads. The seat's own holdings are drawn by the game's
// page module (common.js describes the contract); a game without one shows its view as a list of
// keys and values. One message per state: the banner says whose turn it is, the panel below
// holds only this seat's own choices.
"use strict";

(async () => {
  const { t, el, fill, seatChip, lines } = Herald;
  await Herald.loadLabels();
  document.title = t("ui/title-seat");
  for (const [id, code] of [["h-prompt", "ui/your-prompt"], ["h-income", "ui/your-income"],
    ["h-scores", "ui/scores"], ["confirm", "ui/confirm"], ["undo", "ui/undo"],
    ["alerts-label", "ui/alerts"], ["lang-label", "ui/language"]]) {
    fill(id, t(code));
  }
  fill("lang-box", Herald.langSwitch());
  const match = location.pathname.match(/^\/s\/([^/]+)/);
  const token = match ? decodeURIComponent(match[1]) : "";
  let selected = null;
  let prompt = null;
  let table = null;
  let seatData = null;
  let conn = null;
  let module = null; // the game's page module, once loaded
  let loadingModule = false;
  let wasMine = false;
  const confirmButton = document.getElementById("confirm");
  const undoButton = document.getElementById("undo");

  // "Your turn" alerts, opt-in on this phone: a vibration and a short tone.
  const alerts = document.getElementById("alerts");
  try { alerts.checked = localStorage.getItem("herald-alerts") === "1"; } catch (e) { alerts.checked = false; }
  let audio = null;
  alerts.addEventListener("change", () => {
    try { localStorage.setItem("herald-alerts", alerts.checked ? "1" : "0"); } catch (e) { /* private mode */ }
    if (alerts.checked && !audio && window.AudioContext) audio = new AudioContext(); // unlocked by this tap
  });
  function yourTurnAlert() {
    if (!alerts.checked) return;
    if (navigator.vibrate) navigator.vibrate([180, 80, 180]);
    if (!audio && window.AudioContext) audio = new AudioContext();
    if (!audio) return;
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    window.heraldAlerts = (window.heraldAlerts || 0) + 1;
  }

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

  // What a move made gave: "Done: <its label> · <its preview>".
  function moved(m) {
    const text = t("ui/moved", { label: Herald.forSeat(seatData && seatData.seat, m.label) });
    const gave = Herald.previewText(m);
    return gave ? `${text} · ${gave}` : text;
  }

  // A move made from the module's own panel: the same feedback as the confirm button's.
  async function answer(body) {
    const wanted = JSON.stringify(body.move);
    const found = body.kind === "move" && prompt && prompt.prompts[0]
      ? prompt.prompts[0].moves.find((m) => JSON.stringify(m.move) === wanted) : null;
    const reply = await conn.intent(body);
    if (!reply.ok) Herald.toast(reply.message, "bad");
    else if (found) Herald.toast(moved(found), "good");
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

  // Whom the table waits for, said once: the table's own step, or the seats by name.
  function waiting() {
    if (!table) return t("ui/waiting", { who: "…" });
    const acting = table.to_act || [];
    const view = table.view || {};
    const step = (view.prompts || []).find((p) => p.seat === "table");
    if (acting.includes("table") && step) return t("ui/waiting-table", { text: Herald.tableText(step.text) });
    return t("ui/waiting", { who: acting.map((s) => Herald.seatName(s)).join(", ") });
  }

  function moveButton(m, i) {
    return el("button", {
      class: `move ${selected === i ? "selected" : ""}`, "data-index": i, type: "button",
      onclick: () => { selected = selected === i ? null : i; renderPrompt(); },
    }, el("span", { class: "move-label" }, Herald.forSeat(seatData && seatData.seat, m.label)), Herald.preview(m));
  }

  // A move open out of turn (an Opportunity card on another's turn): sent at once when tapped.
  function windowButton(m) {
    return el("button", {
      class: "move window-move", type: "button",
      onclick: async (ev) => {
        ev.currentTarget.disabled = true;
        const reply = await conn.intent({ kind: "move", move: m.move });
        if (!reply.ok) Herald.toast(reply.message, "bad");
        else Herald.toast(moved(m), "good");
      },
    }, el("span", { class: "move-label" }, Herald.forSeat(seatData && seatData.seat, m.label)));
  }

  // Dice the table rolled, typed in on this phone (no dice tower or smart dice): one row of
  // values per die the step waits for (the referee's dice_pool), sent as a dice intent. A game
  // whose page module draws its own dice form (typesDice) keeps it.
  let typed = {};
  let typedFor = null;
  function diceTyped(pool) {
    const key = table ? table.game : null;
    if (typedFor !== (table && table.state_id)) { typed = {}; typedFor = table && table.state_id; }
    const name = (d) => {
      const code = `${key}:ui/die-${d.type || "plain"}${d.color ? `-${d.color}` : ""}`;
      return Herald.t(code) !== code ? Herald.t(code) : t("ui/die-plain", { sides: d.sides });
    };
    const rows = pool.map((d, i) => el("div", { class: "dice-row", "data-die-index": i },
      el("span", { class: `die-name die-${d.color || "plain"}` }, name(d)),
      Array.from({ length: d.sides }, (_, k) => k + 1).map((v) => el("button", {
        type: "button", class: `face ${typed[i] === v ? "on" : ""}`, "data-value": v,
        onclick: () => { typed[i] = v; renderPrompt(); },
      }, String(v)))));
    const complete = pool.every((_, i) => typed[i]);
    const send = async (ev) => {
      ev.currentTarget.disabled = true;
      const reply = await conn.intent({ kind: "dice", dice: pool.map((d, i) => ({ ...d, value: typed[i] })) });
      if (!reply.ok) Herald.toast(reply.message, "bad");
      else Herald.toast(t("ui/dice-typed-sent"), "good");
    };
    return [el("p", { class: "muted" }, t("ui/dice-typed", { n: pool.length })), ...rows,
      el("button", { class: "primary", id: "dice-typed-send", type: "button", disabled: !complete, onclick: send }, t("ui/dice-typed-send"))];
  }

  function renderPrompt() {
    if (module === null) return;
    const over = Boolean(table && table.over);
    const mine = !over && prompt && prompt.prompts.length ? prompt.prompts[0] : null;
    const view = seatData ? seatData.view : null;
    const c = ctx();
    if (seatData) drawGame(seatData); // the module may offer this prompt's moves itself
    const note = mine && view && module.promptNote ? module.promptNote(mine, view, c) : null;
    if (!mine) {
      fill("prompt-text");
      fill("moves");
    } else if (note) {
      fill("prompt-text", Herald.forSeat(mine.seat, mine.text)); // the module's own panel holds this step's choices
      fill("moves", el("p", { class: "muted" }, note));
    } else {
      fill("prompt-text", Herald.forSeat(mine.seat, mine.text));
      fill("moves", mine.moves.map(moveButton));
    }
    const open = !over && prompt && prompt.window_moves ? prompt.window_moves : [];
    fill("window", open.length ? [el("p", { class: "muted" }, t("ui/out-of-turn")), ...open.map(windowButton)] : []);
    const pool = !over && table && table.dice_pool && !module.typesDice ? table.dice_pool : null;
    fill("dice-typed", pool ? diceTyped(pool) : []);
    const canUndo = !over && Boolean(prompt && prompt.can_undo);
    confirmButton.hidden = !mine || Boolean(note);
    confirmButton.disabled = !(mine && !note && selected !== null);
    undoButton.hidden = !canUndo;
    undoButton.disabled = !canUndo;
    document.getElementById("h-prompt").hidden = !mine;
    document.getElementById("prompt-box").hidden = !mine && !canUndo && !open.length && !pool;
    const turn = document.getElementById("turn");
    turn.className = mine ? "turn mine" : "turn";
    const own = !mine && !over && view && module.turnText ? module.turnText(view, c) : null;
    fill("turn", mine ? t("ui/your-turn") : over ? t("ui/game-over") : own || waiting());
    if (mine && !wasMine) yourTurnAlert();
    wasMine = Boolean(mine);
    fill("final-box", over && view ? Herald.finalScreen(seatData.game, view) : []);
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
    Herald.setNames(data.names);
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
    state: (data) => {
      // every undo is said with the move it took back: this phone's own, another seat's, the host's
      const undos = data.snapshot === false ? (data.log_added || []).filter((e) => e.kind === "undo") : [];
      for (const undo of undos) {
        const said = Herald.undoText(undo, seatData ? seatData.seat : null);
        if (said) Herald.toast(said, seatData && undo.actor === seatData.seat ? "good" : "");
      }
      table = data; needModule(data); renderPrompt();
    },
    seat_state: renderSeat,
    prompt: (data) => {
      if (!prompt || prompt.state_id !== data.state_id || prompt.session !== data.session) selected = null;
      prompt = data;
      renderPrompt();
    },
    refused: (err) => Herald.toast(err.message || t("ui/disconnected"), "bad"),
    violation: (v) => Herald.toast(v.message, "bad"),
    error: (e) => Herald.toast(e.message, "bad"),
    // a roll no step took (used: false) stays in the device panel, not in a toast
    roll: (r) => {
      window.heraldRolls = (window.heraldRolls || 0) + 1; // rolls received (tests read it)
      if (r.used !== false) Herald.toast(Herald.deviceWords(Herald.said(r.texts, r.text) || `${r.device}: ${r.values.join(" ")}`), "");
    },
  });

  confirmButton.addEventListener("click", async () => {
    const mine = prompt && prompt.prompts[0];
    if (!mine || selected === null) return;
    const chosen = mine.moves[selected];
    confirmButton.disabled = true;
    const reply = await conn.intent({ kind: "move", move: chosen.move });
    if (!reply.ok) Herald.toast(reply.message, "bad");
    else Herald.toast(moved(chosen), "good");
    selected = null;
    renderPrompt();
  });
  window.heraldSeat = { prompt: () => prompt, table: () => table };
  window.heraldQuestion = HeraldQuestion.attach(conn); // the camera's question, when it asks this seat
  undoButton.addEventListener("click", async () => {
    const reply = await conn.intent({ kind: "undo" });
    if (!reply.ok) Herald.toast(reply.message, "bad"); // accepted: said with the state it made
  });
})();
