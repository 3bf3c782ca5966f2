// "Your box": start from what a group already has (issue #24 point 5). A Tabletop Simulator save
// (or a .ttsmod / zip of it with its pictures), a VASSAL module or a start written by `herald box
// start` is read by the server (POST /api/box/<host token>/from-file), which answers pictures and
// names, never game meaning. The page hands them on, game-neutral:
//  - the chosen board picture as `window.HeraldBox.start.board` and the event "heraldbox:start"
//    on document: a game's box tool (a map tracing) takes it as its photo;
//  - every piece's and card's name in <datalist id="herald-start-names">, offered by the game
//    tool's name fields (list="herald-start-names") and the forms' "name" fields;
//  - each card's or piece's picture, enrolled as the face of the card chosen in "Card faces" (a
//    kept box) through that section's own photo field, so the face goes the same way a photo does.
"use strict";

(async () => {
  const { t, el, fill } = Herald;
  const { call, refuse } = window.HeraldBox.page; // box.js, loaded before this script
  await Herald.loadLabels();
  const $ = (id) => document.getElementById(id);
  const S = { start: null, asked: 0 };

  const file = el("input", { id: "start-file", type: "file", accept: ".json,.ttsmod,.zip,.vmod,.vmdx,application/json,application/zip" });
  const fetchBox = el("input", { id: "start-fetch", type: "checkbox" });
  const board = el("select", { id: "start-board" });
  const use = el("button", { type: "button", id: "start-use" }, t("ui/box-start-use-board"));
  const status = el("p", { id: "start-status", class: "note status", "aria-live": "polite" });
  const names = el("datalist", { id: "herald-start-names" });
  const result = el("div", { id: "start-result", hidden: true });
  const card = el("section", { class: "card", id: "start-card" },
    el("h2", {}, t("ui/box-start-heading")),
    el("p", { class: "note muted" }, t("ui/box-start-help")),
    el("div", { class: "box-tools" },
      el("label", { class: "file-pick" }, t("ui/box-start-file"), " ", file),
      el("label", { class: "check" }, fetchBox, " ", t("ui/box-start-fetch"))),
    status, names, result);
  $("tools").before(card);

  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    file.value = "";
    const asked = ++S.asked;
    fill("start-status", t("ui/box-start-reading", { file: chosen.name }));
    const query = `?file=${encodeURIComponent(chosen.name)}${fetchBox.checked ? "&fetch=1" : ""}`;
    let body;
    try {
      ({ body } = await call(`/from-file${query}`, {
        method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: chosen,
      }));
    } catch (e) {
      body = { ok: false, message: String(e) };
    }
    if (asked !== S.asked) return; // a later file wins
    if (!body.ok) {
      fill("start-status", "");
      return refuse(body.message);
    }
    refuse("");
    S.start = body;
    fill("start-status", body.message);
    show();
  });

  function show() {
    const start = S.start;
    result.hidden = false;
    names.replaceChildren(...start.names.map((n) => el("option", { value: n })));
    board.replaceChildren(...start.boards.map((b, i) => el("option", { value: String(i) }, b.name || `#${i + 1}`)));
    const missing = start.missing.length ? el("ul", { class: "plain note muted", id: "start-missing" },
      start.missing.map((m) => el("li", {}, m))) : "";
    const boardTools = start.boards.length
      ? el("div", { class: "box-tools" }, el("label", {}, t("ui/box-start-board"), " ", board), use)
      : el("p", { class: "note muted" }, t("ui/box-start-no-board"));
    const gallery = [...start.cards, ...start.pieces].filter((p) => p.image).map(figure);
    result.replaceChildren(...[
      boardTools,
      el("p", { class: "note", id: "start-names" }, t("ui/box-start-names", { n: start.names.length }), " ",
        start.names.join(" · ")),
      missing,
      gallery.length ? el("h3", {}, t("ui/box-start-cards")) : "",
      el("div", { class: "start-gallery", id: "start-gallery" }, gallery),
    ].filter((node) => node !== ""));
    if (start.boards.length) hand(0);
  }

  // The chosen board to the game's tools: now, and to any tool mounted later.
  function hand(index) {
    const chosen = S.start.boards[index];
    window.HeraldBox.start = { board: chosen && chosen.image ? chosen : null, names: S.start.names };
    document.dispatchEvent(new CustomEvent("heraldbox:start", { detail: window.HeraldBox.start }));
  }
  use.addEventListener("click", () => hand(Number(board.value) || 0));

  function figure(picture) {
    const enrol = el("button", { type: "button", class: "start-enrol" }, t("ui/box-start-enrol"));
    enrol.addEventListener("click", () => asFace(picture));
    const count = picture.count > 1 ? ` ${t("ui/box-start-count", { n: picture.count })}` : "";
    return el("figure", { class: "start-picture" },
      el("img", { src: picture.image, alt: picture.name, width: String(Math.min(picture.width, 120)) }),
      el("figcaption", {}, `${picture.name}${count}`, " ", enrol));
  }

  // A picture enrolled as a face through "Card faces": the card whose id is the picture's name
  // made an id (as the forms make ids) is chosen for the host when there is one.
  async function asFace(picture) {
    if ($("faces-card").hidden) return refuse(t("ui/box-start-enrol-needs-box"));
    const id = picture.name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    const ids = [...$("card").options].map((o) => o.value);
    const same = ids.find((v) => v === id || v === id.replace(/-/g, "_"));
    if (same) $("card").value = same;
    const [head, b64] = picture.image.split(",", 2); // a data: URL (the page may fetch only its own)
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const type = head.slice(5, head.indexOf(";"));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], `${id || "card"}.${type === "image/png" ? "png" : "jpg"}`, { type }));
    $("photo").files = transfer.files;
    $("photo").dispatchEvent(new Event("change"));
  }

  // The forms' name fields offer the file's names too (JSON Editor builds them later, so they
  // are given the list when they are first used).
  document.addEventListener("focusin", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.type === "text" && !input.getAttribute("list")
        && /\[name\]$/.test(input.name || "") && input.closest("#editors")) {
      input.setAttribute("list", "herald-start-names");
    }
  });
})();
