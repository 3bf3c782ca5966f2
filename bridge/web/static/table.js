// The table display: public state only. Opened as /host/<token> it also shows the seats' join
// QR codes, lets the host undo, set up a new game and export the game. The game's board is drawn
// by its page module (common.js describes the contract); a game without one shows its view as a
// list of keys and values. Whose turn it is stands in large type above everything, the acting
// seat's board is highlighted, and at the end the ranking says how each tie was settled.
"use strict";

(async () => {
  const { t, el, fill, seatChip, lines } = Herald;
  await Herald.loadLabels();
  document.title = t("ui/title-table");
  for (const [id, code] of [["h-prompts", "ui/prompts"], ["h-last", "ui/last-move"],
    ["h-plot", "ui/plot-score"], ["h-scores", "ui/scores"], ["h-log", "ui/log"], ["h-join", "ui/join"],
    ["tv-label", "ui/tv"]]) {
    fill(id, t(code));
  }
  fill("lang-box", Herald.langSwitch());
  const params = new URLSearchParams(location.search);
  const tv = document.getElementById("tv");
  const setTv = (on) => { document.body.classList.toggle("tv", on); tv.checked = on; };
  let savedTv = false;
  try { savedTv = localStorage.getItem("herald-tv") === "1"; } catch (e) { savedTv = false; }
  setTv(params.get("tv") === "1" || savedTv);
  tv.addEventListener("change", () => {
    setTv(tv.checked);
    HeraldPlot.redraw(); // the plot's axes in the new type size
    try { localStorage.setItem("herald-tv", tv.checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });
  const match = location.pathname.match(/^\/host\/([^/]+)/);
  const hostToken = match ? decodeURIComponent(match[1]) : null;
  let latest = null;

  const entryText = (e) => Herald.seatWords((e.labels && e.labels[Herald.LANG]) || e.label);

  // A run of moves the referee made itself is one line (logfold.js).
  const runText = (run) => t("ui/log-auto-run", { count: run.length, moves: HeraldLogFold.moves(run.map(entryText)) });

  function renderLog(data) {
    const entries = HeraldLogFold.fold(data.log).reverse();
    return entries.map((e, i) => e.run ? el("li", { class: "auto-run", "data-seq": e.run[0].seq, "data-run": e.run.length },
      el("button", { class: "seq link", type: "button", title: t("ui/history-show"), onclick: () => HeraldHistory.show(e.run[e.run.length - 1].seq) },
        `${e.run[0].seq}–${e.run[e.run.length - 1].seq}`),
      el("span", { class: "what" }, runText(e.run)),
      hostToken && i === 0 && !data.over ? el("button", { class: "small", id: "host-undo", onclick: hostUndo }, t("ui/undo")) : null)
    : el("li", { class: e.undone ? "undone" : "", "data-seq": e.seq },
      el("button", { class: "seq link", type: "button", title: t("ui/history-show"), onclick: () => HeraldHistory.show(e.seq) }, String(e.seq)),
      el("span", { class: "what" }, entryText(e)),
      e.undone ? el("em", {}, ` (${t("ui/undone")})`) : null,
      // the camera's picture of a move it read (the audit trail; the host's display only)
      hostToken && e.frame ? el("a", { class: "frame-link", href: `/api/frames/${encodeURIComponent(hostToken)}/${e.seq}.jpg`,
        target: "_blank", rel: "noopener", title: t("ui/frame-open"), "aria-label": t("ui/frame-open") }, "\u{1F4F7}") : null,
      hostToken && i === 0 && !data.over && e.kind !== "undo" && e.actor !== "table"
        ? el("button", { class: "small", id: "host-undo", onclick: hostUndo }, t("ui/undo")) : null));
  }

  // The last move's itemised lines, each with whose it is (its seat's chip), one line per thing:
  // the same line for the same seat said once with its count (one title's points three
  // times, and three "Event Earthquake" lines, named no seat: issue 25, point 5).
  function lastLines(items) {
    const merged = [];
    for (const line of items) {
      const same = merged.find((m) => m.seat === line.seat && m.text === line.text && m.amount === line.amount);
      if (same) same.count++;
      else merged.push({ ...line, count: 1 });
    }
    return merged.map((line) => {
      const [item] = lines([line]);
      if (line.seat && line.seat !== "table") item.prepend(seatChip(line.seat), " ");
      if (line.count > 1) item.append(` ×${line.count}`);
      item.setAttribute("data-seat", line.seat || "");
      return item;
    });
  }

  let module = null; // the game's page module, once loaded
  let moduleKey = null;
  let pending = null; // the newest state that arrived while the module was loading

  // The acting seats' boards (the module's `[data-seat]` articles) stand out.
  function highlight(root, acting) {
    for (const board of root.querySelectorAll(".board[data-seat]")) {
      board.classList.toggle("acting", acting.includes(board.getAttribute("data-seat")));
    }
  }

  function render(data) {
    const undos = data.snapshot === false ? (data.log_added || []).filter((e) => e.kind === "undo") : [];
    for (const undo of undos) {
      const said = Herald.undoText(undo, null);
      if (said) Herald.toast(said, "");
    }
    latest = data;
    if (module === null || moduleKey !== data.game) {
      if (pending === null) {
        const key = data.game;
        Herald.loadGame(key, "table").then((found) => {
          module = found; moduleKey = key;
          const next = pending; pending = null; render(next);
        });
      }
      pending = data;
      return;
    }
    const view = data.view;
    fill("summary", Herald.summary(data));
    document.getElementById("summary").setAttribute("data-state-id", data.state_id);
    fill("turn-banner", Herald.turnBanner(data, null));
    const root = document.getElementById("game");
    const ctx = { key: data.game, data, t: Herald.gameT(data.game) };
    if (module.renderTable) module.renderTable(root, view, ctx);
    else Herald.genericBoard(root, view);
    highlight(root, data.over ? [] : data.to_act || []);
    const seatPrompts = (view.prompts || []).filter((p) => p.seat !== "table");
    // no seat is asked (the table rolls a sub-game's dice, say): say what the table waits for, as
    // the banner does, not a bare "—" under "Who acts now" (issue 25, point 5)
    const tablePrompt = (view.prompts || []).find((p) => p.seat === "table");
    const acting = (data.to_act || []).filter((s) => s !== "table");
    let asked = Herald.prompts({ ...view, prompts: seatPrompts });
    if (!seatPrompts.length && !data.over && tablePrompt) {
      asked = [el("li", { class: "table-step", "data-seat": "table" }, Herald.tableStep(tablePrompt.text))];
    } else if (!seatPrompts.length && !data.over && acting.length) {
      asked = acting.map((s) => el("li", { "data-seat": s }, Herald.seatChip(s)));
    }
    fill("prompts", asked);
    const last = view.last_lines || [];
    document.getElementById("last-box").hidden = !last.length;
    fill("last", lastLines(last));
    const series = data.score_by_move || {};
    const plotted = Object.keys(series).length > 0;
    document.getElementById("h-plot").hidden = !plotted;
    document.getElementById("plot").hidden = !plotted;
    HeraldPlot.draw(document.getElementById("plot"), series, data.seats, data.game, data.state_id);
    fill("scores", Herald.scores(view, null));
    fill("final-box", data.over ? Herald.finalScreen(data.game, view) : []);
    fill("log", renderLog(data));
    HeraldHistory.live(data.state_id);
  }

  let conn = null;
  let lobbyShown = false;
  async function hostUndo() {
    const reply = await conn.intent({ kind: "undo" });
    if (!reply.ok) Herald.toast(reply.message, "bad"); // accepted: said with the state it made
  }

  // The host's "new game": the form starts from this table's game, seats and names; phones stay
  // joined while the seats stay the same (the server keeps their tokens).
  async function sendSetup(setup) {
    const reply = await conn.intent({ kind: "start", setup });
    if (reply.ok) Herald.toast(t("ui/new-game-started", { session: reply.session }), "");
    else Herald.toast(reply.message, "bad");
    return reply.ok;
  }

  conn = Herald.connect(hostToken, {
    state: render,
    refused: (err) => Herald.toast(err.message || t("ui/disconnected"), "bad"),
    host: (data) => {
      HeraldSetup.problems(data.problems || []);
      document.getElementById("join-box").hidden = false;
      const start = document.getElementById("host-start");
      start.textContent = t("ui/new-game");
      start.onclick = () => latest && HeraldSetup.open(latest, sendSetup);
      start.hidden = false;
      // the table started with no game chosen: the host picks it here first (the lobby)
      if (data.lobby && latest && !lobbyShown) { lobbyShown = true; HeraldSetup.open(latest, sendSetup); }
      if (data.export_url) {
        const link = document.getElementById("host-export");
        link.href = new URL(data.export_url, location.href).pathname;
        link.textContent = t("ui/export");
        link.hidden = false;
      }
      if (data.phone_url) { // herald serve --camera phone: the host opens this page on a phone
        const link = document.getElementById("host-phone");
        link.href = new URL(data.phone_url, location.href).pathname;
        link.textContent = t("ui/phone-link");
        link.hidden = false;
      }
      if (data.box_url) { // the host enters the group's own box (issue #24)
        const link = document.getElementById("host-box");
        link.href = new URL(data.box_url, location.href).pathname;
        link.textContent = t("ui/box-link");
        link.hidden = false;
      }
      if (data.calibrate_url) { // a camera is attached: the host may calibrate it
        const link = document.getElementById("host-calibrate");
        link.href = new URL(data.calibrate_url, location.href).pathname;
        link.textContent = t("ui/cal-link");
        link.hidden = false;
      }
      const figures = Object.entries(data.links).map(([seat, link]) => {
        const qr = el("div", { class: "qr" });
        qr.innerHTML = link.qr_svg; // generated by the server (segno), not user input
        return el("figure", { class: "join-seat" }, qr, el("figcaption", {}, seatChip(seat), el("a", { href: link.url }, t("ui/join"))));
      });
      if (data.phone_qr_svg) { // the phone-camera page, for the phone held over the table
        const qr = el("div", { class: "qr" });
        qr.innerHTML = data.phone_qr_svg; // generated by the server (segno), not user input
        figures.push(el("figure", { class: "join-seat", id: "phone-qr" }, qr, el("figcaption", {}, el("a", { href: data.phone_url }, t("ui/phone-link")))));
      }
      fill("join", figures);
    },
    violation: (v) => Herald.toast(v.message, "bad"),
    error: (e) => Herald.toast(e.message, "bad"),
    // a roll no step took (used: false) stays in the device panel, not in a toast
    roll: (r) => {
      window.heraldRolls = (window.heraldRolls || 0) + 1; // rolls received (tests read it)
      if (r.used !== false) Herald.toast(Herald.deviceWords(Herald.said(r.texts, r.text) || `${r.device}: ${r.values.join(" ")}`), "");
    },
  });
  HeraldHistory.attach(conn, () => module);
  window.heraldQuestion = HeraldQuestion.attach(conn, { host: Boolean(hostToken) }); // the camera's question
  HeraldDevices.attach(conn.socket, Boolean(hostToken));
  window.addEventListener("resize", () => latest && module && render(latest));
  window.heraldTable = { latest: () => latest, plot: () => HeraldPlot.pointsInside() };
})();
