// Shared by the table display and the seat page: connection, catalog labels, small DOM helpers.
// No build step: plain browser JavaScript loaded after vendor/socket.io.min.js.
"use strict";

const Herald = (() => {
  const SEAT_COLOURS = {
    blue: "#2f6fdb", green: "#2e9d4f", pink: "#e05a9c", yellow: "#c9a400", purple: "#8a4fd0",
    red: "#c8372d", // the camera's seats are its sticker colours (red, blue, green, yellow)
  };
  let ui = {};

  async function loadLabels() {
    try {
      const response = await fetch("/api/ui");
      ui = await response.json();
    } catch (e) {
      ui = {};
    }
  }

  // A catalog label ("ui/round"), with {name} placeholders filled.
  function t(code, params) {
    let text = ui[code] || code;
    for (const [k, v] of Object.entries(params || {})) text = text.split(`{${k}}`).join(String(v));
    return text;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "style") node.style.cssText = v; // CSSOM: allowed by the page CSP
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function fill(id, ...children) {
    const node = document.getElementById(id);
    if (!node) return null;
    node.replaceChildren(...children.flat());
    return node;
  }

  function seatChip(seat) {
    const colour = SEAT_COLOURS[seat] || "#666";
    return el("span", { class: "chip", style: `--seat:${colour}`, "data-seat": seat }, seat);
  }

  function signed(n) {
    return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
  }

  // Itemised lines (income or score): amount and sentence, the rule reference as a tooltip.
  function lines(items) {
    if (!items || !items.length) return [el("li", { class: "muted" }, t("ui/nothing"))];
    return items.map((line) =>
      el("li", { title: line.ref || "" },
        el("span", { class: `amount ${line.amount < 0 ? "neg" : "pos"}` }, signed(line.amount)),
        el("span", { class: "text" }, line.text)));
  }

  function tile(tile, marks) {
    if (!tile) return el("div", { class: "tile empty" }, marks);
    const symbols = "●".repeat(tile.farmers || 0) + "◆".repeat(tile.chests || 0);
    return el("div", { class: `tile estate-${tile.estate}`, title: `#${tile.number} ${tile.back}` },
      el("span", { class: "estate" }, tile.estate_name || tile.estate),
      symbols ? el("span", { class: "symbols" }, symbols) : null,
      marks);
  }

  // The seat's estate columns: how many tiles of each estate, tokens under the column.
  function fief(player, estates) {
    return el("div", { class: "fief" },
      estates.map((estate, i) => {
        const column = player.board[i] || [];
        const coins = (player.special_coins || []).includes(estate) ? "¤" : "";
        const story = (player.story_tokens || []).filter((s) => s.estate === estate)
          .map((s) => s.symbol[0]).join("");
        return el("div", { class: `col estate-${estate} ${column.length ? "" : "none"}`, title: estate },
          el("span", { class: "name" }, estate.slice(0, 3)),
          el("span", { class: "count" }, String(column.length)),
          el("span", { class: "tokens" }, coins + story));
      }));
  }

  const LOG_TAIL = 40; // log entries kept for the display, as the server's snapshot sends

  // Connects with the token (if any) from the page URL; keeps the newest state only and
  // resynchronises after a reconnection by sending its last state_id.
  //
  // A `state` is either a snapshot (`snapshot: true`: on connect, on sync, after a new game) with
  // the log tail and the coin series, or a change (`snapshot: false`) carrying only what the event
  // changed in them (`log_added`, `log_undone`, `coins_changed`, `income_changed`). The change is
  // merged here, so handlers.state always sees a whole state with `log`, `coins_by_round` and
  // `income`. A change that does
  // not follow the state held (one was missed) triggers a `sync`, which answers with a snapshot.
  // A new `session` number (the host started a new game) resets everything, state_id included.
  function connect(token, handlers) {
    let last = -1;
    let session = null;
    let log = [];
    let coins = {};
    let income = {};
    let syncing = false; // a sync is on its way: wait for its snapshot instead of asking again
    const socket = io({ auth: (cb) => cb({ token, state_id: last }), transports: ["websocket", "polling"] });
    const status = document.getElementById("conn");
    const setStatus = (ok) => {
      if (!status) return;
      status.textContent = ok ? "●" : t("ui/disconnected");
      status.className = ok ? "conn ok" : "conn down";
    };
    socket.on("connect", () => setStatus(true));
    socket.on("disconnect", () => setStatus(false));
    socket.on("connect_error", (err) => {
      setStatus(false);
      if (err && err.data && handlers.refused) handlers.refused(err.data);
    });
    // Merges a state into the log and coins held; false when it is old or cannot be applied.
    const merge = (data) => {
      if (data.session !== session) { session = data.session; last = -1; log = []; coins = {}; income = {}; }
      if (data.snapshot !== false) {
        syncing = false;
        if (data.state_id < last) return false;
        log = data.log || [];
        coins = data.coins_by_round || {};
        income = data.income || {};
        return true;
      }
      if (data.state_id <= last) return false;
      if (data.state_id !== last + 1) {
        if (!syncing) { syncing = true; socket.emit("sync", { state_id: last }); }
        return false;
      }
      const undone = new Set(data.log_undone || []);
      log = log.map((e) => (undone.has(e.seq) ? { ...e, undone: true } : e))
        .concat(data.log_added || []).slice(-LOG_TAIL);
      coins = { ...coins, ...(data.coins_changed || {}) };
      income = { ...income, ...(data.income_changed || {}) };
      return true;
    };
    socket.on("state", (data) => {
      if (!merge(data)) return;
      last = data.state_id;
      handlers.state({ ...data, log, coins_by_round: coins, income });
    });
    // seat_state and prompt follow the state they belong to on the same connection
    const current = (data) => (data.session === undefined || data.session === session) && data.state_id >= last;
    for (const name of ["seat_state", "prompt", "error", "violation", "confirm", "roll", "host", "welcome"]) {
      socket.on(name, (data) => {
        if ((name === "seat_state" || name === "prompt") && !current(data)) return;
        if (handlers[name]) handlers[name](data);
      });
    }
    return {
      socket,
      lastStateId: () => last,
      intent(body) {
        return new Promise((resolve) => socket.emit("intent", { state_id: last, ...body }, resolve));
      },
    };
  }

  function toast(text, kind) {
    const box = document.getElementById("toast");
    if (!box) return;
    box.replaceChildren(el("div", { class: `toast ${kind || ""}` }, text));
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => box.replaceChildren(), 6000);
  }

  return { SEAT_COLOURS, loadLabels, t, el, fill, seatChip, signed, lines, tile, fief, connect, toast };
})();
