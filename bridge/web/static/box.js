// The host's "Your box" page (issue #24): a group's own box entered in forms that JSON Editor
// (vendored, bridge/web/static/vendor/README.md) makes from the game's own data schemas, one
// form per data file; every change is checked by the server with the checks of `herald box
// check`, which answers what breaks a rule, what is left to complete and how far along the box
// is. Save keeps it in the table's box library (New game offers it), Export downloads the box
// file, Import reads one. Plain browser JavaScript over /api/box/<host token>/... (docs/boxes.md).
"use strict";

(async () => {
  const { t, el, fill } = Herald;
  const LANG = document.documentElement.lang || "en";
  const match = location.pathname.match(/^\/box\/([^/]+)/);
  const token = match ? decodeURIComponent(match[1]) : "";
  const api = `/api/box/${encodeURIComponent(token)}`;
  const $ = (id) => document.getElementById(id);

  async function call(path, options) {
    const sep = path.includes("?") ? "&" : "?";
    const response = await fetch(`${api}${path}${sep}lang=${LANG}`, options);
    const type = response.headers.get("Content-Type") || "";
    const body = type.includes("json") ? await response.json() : await response.blob();
    return { ok: response.ok, body };
  }
  const post = (path, data) => call(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data),
  });

  function refuse(text) {
    $("refused").hidden = !text;
    $("refused").textContent = text || "";
  }

  // A game's own box tools (its ui/box.js, e.g. tracing a map on a photo) register
  // here and edit the draft's files through `ctx`: every change goes through the same check.
  // The page's other parts (box-start.js) reach the server and the refusal line through `page`,
  // set before anything is awaited so that a script loaded after this one finds it.
  window.HeraldBox = window.HeraldBox || { tools: {} };
  window.HeraldBox.page = { call, refuse };
  await Herald.loadLabels();
  const S = { games: [], draft: null, editors: {}, shown: null, timer: null, asked: 0 };
  const ctx = {
    t, el, fill,
    files: () => S.draft ? S.draft.files : {},
    main: () => S.draft ? S.draft.main : null,
    setFile(name, doc) {
      S.draft.files[name] = doc;
      const editor = S.editors[name];
      if (editor) { S.quiet = true; editor.setValue(doc); S.quiet = false; }
      schedule();
    },
  };

  document.title = t("ui/box-title");
  for (const [id, code] of [
    ["title", "ui/box-heading"], ["back", "ui/box-back"], ["intro", "ui/box-intro"],
    ["l-game", "ui/box-game"], ["l-start", "ui/box-start"], ["load", "ui/box-load"],
    ["l-name", "ui/box-name"], ["save", "ui/box-save"], ["export", "ui/box-export"],
    ["l-import", "ui/box-import"], ["h-gaps", "ui/box-gaps"], ["no-gaps", "ui/box-no-gaps"],
    ["h-faces", "ui/box-faces"], ["faces-help", "ui/box-faces-help"], ["l-card", "ui/box-card"],
    ["l-photo", "ui/box-photo"], ["save-draft", "ui/box-save-draft"],
  ]) fill(id, t(code));
  $("back").href = `/host/${encodeURIComponent(token)}?lang=${LANG}`;

  // JSON Editor's own buttons, in the page's language.
  JSONEditor.defaults.languages.herald = {
    ...JSONEditor.defaults.languages.en,
    button_add_row_title: t("ui/box-je-add"), button_delete_row_title: t("ui/box-je-delete"),
    button_delete_last_title: t("ui/box-je-delete-last"), button_delete_all_title: t("ui/box-je-delete-all"),
    button_copy_row_title: t("ui/box-je-copy"), button_move_up_title: t("ui/box-je-up"),
    button_move_down_title: t("ui/box-je-down"), button_collapse: t("ui/box-je-collapse"),
    button_expand: t("ui/box-je-expand"), button_properties: t("ui/box-je-properties"),
    button_object_properties: t("ui/box-je-properties"), default_array_item_title: t("ui/box-je-item"),
  };
  JSONEditor.defaults.language = "herald";

  // --- the starting points ---------------------------------------------------------------------
  async function loadGames(chosen) {
    const { ok, body } = await call("/games");
    if (!ok) return refuse(body.message);
    S.games = body.games;
    $("save").disabled = !body.can_keep;
    $("save-draft").disabled = !body.can_keep;
    fill("game", S.games.map((g) => el("option", { value: g.key }, g.name)));
    $("game").value = chosen || body.current;
    fillStarts();
  }
  function fillStarts() {
    const game = S.games.find((g) => g.key === $("game").value);
    if (!game) return;
    const sets = game.sets.map((s) => el("option", { value: `set:${s}` }, t("ui/box-from-set", { set: s })));
    const boxes = game.boxes.map((b) => el("option", { value: `box:${b}` }, t("ui/box-from-box", { box: b })));
    const drafts = (game.drafts || []).map((d) => el("option", { value: `draft:${d}` }, t("ui/box-from-draft", { box: d })));
    fill("start", [...drafts, ...boxes, ...sets]);
  }
  $("game").addEventListener("change", fillStarts);

  async function start() {
    const mine = (S.starting = (S.starting || 0) + 1); // a later Open wins over a slower one
    const [kind, name] = $("start").value.split(/:(.*)/s);
    const query = `?${kind === "box" || kind === "draft" ? kind : "set"}=${encodeURIComponent(name)}`;
    const { ok, body } = await call(`/start/${encodeURIComponent($("game").value)}${query}`);
    if (mine !== S.starting) return;
    if (!ok) return refuse(body.message);
    refuse("");
    S.draft = body;
    S.kept = kind === "box" ? name : null;
    $("name").value = body.name;
    buildEditors();
    check();
    showFaces();
    await mountTools(mine);
    await mountEffects(mine);
  }

  // The effect picker (box-effects.js) for a game whose cards' effects are a vocabulary.
  async function mountEffects(mine) {
    if (S.effects) S.effects.stop();
    S.effects = null;
    $("effects").replaceChildren();
    if (!window.HeraldBox.effects) return;
    const { ok, body } = await call(`/effects/${encodeURIComponent(S.draft.game)}`);
    if (!ok || mine !== S.starting) return;
    S.effects = window.HeraldBox.effects.mount($("effects"), ctx, { post, game: () => S.draft.game });
    await S.effects.start(body);
  }

  async function mountTools(mine) {
    const holder = $("tools");
    holder.replaceChildren();
    const game = S.draft.game;
    if (!(S.games.find((g) => g.key === game) || {}).tools) return;
    if (!window.HeraldBox.tools[game]) {
      await new Promise((resolve) => {
        const script = el("script", { src: `/games/${encodeURIComponent(game)}/ui/box.js` });
        script.addEventListener("load", resolve);
        script.addEventListener("error", resolve);
        document.body.append(script);
      });
    }
    const tool = window.HeraldBox.tools[game];
    if (tool && mine === S.starting) tool.mount(holder, ctx);
  }

  // --- card faces: a kept box's cards, each photographed once ----------------------------------
  async function showFaces() {
    $("faces-card").hidden = !S.kept;
    if (!S.kept) return;
    const { ok, body } = await call(`/cards/${encodeURIComponent(S.draft.game)}/${encodeURIComponent(S.kept)}`);
    if (!ok) return refuse(body.message);
    fill("card", body.cards.map((c) => el("option", { value: c }, body.faces.includes(c) ? `${c} ✓` : c)));
    fill("faces", t("ui/box-faces-count", { n: body.faces.length, total: body.cards.length }));
  }
  $("photo").addEventListener("change", async () => {
    const file = $("photo").files[0];
    if (!file || !S.kept) return;
    const path = `/face/${encodeURIComponent(S.draft.game)}/${encodeURIComponent(S.kept)}/${encodeURIComponent($("card").value)}`;
    $("photo").value = "";
    await sendFile(path, file);
  });

  // A file sent as the request body (a photo, a box file): the box it makes is kept, and opened.
  async function sendFile(path, file) {
    forget();
    const { body } = await call(path, {
      method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file,
    });
    if (!body.ok) return refuse(body.message);
    refuse("");
    fill("status", body.message);
    await loadGames(body.game);
    $("start").value = `box:${body.file}`;
    await start();
  }
  $("load").addEventListener("click", start);

  // --- the forms -------------------------------------------------------------------------------
  function buildEditors() {
    for (const editor of Object.values(S.editors)) editor.destroy();
    S.editors = {};
    const tabs = [];
    $("editors").replaceChildren();
    for (const [file, doc] of Object.entries(S.draft.files)) {
      const holder = el("div", { class: "box-editor", "data-file": file });
      $("editors").append(holder);
      const schema = S.draft.schemas[file] || {};
      const editor = new JSONEditor(holder, {
        schema, startval: doc, theme: "html", iconlib: null, disable_edit_json: true,
        disable_properties: true, disable_collapse: false, show_errors: "interaction",
        prompt_before_delete: false, array_controls_top: true, no_additional_properties: false,
        required_by_default: false, display_required_only: false, use_default_values: true,
      });
      editor.on("ready", () => helpUnderSwitches(editor));
      editor.on("change", () => {
        helpUnderSwitches(editor);
        if (S.quiet) return; // a game tool set the value itself
        S.draft.files[file] = editor.getValue();
        schedule();
      });
      S.editors[file] = editor;
      // A file's tab says what it holds in the page's language (the schema's title), then its name.
      const words = schema.title ? `${schema.title} · ${file}` : file;
      const tab = el("button", { type: "button", role: "tab", class: "box-file-tab", "data-file": file }, words);
      tab.addEventListener("click", () => show(file));
      tabs.push(tab);
    }
    fill("files", tabs);
    show(S.draft.main);
  }
  // A value that may be "not known yet" is drawn as a switch, and JSON Editor shows a field's
  // description (where it is printed, the rule that needs it) only once a value is given: the
  // description goes under the switch, where it is read before the value is known.
  function helpUnderSwitches(editor) {
    for (const child of Object.values(editor.editors || {})) {
      const { switcher, schema } = child || {};
      if (!switcher || !schema || !schema.description || child.boxHelp) continue;
      child.boxHelp = el("p", { class: "box-help" }, schema.description);
      switcher.after(child.boxHelp);
    }
  }
  function show(file) {
    S.shown = file;
    for (const holder of $("editors").children) holder.hidden = holder.dataset.file !== file;
    for (const tab of $("files").children) tab.setAttribute("aria-selected", String(tab.dataset.file === file));
  }

  // --- the live check --------------------------------------------------------------------------
  function draft() {
    return { game: S.draft.game, name: $("name").value, main: S.draft.main, files: S.draft.files };
  }
  // An action's answer (an import refused, a save) must not be hidden by a check asked before it.
  function forget() {
    clearTimeout(S.timer);
    S.asked += 1;
  }
  function schedule() {
    clearTimeout(S.timer);
    S.timer = setTimeout(check, 500);
  }
  $("name").addEventListener("input", schedule);

  async function check() {
    if (!S.draft) return;
    const asked = ++S.asked;
    fill("status", t("ui/box-checking"));
    const { body } = await post("/check", draft());
    if (asked !== S.asked) return; // a newer check is on its way
    if (!body.ok) {
      fill("summary", "");
      fill("status", "");
      refuse(body.message);
      const more = (body.faults || []).length > 1 ? body.faults : [];
      fill("gaps", more.map((f) => el("li", { class: "fault" }, el("code", {}, f.where), " ", f.text)));
      return;
    }
    refuse("");
    fill("summary", body.summary);
    fill("status", t("ui/box-checked"));
    $("no-gaps").hidden = body.gaps.length > 0;
    fill("gaps", body.gaps.map((g) => el("li", {}, el("code", {}, g.what), " ", g.text)));
  }

  // --- keep, export, import --------------------------------------------------------------------
  $("save").addEventListener("click", async () => {
    if (!S.draft) return;
    forget();
    const { body } = await post("/save", draft());
    if (!body.ok) return refuse(body.message);
    refuse("");
    fill("status", body.message);
    await loadGames(S.draft.game);
    $("start").value = `box:${body.file}`;
  });

  // A box half entered, kept as it is (faults and all) to go on with later: never played.
  $("save-draft").addEventListener("click", async () => {
    if (!S.draft) return;
    forget(); // the draft's answer lists what it breaks: no older check over it
    const { body } = await post("/draft", draft());
    if (!body.ok) return refuse(body.message);
    fill("status", body.message);
    if (body.faults.length) {
      fill("gaps", body.faults.map((f) => el("li", { class: "fault" }, el("code", {}, f.where), " ", f.text)));
    }
    await loadGames(S.draft.game);
    $("start").value = `draft:${body.file}`;
  });

  $("export").addEventListener("click", async () => {
    if (!S.draft) return;
    const { ok, body } = await post("/export", draft());
    if (!ok) return refuse(body.message);
    const link = el("a", { href: URL.createObjectURL(body), download: `${S.draft.game}.herald-box` });
    document.body.append(link);
    link.click();
    link.remove();
  });

  $("import").addEventListener("change", async () => {
    const file = $("import").files[0];
    if (!file) return;
    $("import").value = "";
    await sendFile("/import", file);
  });

  const asked = new URLSearchParams(location.search); // ?game=KEY&start=set:box (a link may say)
  await loadGames(asked.get("game"));
  if (asked.get("start") && [...$("start").options].some((o) => o.value === asked.get("start"))) {
    $("start").value = asked.get("start");
  }
  await start();
})();
