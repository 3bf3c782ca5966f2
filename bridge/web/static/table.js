// The table display: public state only. Opened as /host/<token> it also shows the seats' join
// QR codes and lets the host undo. The game's board is drawn by its page module (common.js
// describes the contract); a game without one shows its view as a list of keys and values.
"use strict";

(async () => {
  const { t, el, fill, seatChip, lines } = Herald;
  await Herald.loadLabels();
  document.title = t("ui/title-table");
  for (const [id, code] of [["h-prompts", "ui/prompts"], ["h-last", "ui/last-move"],
    ["h-plot", "ui/plot"], ["h-scores", "ui/scores"], ["h-log", "ui/log"], ["h-join", "ui/join"]]) {
    fill(id, t(code));
  }
  const match = location.pathname.match(/^\/host\/([^/]+)/);
  const hostToken = match ? decodeURIComponent(match[1]) : null;
  let latest = null;

  function renderPlot(coinsByRound, seats, totalRounds) {
    const rounds = Object.keys(coinsByRound).map(Number).sort((a, b) => a - b);
    const W = 320, H = 160, P = 24;
    const svgNS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("role", "img");
    if (!rounds.length) return svg;
    const values = rounds.flatMap((r) => Object.values(coinsByRound[r]));
    const max = Math.max(10, ...values), min = Math.min(0, ...values);
    const last = Math.max(2, totalRounds || 0, ...rounds);
    const x = (r) => P + ((r - 1) / (last - 1)) * (W - 2 * P);
    const y = (v) => H - P - ((v - min) / (max - min)) * (H - 2 * P);
    const axis = document.createElementNS(svgNS, "path");
    axis.setAttribute("d", `M${P} ${P} V${H - P} H${W - P}`);
    axis.setAttribute("class", "axis");
    svg.append(axis);
    for (const [label, vx, vy] of [[String(max), 2, P + 4], [String(min), 2, H - P], [String(last), W - P - 8, H - 6], ["1", P, H - 6]]) {
      const text = document.createElementNS(svgNS, "text");
      text.setAttribute("x", vx); text.setAttribute("y", vy); text.textContent = label;
      svg.append(text);
    }
    for (const seat of seats) {
      const points = rounds.filter((r) => seat in coinsByRound[r]).map((r) => `${x(r)},${y(coinsByRound[r][seat])}`);
      const line = document.createElementNS(svgNS, "polyline");
      line.setAttribute("points", points.join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", Herald.SEAT_COLOURS[seat] || "#666");
      line.setAttribute("stroke-width", "2.5");
      line.setAttribute("data-seat", seat);
      svg.append(line);
    }
    return svg;
  }

  function renderLog(data) {
    const entries = data.log.slice().reverse();
    return entries.map((e, i) => el("li", { class: e.undone ? "undone" : "", "data-seq": e.seq },
      el("span", { class: "seq" }, String(e.seq)),
      el("span", { class: "what" }, e.label),
      e.undone ? el("em", {}, ` (${t("ui/undone")})`) : null,
      hostToken && i === 0 && !data.over && e.kind !== "undo" && e.actor !== "table"
        ? el("button", { class: "small", id: "host-undo", onclick: hostUndo }, t("ui/undo")) : null));
  }

  let module = null; // the game's page module, once loaded
  let pending = null; // the newest state that arrived while the module was loading

  function render(data) {
    latest = data;
    if (module === null) {
      if (pending === null) {
        Herald.loadGame(data.game, "table").then((found) => { module = found; render(pending); });
      }
      pending = data;
      return;
    }
    const view = data.view;
    fill("summary", Herald.summary(data));
    document.getElementById("summary").setAttribute("data-state-id", data.state_id);
    const root = document.getElementById("game");
    const ctx = { key: data.game, data, t: Herald.gameT(data.game) };
    if (module.renderTable) module.renderTable(root, view, ctx);
    else Herald.genericBoard(root, view);
    fill("prompts", Herald.prompts(view));
    const last = view.last_lines || [];
    document.getElementById("last-box").hidden = !last.length;
    fill("last", lines(last));
    const plotted = Object.keys(data.coins_by_round || {}).length > 0; // a game with coins per round
    document.getElementById("h-plot").hidden = !plotted;
    document.getElementById("plot").hidden = !plotted;
    fill("plot", renderPlot(data.coins_by_round, data.seats, view.rounds_total));
    fill("scores", Herald.scores(view, null));
    fill("log", renderLog(data));
  }

  let conn = null;
  async function hostUndo() {
    const reply = await conn.intent({ kind: "undo" });
    if (!reply.ok) Herald.toast(reply.message, "bad");
  }

  // The host's "new game": same game and seats, phones stay joined (the server keeps the tokens).
  async function hostStart() {
    if (!window.confirm(t("ui/new-game-confirm"))) return;
    const reply = await conn.intent({ kind: "start" });
    if (reply.ok) Herald.toast(t("ui/new-game-started", { session: reply.session }), "");
    else Herald.toast(reply.message, "bad");
  }

  conn = Herald.connect(hostToken, {
    state: render,
    refused: (err) => Herald.toast(err.message || t("ui/disconnected"), "bad"),
    host: (data) => {
      document.getElementById("join-box").hidden = false;
      const start = document.getElementById("host-start");
      start.textContent = t("ui/new-game");
      start.onclick = hostStart;
      start.hidden = false;
      if (data.calibrate_url) { // a camera is attached: the host may calibrate it
        const link = document.getElementById("host-calibrate");
        link.href = new URL(data.calibrate_url, location.href).pathname;
        link.textContent = t("ui/cal-link");
        link.hidden = false;
      }
      fill("join", Object.entries(data.links).map(([seat, link]) => {
        const qr = el("div", { class: "qr" });
        qr.innerHTML = link.qr_svg; // generated by the server (segno), not user input
        return el("figure", { class: "join-seat" }, qr, el("figcaption", {}, seatChip(seat), el("a", { href: link.url }, t("ui/join"))));
      }));
    },
    violation: (v) => Herald.toast(v.message, "bad"),
    confirm: (c) => Herald.toast(c.message, "bad"), // the camera asks: confirm the move
    error: (e) => Herald.toast(e.message, "bad"),
    roll: (r) => Herald.toast(r.text || `${r.device}: ${r.values.join(" ")}`, ""),
  });
  HeraldDevices.attach(conn.socket, Boolean(hostToken));
  window.heraldTable = { latest: () => latest };
})();
