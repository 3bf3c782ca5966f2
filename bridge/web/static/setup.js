// The host's new-game form on the table display (/host/<token> only): the game, its seats with
// the players' names and colours, the game's options with their rulebook references, and the
// data set. It sends the host's `start` intent with a `setup` (bridge/table_setup.py checks it).
"use strict";

const HeraldSetup = (() => {
  const { t, el, fill } = Herald;
  let games = [];
  let colours = [];
  let current = null; // the table's game key and seats, to start from

  const gameLabel = (key, code, fallback) => {
    const full = `${key}:ui/${code}`;
    const said = t(full);
    return said === full ? fallback : said;
  };
  const choiceKey = (v) => (v === null ? "null" : String(v));

  async function load() {
    try {
      const reply = await fetch(`/api/setup?lang=${encodeURIComponent(Herald.LANG)}`); // refs in the page's words
      const data = await reply.json();
      games = data.games || [];
      colours = data.colours || [];
    } catch (e) {
      games = [];
    }
  }

  // The colours a seat of `game` may take at this table (a camera table: its stickers'), and
  // the seats a new game of it starts with.
  const coloursOf = (game) => (game && boxColours(game))
    || (game && game.colours && game.colours.length ? game.colours : colours);
  // A group's box seats its players by its own families' colours (bridge/table_setup.py).
  function boxColours(game) {
    const chosen = current && current.game === game.key && current.options ? current.options[game.data_option] : undefined;
    const box = (game.data_boxes || []).find((b) => b.value === chosen);
    return box && box.colours && box.colours.length ? box.colours : null;
  }
  const startSeats = (game) => (game.seats && game.seats.length ? game.seats
    : coloursOf(game).slice(0, Math.max(game.min_players, Math.min(3, game.max_players))));

  // A colour in the page's language; a box's own colour the catalog does not know, as it is.
  const colourWord = (c) => (t(`ui/colour-${c}`) === `ui/colour-${c}` ? c : t(`ui/colour-${c}`));

  function seatRow(seat, name, game) {
    const offered = coloursOf(game).includes(seat) ? coloursOf(game) : [seat, ...coloursOf(game)];
    const row = el("li", { class: "setup-seat" },
      el("select", { class: "seat-colour", "aria-label": t("ui/setup-colour") },
        offered.map((c) => el("option", { value: c, selected: c === seat }, colourWord(c)))),
      el("input", { class: "seat-name", type: "text", maxlength: "24", value: name || "", placeholder: t("ui/setup-name"), "aria-label": t("ui/setup-name") }),
      el("button", { type: "button", class: "small", onclick: () => row.remove() }, t("ui/setup-remove")));
    return row;
  }

  function optionField(game, o) {
    const isData = o.name === game.data_option;
    const boxes = isData ? (game.data_boxes || []) : []; // the group's own boxes, by their names
    const values = isData ? [...boxes.map((b) => b.value), ...game.data_sets] : o.choices;
    if (!values.length) return null; // free-form options keep their default here
    const label = gameLabel(game.key, `option-${o.name}`, o.name);
    const chosen = current && current.game === game.key && current.options;
    const start = chosen && o.name in chosen ? chosen[o.name]
      : game.start && o.name in game.start ? game.start[o.name] : o.default;
    return el("label", { class: "setup-option", title: o.doc },
      el("span", {}, label, " ", el("small", { class: "muted ref" }, o.ref)),
      el("select", { "data-option": o.name, onchange: isData ? dataChosen : null },
        values.map((v) => {
          const box = boxes.find((b) => b.value === v);
          const word = box ? t(box.draft ? "ui/setup-box-draft" : "ui/setup-box", { name: box.name })
            : gameLabel(game.key, `choice-${o.name}-${choiceKey(v)}`, v === null ? t("ui/setup-none") : String(v));
          const text = choiceKey(v) === choiceKey(o.default) ? t("ui/setup-default", { value: word }) : word;
          // a draft is listed so the group sees it is there, never chosen: it starts no game
          return el("option", { value: JSON.stringify(v), selected: choiceKey(v) === choiceKey(start),
            disabled: Boolean(box && box.draft) }, text);
        })));
  }

  // Another data set chosen: the seats take its colours (a box's families'), names kept in order.
  function dataChosen() {
    const now = read();
    const game = games.find((g) => g.key === now.game);
    current = { game: now.game, options: now.options, auto_pass: now.auto_pass, names: {}, seats: [] };
    const offered = coloursOf(game);
    now.seats.forEach((s) => {
      const seat = offered.includes(s.seat) ? s.seat : offered.find((c) => !current.seats.includes(c)) || s.seat;
      current.seats.push(seat);
      if (s.name) current.names[seat] = s.name;
    });
    render(sending);
  }

  let sending = null;

  function form(send) {
    const game = games.find((g) => g.key === (current && current.game)) || games[0];
    if (!game) return [];
    const seats = current && current.game === game.key ? current.seats : startSeats(game);
    const names = (current && current.names) || {};
    const gameSelect = el("select", { id: "setup-game", onchange: () => {
      const chosen = games.find((g) => g.key === gameSelect.value) || game;
      current = { game: chosen.key, seats: startSeats(chosen), names: {}, auto_pass: current && current.auto_pass };
      render(send);
    } },
      games.map((g) => el("option", { value: g.key, selected: g.key === game.key }, g.name)));
    const seatList = el("ol", { id: "setup-seats", class: "setup-seats" }, seats.map((s) => seatRow(s, names[s], game)));
    const add = el("button", { type: "button", class: "small", id: "setup-add", onclick: () => {
      const used = new Set([...seatList.querySelectorAll(".seat-colour")].map((x) => x.value));
      const offered = coloursOf(game);
      seatList.append(seatRow(offered.find((c) => !used.has(c)) || offered[0], "", game));
    } }, t("ui/setup-add"));
    const options = el("div", { id: "setup-options", class: "setup-options" }, game.options.map((o) => optionField(game, o)));
    const autoPass = el("label", { class: "setup-option" },
      el("input", { type: "checkbox", id: "setup-auto-pass", checked: !current || current.auto_pass !== false }),
      " ", el("span", {}, t("ui/setup-auto-pass")));
    const start = el("button", { type: "submit", class: "primary", id: "setup-start" }, t("ui/setup-start"));
    return [
      el("label", { class: "setup-option" }, el("span", {}, t("ui/setup-game")), gameSelect),
      el("h3", {}, t("ui/setup-seats"), ` (${game.min_players}–${game.max_players})`), seatList, add,
      el("h3", {}, t("ui/setup-options")), options, autoPass, el("div", { class: "actions" }, start),
    ];
  }

  function read() {
    const game = document.getElementById("setup-game").value;
    const seats = [...document.querySelectorAll("#setup-seats .setup-seat")].map((row) => ({
      seat: row.querySelector(".seat-colour").value, name: row.querySelector(".seat-name").value,
    }));
    const options = {};
    for (const select of document.querySelectorAll("#setup-options select")) {
      options[select.dataset.option] = JSON.parse(select.value);
    }
    const auto = document.getElementById("setup-auto-pass");
    return { game, seats, options, auto_pass: auto ? auto.checked : true };
  }

  function render(send) {
    sending = send;
    const node = fill("setup", form(send));
    node.onsubmit = async (event) => {
      event.preventDefault();
      const ok = await send(read());
      if (ok) document.getElementById("setup-box").hidden = true;
    };
  }

  // Open the form, starting from the table as it is (its game, seats and names).
  async function open(table, send) {
    if (!games.length) await load();
    current = { game: table.game, seats: table.seats, names: table.names || {}, auto_pass: table.auto_pass };
    fill("h-setup", t("ui/setup"));
    render(send);
    const box = document.getElementById("setup-box");
    box.hidden = false;
    box.scrollIntoView({ block: "start" });
  }

  // What the table could not set up for the current game (the camera cannot read it, say), as
  // the server worded it: a box above the table that stays until a later game sets up cleanly.
  function problems(list) {
    let box = document.getElementById("table-problems");
    if (!box) {
      box = el("section", { id: "table-problems", class: "card problems-card", role: "alert" });
      const live = document.getElementById("live");
      live.parentNode.insertBefore(box, live);
    }
    box.hidden = !list.length;
    box.replaceChildren(...(list.length ? [el("h2", {}, t("ui/table-problems")),
      el("ul", {}, list.map((p) => el("li", { "data-code": p.code }, Herald.said(p.messages, p.message))))] : []));
  }

  return { open, read, problems };
})();
