// Shared by the table display and the seat page: connection, catalog labels, small DOM helpers,
// the generic renderers every game gets, and the loader of a game's own page module.
// No build step: plain browser JavaScript loaded after vendor/socket.io.min.js.
//
// The game page module contract
// -----------------------------
// The pages name no game. The state payload says which game is played (`data.game`, its key);
// the page asks `/games/<key>/ui/` which files the game's package ships in its `ui/` folder and
// loads them: `style.css`, then `shared.js` (code both pages use), then `table.js` on the table
// display or `seat.js` on a seat's phone. Each script adds its parts with
// `Herald.register(key, {...})`; every part is optional:
//
//   renderTable(root, view, ctx)  table display: draw the game's board into `root` (an empty
//                                 <div>, the first column; add your own `section.card`s)
//   renderSeat(root, view, ctx)   seat page: draw the seat's own holdings into `root` (below the
//                                 prompt); `ctx.top` is a second <div> above the prompt (a contest,
//                                 a pending choice) that the module may fill
//   header(view, ctx)             seat page: a short text beside the seat chip ("12 ¤")
//   promptNote(prompt, view, ctx) seat page: a text when the module offers this prompt's moves
//                                 itself (in ctx.top); the generic move buttons are then hidden
//   turnText(view, ctx)           seat page: the banner when it is not this seat's turn but the
//                                 game still waits for it (e.g. "roll your dice"); null otherwise
//   incomeTitle                   seat page: the game's own heading for the income lines (a code)
//
// `view` is the presented view (engine.present.view): the game's own data plus the core's keys
// `game`, `to_act`, `prompts`, `scores`, `last_lines` and, on a seat page, `you` and
// `your_prompts`. `ctx` holds `key`, `data` (the whole payload: `income`, `log`, `state_id`,
// `seats`, `over`), `t(code, params)` for the game's own labels (`<key>:ui/<code>` in the game's
// catalog), and on the seat page `seat`, `stateId`, `prompt` (this seat's prompt payload, with
// labelled moves, or null), `send(move)`, `sendDice(dice)` and `rerender()`.
//
// A game with no `ui/` folder still gets working pages: the generic parts (whose turn, prompts as
// move buttons, scores with their itemised lines, the log, plot and devices) and its view as a
// readable list of keys and values.
"use strict";

const Herald = (() => {
  const SEAT_COLOURS = {
    blue: "#2f6fdb", green: "#2e9d4f", pink: "#e05a9c", yellow: "#c9a400", purple: "#8a4fd0",
    orange: "#e07a1f", teal: "#168f8f",
    red: "#c8372d", // the camera's seats are its sticker colours (red, blue, green, yellow)
    magenta: "#c2188f", white: "#b9b4aa", // sticker colours too (white drawn as a light grey line)
    // colours a group's own box may name its families by (bridge/seats.py family_colours)
    black: "#2b2b2b", brown: "#7a4a1e", grey: "#7f8c8d", gray: "#7f8c8d", violet: "#7d3c98", gold: "#b8860b",
  };
  let ui = {};

  // The page's language: `?lang=pl` on its address, else the one chosen on this device with the
  // page's switch, else the browser's own (labels missing there fall back to English).
  const LANGS = ["en", "pl"]; // the shipped languages (engine.i18n.LANGUAGES)
  const LANG = (() => {
    const asked = new URLSearchParams(location.search).get("lang");
    if (asked) return asked;
    let saved = null;
    try { saved = localStorage.getItem("herald-lang"); } catch (e) { saved = null; }
    if (saved && LANGS.includes(saved)) return saved;
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const base = String(tag).toLowerCase().split("-")[0];
      if (LANGS.includes(base)) return base;
    }
    return "en";
  })();
  document.documentElement.lang = LANG;
  let names = {}; // seat → the name its player chose (the host's setup), from each state

  async function loadLabels() {
    try {
      const response = await fetch(`/api/ui?lang=${encodeURIComponent(LANG)}`);
      ui = await response.json();
    } catch (e) {
      ui = {};
    }
  }

  // A catalog label ("ui/round"), with {name} placeholders filled.
  function t(code, params) {
    let text = ui[code] || code;
    if (typeof text === "object") { // a plural entry: {"$n": param, one, few, many, other} (CLDR)
      const n = Number((params || {})[text.$n]);
      text = text[new Intl.PluralRules(LANG).select(n)] || text.other;
    }
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

  // A seat in words: its player's name beside its colour ("Ala (blue)"), or the colour alone.
  function seatName(seat) {
    if (seat === "table") return t("ui/the-table");
    const colour = ui[`ui/colour-${seat}`] ? t(`ui/colour-${seat}`) : seat;
    return names[seat] ? `${names[seat]} (${colour})` : colour;
  }

  function seatChip(seat, big) {
    const colour = SEAT_COLOURS[seat] || "#666";
    return el("span", { class: `chip ${big ? "big" : ""}`, style: `--seat:${colour}`, "data-seat": seat }, seatName(seat));
  }

  function setNames(given, seats) {
    names = given || {};
    if (Array.isArray(seats)) seatKeys = seats.filter((k) => /^[a-z]+$/.test(k));
  }

  // A server sentence with each seat of this table named as everywhere else on the page: its
  // colour in the page's language and the player's name ("green" is "zielony" in Polish, "Ala
  // (green)" once named). Move labels and violations name seats by their keys.
  let seatKeys = [];
  function seatWords(text) {
    const s = String(text);
    if (!seatKeys.length) return s;
    // not inside "(…)": a seat already named ("Ala (green)") stays as it is
    const any = new RegExp(`(?<![\\w(-])(${seatKeys.join("|")})(?![\\w)-])`, "g");
    return s.replace(any, (seat) => seatName(seat));
  }

  // A device in words (issue 15, point 4): a seat box by its seat's name ("seat-green" is
  // "green's seat box"), a dice tower by its number ("tower-1" is "Dice tower 1"); any other id
  // is the name the device gave itself.
  function deviceName(id) {
    const s = String(id);
    const seat = s.match(/^seat-([a-z]+)$/);
    if (seat) return t("ui/device-seat-box", { seat: seatName(seat[1]) });
    const tower = s.match(/^tower-(\d+)$/);
    return tower ? t("ui/device-tower", { number: tower[1] }) : s;
  }

  // A server sentence naming seat boxes and towers by id, with each named in words (quoted).
  function deviceWords(text) {
    return String(text).replace(/(?<![\w-])(seat-[a-z]+|tower-\d+)(?![\w-])/g,
      (id) => t("ui/device-named", { name: deviceName(id) }));
  }

  // The language switch: the choice is kept on this device and the page reloads in it.
  function langSwitch() {
    const select = el("select", { id: "lang", "aria-label": t("ui/language"), class: "lang",
      onchange: () => {
        try { localStorage.setItem("herald-lang", select.value); } catch (e) { /* private mode */ }
        const url = new URL(location.href);
        url.searchParams.set("lang", select.value);
        location.replace(url.toString());
      } },
    LANGS.map((l) => el("option", { value: l, selected: l === LANG }, t(`ui/lang-${l}`))));
    return select;
  }

  // A phase in the players' words, from the game's catalog; nothing when the game has none.
  function phaseWords(key, phase) {
    if (phase === undefined || phase === null) return "";
    const code = `${key}:ui/phase-${phase}`;
    return ui[code] ? t(code) : "";
  }

  // The table's step without a leading "Table:" (the banner already says it is the table's).
  function tableText(text) {
    const word = t("ui/the-table").toLowerCase();
    const bare = word.split(" ").pop(); // "Table: deal…" addresses "the table" too
    const head = String(text).split(":", 1)[0];
    const named = [word, bare].includes(head.trim().toLowerCase());
    return named && head.length < String(text).length
      ? String(text).slice(head.length + 1).trim() : String(text);
  }

  // The table's step as the banner says it, with one prefix: "Table, please: …", unless the
  // game's sentence already names the table ("The table reports the card drawn"); issue 25,
  // point 5 saw "Table, please: Table: …" in most games.
  function tableStep(text) {
    const said = tableText(text);
    const named = said.toLowerCase().startsWith(t("ui/the-table").toLowerCase());
    return named ? said.charAt(0).toLocaleUpperCase(LANG) + said.slice(1) : t("ui/table-step", { text: said });
  }

  // Whose turn, in large type: the acting seats by colour and name, or the table's own step as
  // an instruction (its prompt's sentence). `me` (a seat page) says "your turn" instead.
  function turnBanner(data, me) {
    const view = data.view || {};
    const acting = data.to_act || view.to_act || [];
    if (data.over) return el("div", { class: "banner over", id: "banner" }, el("span", { class: "big-text" }, t("ui/game-over")));
    const tablePrompt = (view.prompts || []).find((p) => p.seat === "table");
    if (acting.includes("table") && tablePrompt) {
      return el("div", { class: "banner table-step", id: "banner", "data-acting": "table" },
        el("span", { class: "big-text" }, tableStep(tablePrompt.text)));
    }
    return el("div", { class: "banner", id: "banner", "data-acting": acting.join(" ") },
      el("span", { class: "now muted" }, t("ui/now-acting")),
      acting.map((s) => seatChip(s, true)));
  }

  function signed(n) {
    return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
  }

  // Itemised lines (income or score): amount and sentence, the rule reference as a tooltip.
  function lines(items) {
    if (!items || !items.length) return [el("li", { class: "muted" }, t("ui/nothing"))];
    return items.map((line) =>
      el("li", { title: line.where || "" },
        el("span", { class: `amount ${line.amount < 0 ? "neg" : "pos"}` }, signed(line.amount)),
        el("span", { class: "text" }, seatWords(unsigned(line.amount, line.text)))));
  }

  // A line's sentence without the signed amount it starts with when the amount is shown beside
  // it already ("+2 +2 Coins" said the amount twice).
  function unsigned(amount, text) {
    const s = String(text);
    const m = s.match(/^([+\-−±]?)(\d+)\s+/);
    if (!m) return s;
    const n = Number(m[2]) * (m[1] === "-" || m[1] === "−" ? -1 : 1);
    return n === amount ? s.slice(m[0].length) : s;
  }

  const LOG_TAIL = 40; // log entries kept for the display, as the server's snapshot sends

  // Connects with the token (if any) from the page URL; keeps the newest state only and
  // resynchronises after a reconnection by sending its last state_id.
  //
  // A `state` is either a snapshot (`snapshot: true`: on connect, on sync, after a new game) with
  // the log tail and the coin series, or a change (`snapshot: false`) carrying only what the event
  // changed in them (`log_added`, `log_undone`, `coins_changed`, `income_changed`). The change is
  // merged here, so handlers.state always sees a whole state with `log`, `coins_by_round` and
  // `income`. The public `view` comes whole in a snapshot and, in a change, usually as an RFC 6902
  // patch against the view held (`view_patch`, applied with the vendored fast-json-patch). A
  // change that does not follow the state held (one was missed) or whose patch does not apply
  // triggers a `sync`, which answers with a snapshot.
  // A new `session` number (the host started a new game) resets everything, state_id included.
  function connect(token, handlers) {
    let last = -1;
    let session = null;
    let log = [];
    let coins = {};
    let income = {};
    let syncing = false; // a sync is on its way: wait for its snapshot instead of asking again
    let scores = {};
    let view = null;
    const socket = io({ auth: (cb) => cb({ token, state_id: last, lang: LANG }), transports: ["websocket", "polling"] });
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
      if (data.session !== session) { session = data.session; last = -1; log = []; coins = {}; income = {}; scores = {}; view = null; }
      if (data.snapshot !== false) {
        syncing = false;
        if (data.state_id < last) return false;
        log = data.log || [];
        coins = data.coins_by_round || {};
        scores = data.score_by_move || {};
        income = data.income || {};
        view = data.view;
        return true;
      }
      if (data.state_id <= last) return false;
      const resync = () => {
        if (!syncing) { syncing = true; socket.emit("sync", { state_id: last }); }
        return false;
      };
      if (data.state_id !== last + 1) return resync();
      let next = data.view;
      if (data.view_patch) {
        if (view === null) return resync();
        try {
          next = jsonpatch.applyPatch(view, data.view_patch, false, false).newDocument;
        } catch (err) {
          return resync();
        }
      }
      view = next;
      const undone = new Set(data.log_undone || []);
      log = log.map((e) => (undone.has(e.seq) ? { ...e, undone: true } : e))
        .concat(data.log_added || []).slice(-LOG_TAIL);
      coins = { ...coins, ...(data.coins_changed || {}) };
      scores = { ...scores, ...(data.score_changed || {}) };
      income = { ...income, ...(data.income_changed || {}) };
      return true;
    };
    socket.on("state", (data) => {
      if (!merge(data)) return;
      last = data.state_id;
      setNames(data.names, data.seats);
      handlers.state({ ...data, view, log, coins_by_round: coins, score_by_move: scores, income });
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
    box.replaceChildren(el("div", { class: `toast ${kind || ""}` }, seatWords(text)));
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => box.replaceChildren(), 6000);
  }

  // --- game page modules ----------------------------------------------------------------------

  const games = {};
  const loading = {};

  function register(key, parts) {
    games[key] = Object.assign(games[key] || {}, parts);
  }

  function addScript(src) {
    return new Promise((resolve) => {
      const script = el("script", { src });
      script.addEventListener("load", resolve);
      script.addEventListener("error", resolve); // a broken module: the generic page still works
      document.head.append(script);
    });
  }

  // The game's page module for `page` ("table" or "seat"): {} when the game ships none.
  function loadGame(key, page) {
    if (!key) return Promise.resolve({});
    loading[key] ||= (async () => {
      const base = `/games/${encodeURIComponent(key)}/ui/`;
      let files = [];
      try {
        const response = await fetch(base);
        if (response.ok) files = (await response.json()).files || [];
      } catch (e) {
        files = [];
      }
      if (files.includes("style.css")) document.head.append(el("link", { rel: "stylesheet", href: `${base}style.css` }));
      for (const name of ["shared.js", `${page}.js`]) {
        if (files.includes(name)) await addScript(base + name);
      }
      return games[key] || {};
    })();
    return loading[key];
  }

  // A game's own label: `<key>:ui/<code>` from the game's catalog.
  function gameT(key) {
    return (code, params) => t(`${key}:ui/${code}`, params);
  }

  // --- generic renderers -----------------------------------------------------------------------

  const CORE_KEYS = new Set(["game", "to_act", "prompts", "scores", "last_lines", "you", "your_prompts", "sealed"]);

  // "Round 3 · Placing pieces · State 12": round and the phase in the players' words. Whose
  // turn it is has its own banner (said once, in large type).
  function summary(data) {
    const view = data.view || {};
    const parts = [];
    if (typeof view.round === "number") parts.push(`${t("ui/round")} ${view.round}`);
    const phase = data.over ? "" : phaseWords(data.game || view.game, view.phase);
    if (phase) parts.push(phase);
    if (data.over) parts.push(t("ui/game-over"));
    parts.push(`${t("ui/state")} ${data.state_id}`);
    return parts.join(" · ");
  }

  // The scores: rank, seat, total, and the itemised lines behind each total, shown (not folded
  // away); standing scores say they are standing.
  function scores(view, me) {
    const rows = view.scores || [];
    const body = el("tbody", {}, rows.map((row) => el("tr", { class: row.seat === me ? "me" : "", "data-seat": row.seat },
      el("td", {}, t("ui/place", { rank: row.rank })), el("td", {}, seatChip(row.seat)),
      el("td", { class: "num" }, String(row.total)),
      el("td", { class: "why" }, el("ul", { class: "lines breakdown" }, lines(row.lines))))));
    const standing = rows.length && !rows[0].final;
    return [el("caption", { class: `muted ${standing ? "standing" : "final"}` },
      standing ? t("ui/standing-long") : t("ui/final")), body];
  }

  // Why each tie was settled: the first tie-break that separates two seats on the same total
  // (the game's own sentence for it, `<key>:ui/tiebreak-<i>`), or that nothing did.
  function tieNotes(key, rows) {
    const sorted = rows.slice().sort((a, b) => a.rank - b.rank);
    const notes = [];
    for (let i = 0; i + 1 < sorted.length; i++) {
      const a = sorted[i], b = sorted[i + 1];
      if (a.total !== b.total) continue;
      const at = a.tiebreak || [], bt = b.tiebreak || [];
      const k = at.findIndex((v, j) => v !== bt[j]);
      if (k < 0 || a.rank === b.rank) {
        notes.push(t("ui/tie-shared", { seats: `${seatName(a.seat)}, ${seatName(b.seat)}`, rank: a.rank }));
        continue;
      }
      const code = `${key}:ui/tiebreak-${k}`;
      const params = { ahead: at[k], behind: bt[k], n: k + 1 };
      const rule = ui[code] ? t(code, params) : t("ui/tiebreak-n", params);
      notes.push(t("ui/tie-settled", { ahead: seatName(a.seat), behind: seatName(b.seat), total: a.total, rule }));
    }
    return notes;
  }

  // The end of the game: the ranking, large, and the tie-break that settled each tie.
  function finalScreen(key, view) {
    const rows = (view.scores || []).slice().sort((a, b) => a.rank - b.rank);
    return el("section", { class: "card final-card", id: "final" },
      el("h2", {}, t("ui/final")),
      el("ol", { class: "ranking" }, rows.map((row) => el("li", { "data-seat": row.seat, "data-rank": row.rank },
        el("span", { class: "rank" }, t("ui/place", { rank: row.rank })), seatChip(row.seat, true),
        el("span", { class: "num" }, String(row.total))))),
      el("ul", { class: "ties" }, tieNotes(key, rows).map((n) => el("li", {}, n))));
  }

  // What a move gives the seat, as the engine previews it (the prompt's `preview` of a move: a
  // sentence, itemised lines, or both); nothing when the engine sends none.
  function preview(move) {
    const p = move.preview !== undefined ? move.preview : move.hint;
    if (p === undefined || p === null || p === "") return null;
    const parts = [];
    const add = (x) => {
      if (x === null || x === undefined) return;
      if (typeof x === "string") parts.push(el("span", { class: "pv-text" }, x));
      else if (Array.isArray(x)) x.forEach(add);
      else if (typeof x === "object") {
        if (typeof x.amount === "number" && x.text !== undefined) {
          parts.push(el("span", { class: `pv-line ${x.amount < 0 ? "neg" : "pos"}` }, `${signed(x.amount)} ${unsigned(x.amount, x.text)}`));
        } else {
          if (x.text) add(String(x.text));
          if (x.lines) add(x.lines);
          if (x.effects) add(x.effects);
        }
      }
    };
    add(p);
    return parts.length ? el("span", { class: "preview" }, parts) : null;
  }

  // The preview as one line of plain text (for the toast after the move).
  function previewText(move) {
    const shown = preview(move);
    return shown ? Array.from(shown.children, (c) => c.textContent).join(", ") : "";
  }

  // A server sentence sent in every shipped language (`{en, pl}`): this page's, else `fallback`.
  function said(texts, fallback) {
    return (texts && texts[LANG]) || fallback || "";
  }

  // The toast for an undo in the log (`entry.kind === "undo"`): the move it took back, by name,
  // said to the seat that took it back as its own ("You took back: …"), to everyone else with
  // who did it. Undoing the referee's own automatic passes is not news (null).
  function undoText(entry, seat) {
    if (entry.source === "auto") return null;
    const labels = entry.undoes_labels || {};
    const label = labels[LANG] || labels.en || "";
    if (!label) return seat && entry.actor === seat ? t("ui/undo-done-plain") : t("ui/undo-seen-plain");
    if (seat && entry.actor === seat) return t("ui/undo-done", { move: forSeat(seat, label) });
    const who = entry.actor === "host" ? t("ui/the-host") : seatName(entry.actor);
    const said = t("ui/undo-seen", { who, move: forSeat(entry.actor, label) });
    return said.charAt(0).toLocaleUpperCase(LANG) + said.slice(1);
  }

  // A sentence addressed to `seat` without its leading "seat: " (the chip beside it, or the
  // phone itself, already says whose it is), its first letter raised.
  function forSeat(seat, text) {
    const head = `${seat}: `;
    if (!seat || !String(text).startsWith(head)) return seatWords(text);
    const rest = seatWords(String(text).slice(head.length));
    return rest.charAt(0).toLocaleUpperCase(LANG) + rest.slice(1);
  }

  // Public prompts: who must act and what they are asked (no moves: those go to the seat only).
  function prompts(view) {
    const list = view.prompts || [];
    if (!list.length) return [el("li", { class: "muted" }, t("ui/nothing"))];
    // the table's step is an instruction, said in the banner; a seat's prompt names the seat
    return list.map((p) => el("li", { "data-seat": p.seat }, seatChip(p.seat), " ", el("span", { class: "text" }, forSeat(p.seat, p.text))));
  }

  function value(v) {
    if (v === null || v === undefined) return t("ui/nothing");
    if (Array.isArray(v) && v.every((x) => x === null || typeof x !== "object")) return v.join(", ") || t("ui/nothing");
    if (typeof v === "object") return JSON.stringify(v);
    return String(v);
  }

  // A game with no page module: its view's own keys and values, one row each.
  function rawView(view) {
    const rows = [];
    for (const [k, v] of Object.entries(view || {})) {
      if (CORE_KEYS.has(k)) continue;
      rows.push(el("dt", {}, k), el("dd", { "data-key": k }, value(v)));
    }
    return el("dl", { class: "private raw-view" }, rows);
  }

  function genericBoard(root, view) {
    root.replaceChildren(el("section", { class: "card", id: "game-data" },
      el("h2", {}, t("ui/game-data")), rawView(view)));
  }

  return {
    SEAT_COLOURS, LANG, LANGS, loadLabels, t, el, fill, seatChip, seatName, setNames, seatWords, deviceName, deviceWords, signed, lines,
    connect, toast, games, register, loadGame, gameT, summary, scores, prompts, rawView,
    genericBoard, langSwitch, phaseWords, tableText, tableStep, forSeat, turnBanner, tieNotes, finalScreen, preview, previewText, undoText, said,
  };
})();
