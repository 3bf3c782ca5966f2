// The host's camera calibration page (issue #4): capture a frame, set the board's four corners
// (from the corner markers or by clicking), place the board profile's regions on the top-down
// picture, save, and check the saved profile on the live camera. Plain browser JavaScript over
// the JSON/JPEG routes /api/calibrate/<host token>/... (docs/protocol.md, "Calibration").
//
// The frame is an SVG in image pixels and the board an SVG in board millimetres (its viewBox is
// the server's view), so every coordinate the page keeps is already in the unit the server wants.
"use strict";

(async () => {
  const { t, el, fill, toast } = Herald;
  await Herald.loadLabels();
  const NS = "http://www.w3.org/2000/svg";
  const match = location.pathname.match(/^\/calibrate\/([^/]+)/);
  const token = match ? decodeURIComponent(match[1]) : "";
  const api = `/api/calibrate/${encodeURIComponent(token)}`;
  const CORNERS = ["ui/cal-corner-tl", "ui/cal-corner-tr", "ui/cal-corner-br", "ui/cal-corner-bl"];
  const KINDS = ["slot", "tray", "cards", "area"]; // and every kind the game's profile uses
  const SNAP = 0.5; // mm

  const S = {
    state: null, // the GET /profile answer
    profile: null, // the profile document being edited
    revision: "none",
    capture: null, // the POST /capture answer
    corners: [], // board corners in image pixels: top-left, top-right, bottom-right, bottom-left
    rect: null, // the POST /rectify answer
    view: null, // the board picture's frame in mm
    selected: null, // name of the chosen region
    dirty: false,
    check: null, // the POST /check answer
  };
  const $ = (id) => document.getElementById(id);

  // --- labels ----------------------------------------------------------------------------------
  document.title = t("ui/cal-title");
  for (const [id, code] of [
    ["title", "ui/cal-heading"], ["back", "ui/cal-back"], ["h-frame", "ui/cal-step-frame"],
    ["capture", "ui/cal-capture"], ["use-markers", "ui/cal-use-markers"],
    ["clear-corners", "ui/cal-clear-corners"], ["frame-help", "ui/cal-frame-help"],
    ["frame-empty", "ui/cal-no-frame"], ["h-measured", "ui/cal-measured"],
    ["use-measured-label", "ui/cal-use-measured"], ["h-board", "ui/cal-step-board"],
    ["board-help", "ui/cal-board-help"], ["board-empty", "ui/cal-no-board"],
    ["h-region", "ui/cal-region"], ["region-none", "ui/cal-none-chosen"], ["l-name", "ui/cal-name"],
    ["l-kind", "ui/cal-kind"], ["l-x", "ui/cal-x"], ["l-y", "ui/cal-y"], ["l-w", "ui/cal-w"],
    ["l-h", "ui/cal-h"], ["f-delete", "ui/cal-delete"], ["h-regions", "ui/cal-regions"],
    ["l-new", "ui/cal-new-name"], ["l-new-kind", "ui/cal-kind"], ["add-region", "ui/cal-add"],
    ["h-size", "ui/cal-board-size"], ["l-width", "ui/cal-width"], ["l-height", "ui/cal-height"],
    ["save", "ui/cal-save"], ["h-check", "ui/cal-step-check"], ["check-help", "ui/cal-check-help"],
    ["check", "ui/cal-check"],
  ]) fill(id, t(code));
  $("back").href = `/host/${encodeURIComponent(token)}`;
  // The region kinds offered: the common ones and those the loaded profile names.
  function fillKinds() {
    const kinds = new Set([...KINDS, ...(S.profile ? S.profile.regions.map((r) => r.kind) : [])]);
    for (const id of ["f-kind", "new-kind"]) fill(id, [...kinds].map((k) => el("option", { value: k }, k)));
  }
  fillKinds();

  // --- server ----------------------------------------------------------------------------------
  let busy = 0;
  async function call(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    busy += 1;
    document.body.classList.add("busy");
    try {
      const response = await fetch(`${api}${path}`, options);
      try {
        return await response.json();
      } catch (e) {
        return { ok: false, message: `HTTP ${response.status}` };
      }
    } catch (e) {
      return { ok: false, message: t("ui/disconnected") };
    } finally {
      busy -= 1;
      if (!busy) document.body.classList.remove("busy");
    }
  }

  function status(id, text, kind) {
    const node = $(id);
    node.textContent = text || "";
    node.className = `note status ${kind || ""}`;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  // The pointer's position in the SVG's own units (image pixels or board millimetres).
  function at(box, event) {
    const point = box.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const p = point.matrixTransform(box.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  // How many SVG units one screen pixel is.
  function unit(box) {
    const m = box.getScreenCTM();
    return m ? 1 / m.a : 1;
  }

  const points = (pts) => pts.map((p) => `${p[0]},${p[1]}`).join(" ");
  const snap = (v) => Math.round(v / SNAP) * SNAP;
  const round1 = (v) => Math.round(v * 10) / 10;

  // --- the profile being edited ----------------------------------------------------------------
  const regions = () => S.profile.regions;
  const region = (name) => regions().find((r) => r.name === name) || null;
  const expectedKind = (name) => (S.state.expected.find((e) => e.name === name) || {}).kind;

  function setRect(name, rect, kind) {
    const clean = rect.map((v) => round1(v));
    const found = region(name);
    if (found) found.rect = clean;
    else regions().push({ name, kind: kind || expectedKind(name) || "area", rect: clean });
    changed();
  }

  function changed() {
    S.dirty = true;
    status("save-status", t("ui/cal-unsaved"), "");
  }

  function seatOf(name) {
    const m = /^seat:([^/]+)\//.exec(name);
    return m ? m[1] : "";
  }

  function shortName(name) {
    const slot = /^row:(\d+)\/slot:(\d+)$/.exec(name);
    if (slot) return `${slot[1]}·${slot[2]}`;
    const named = /\/\w+:(\w+)$/.exec(name); // a seat's named part ("seat:red/column:Mill")
    if (named) return named[1].slice(0, 2);
    return name.replace(/^seat:/, "");
  }

  // --- step 1: the frame and the board's corners -------------------------------------------------
  function renderFrame() {
    const cap = S.capture;
    const box = $("frame");
    $("frame-empty").hidden = Boolean(cap);
    box.classList.toggle("empty", !cap);
    $("use-markers").disabled = !(cap && cap.board.found);
    $("clear-corners").disabled = !(cap && S.corners.length);
    if (!cap) return;
    const k = cap.width / 1000; // sizes of marks, relative to the frame
    const parts = [];
    for (const m of cap.markers) {
      parts.push(svg("polygon", { class: m.corner ? "marker corner" : "marker", points: points(m.corners_px), "data-id": m.id }));
      if (m.corner) { // its ID on the marker itself, clear of the board's corner handles
        const x = m.corners_px.reduce((a, q) => a + q[0], 0) / 4;
        const y = m.corners_px.reduce((a, q) => a + q[1], 0) / 4;
        parts.push(svg("text", { class: "mark-label", x, y, "font-size": 30 * k, "text-anchor": "middle", "dominant-baseline": "central" }, `#${m.id}`));
      }
    }
    if (S.corners.length > 1) {
      parts.push(svg(S.corners.length === 4 ? "polygon" : "polyline", { class: "board-quad", points: points(S.corners) }));
    }
    const outward = [[-1, -1], [1, -1], [1, 1], [-1, 1]]; // numbers outside the board, off the markers
    S.corners.forEach((c, i) => {
      const [dx, dy] = outward[i];
      parts.push(svg("g", { class: "corner-handle", "data-corner": i },
        svg("circle", { cx: c[0], cy: c[1], r: 11 * k }),
        svg("text", { x: c[0] + dx * 24 * k, y: c[1] + dy * 24 * k, "font-size": 28 * k, "text-anchor": "middle", "dominant-baseline": "central" }, String(i + 1))));
    });
    $("frame-layer").replaceChildren(...parts);
    const corners = cap.markers.filter((m) => m.corner).map((m) => m.id);
    const next = S.corners.length < 4
      ? t("ui/cal-next-corner", { corner: t(CORNERS[S.corners.length]), n: S.corners.length + 1 })
      : t("ui/cal-corners-done");
    $("frame-help").textContent = `${t("ui/cal-markers-seen", { count: cap.markers.length, ids: corners.join(", ") || t("ui/nothing") })} ${next}`;
  }

  async function capture() {
    const reply = await call("POST", "/capture", { profile: S.profile });
    if (!reply.ok) {
      status("frame-status", reply.message, "bad");
      return;
    }
    S.capture = reply;
    S.rect = null;
    $("frame").setAttribute("viewBox", `0 0 ${reply.width} ${reply.height}`);
    const image = $("frame-image");
    image.setAttribute("width", reply.width);
    image.setAttribute("height", reply.height);
    image.setAttribute("href", `${api}/capture/${reply.capture}/frame.jpg`);
    status("frame-status", reply.board.message, reply.board.found ? "good" : "bad");
    S.corners = reply.board.found ? reply.board.corners_px.map((p) => p.slice()) : [];
    renderFrame();
    if (S.corners.length === 4) await rectify();
    else renderBoard();
  }

  function useMarkers() {
    if (!S.capture || !S.capture.board.found) return;
    S.corners = S.capture.board.corners_px.map((p) => p.slice());
    renderFrame();
    rectify();
  }

  function clearCorners() {
    S.corners = [];
    S.rect = null;
    renderFrame();
    renderBoard();
    $("measured-box").hidden = true;
  }

  let cornerDrag = null;
  $("frame").addEventListener("pointerdown", (event) => {
    if (!S.capture || event.button !== 0) return;
    const box = $("frame");
    const p = at(box, event);
    const reach = 18 * unit(box);
    const hit = S.corners.findIndex((c) => Math.hypot(c[0] - p[0], c[1] - p[1]) <= reach);
    if (hit >= 0) {
      cornerDrag = hit;
      box.setPointerCapture(event.pointerId);
    } else if (S.corners.length < 4) {
      S.corners.push([round1(p[0]), round1(p[1])]);
      renderFrame();
      if (S.corners.length === 4) rectify();
    }
    event.preventDefault();
  });
  $("frame").addEventListener("pointermove", (event) => {
    if (cornerDrag === null) return;
    const p = at($("frame"), event);
    S.corners[cornerDrag] = [round1(p[0]), round1(p[1])];
    renderFrame();
  });
  const endCornerDrag = () => {
    if (cornerDrag === null) return;
    cornerDrag = null;
    if (S.corners.length === 4) rectify();
  };
  $("frame").addEventListener("pointerup", endCornerDrag);
  $("frame").addEventListener("pointercancel", endCornerDrag);

  async function rectify() {
    if (!S.capture || S.corners.length !== 4) return;
    const reply = await call("POST", `/capture/${S.capture.capture}/rectify`, { corners_px: S.corners, profile: S.profile });
    if (!reply.ok) {
      status("frame-status", reply.message, "bad");
      toast(reply.message, "bad");
      return;
    }
    S.rect = reply;
    S.view = reply.view;
    renderMeasured();
    renderBoard();
  }

  function renderMeasured() {
    const measured = (S.rect && S.rect.measured) || [];
    $("measured-box").hidden = !measured.length;
    fill("measured", measured.map((m) => el("li", { "data-id": m.id }, t("ui/cal-measured-row", {
      id: m.id, x: m.center_mm[0], y: m.center_mm[1], px: m.profile_mm[0], py: m.profile_mm[1], offset: m.offset_mm,
    }))));
    // worth saving only when the markers are clearly not where the profile says
    $("use-measured").checked = measured.some((m) => m.offset_mm > 2);
  }

  // --- step 2: regions on the top-down board -----------------------------------------------------
  function renderBoard() {
    const view = S.view;
    const box = $("board");
    box.setAttribute("viewBox", `${view.origin_mm[0]} ${view.origin_mm[1]} ${view.size_mm[0]} ${view.size_mm[1]}`);
    const image = $("board-image");
    if (S.rect) {
      for (const [k, v] of [["x", view.origin_mm[0]], ["y", view.origin_mm[1]], ["width", view.size_mm[0]], ["height", view.size_mm[1]]]) image.setAttribute(k, v);
      const href = `${api}/capture/${S.rect.capture}/board.jpg?v=${S.rect.version}`;
      if (image.getAttribute("href") !== href) image.setAttribute("href", href);
      image.removeAttribute("visibility");
    } else {
      image.setAttribute("visibility", "hidden");
    }
    $("board-empty").hidden = Boolean(S.rect);
    const paper = $("board-paper");
    paper.setAttribute("width", S.profile.width_mm);
    paper.setAttribute("height", S.profile.height_mm);
    paper.setAttribute("visibility", S.rect ? "hidden" : "visible");
    renderRegions();
  }

  function renderRegions() {
    const view = S.view;
    const font = Math.max(4, view.size_mm[0] / 90);
    const parts = [svg("rect", { class: "board-edge", x: 0, y: 0, width: S.profile.width_mm, height: S.profile.height_mm })];
    let chosen = null;
    for (const r of regions()) {
      const [x, y, w, h] = r.rect;
      const selected = r.name === S.selected;
      const node = svg("g", { class: `region kind-${r.kind} seat-${seatOf(r.name)}${selected ? " selected" : ""}`, "data-name": r.name },
        svg("title", {}, r.name),
        svg("rect", { x, y, width: w, height: h }),
        w >= 10 && h >= 8 ? svg("text", { x: x + w / 2, y: y + h / 2, "font-size": Math.min(font, w / 2.2), "text-anchor": "middle", "dominant-baseline": "central" }, shortName(r.name)) : null);
      if (selected) chosen = node;
      else parts.push(node);
    }
    if (chosen) {
      const r = region(S.selected);
      const [x, y, w, h] = r.rect;
      const hs = handleSize();
      chosen.append(svg("rect", { class: "handle", x: x + w - hs / 2, y: y + h - hs / 2, width: hs, height: hs }));
      chosen.append(svg("text", { class: "chosen-label", x, y: y - font * 0.4, "font-size": font * 1.2 }, r.name));
      parts.push(chosen); // on top
    }
    $("board-layer").replaceChildren(...parts);
  }

  const handleSize = () => Math.max(3, 12 * unit($("board")));

  // The smallest region under a point (a column on a seat's board before the area around it).
  function regionAt(p) {
    let best = null;
    for (const r of regions()) {
      if (inside(r, p) && (!best || r.rect[2] * r.rect[3] < best.rect[2] * best.rect[3])) best = r;
    }
    return best;
  }

  function clampToView(v, axis) {
    const lo = S.view.origin_mm[axis];
    return Math.min(lo + S.view.size_mm[axis], Math.max(lo, v));
  }

  // Press on the chosen region's handle: resize it; with an unplaced region chosen (or Shift
  // held): draw it; on a region: choose and move it; elsewhere: draw the chosen region.
  let drag = null;
  $("board").addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const box = $("board");
    const p = at(box, event);
    const chosen = S.selected ? region(S.selected) : null;
    const hs = handleSize();
    const draw = () => ({ mode: "draw", name: S.selected, start: [snap(p[0]), snap(p[1])] });
    if (chosen && Math.abs(p[0] - (chosen.rect[0] + chosen.rect[2])) <= hs && Math.abs(p[1] - (chosen.rect[1] + chosen.rect[3])) <= hs) {
      drag = { mode: "resize", name: chosen.name };
    } else if (S.selected && (!chosen || event.shiftKey)) {
      drag = draw();
    } else {
      const hit = chosen && inside(chosen, p) ? chosen : regionAt(p);
      if (hit) {
        if (hit.name !== S.selected) select(hit.name);
        drag = { mode: "move", name: hit.name, start: p, rect: hit.rect.slice(), moved: false };
      } else if (S.selected) {
        drag = draw();
      } else {
        return;
      }
    }
    box.setPointerCapture(event.pointerId);
    box.focus({ preventScroll: true });
    event.preventDefault();
  });

  const inside = (r, p) => p[0] >= r.rect[0] && p[0] <= r.rect[0] + r.rect[2] && p[1] >= r.rect[1] && p[1] <= r.rect[1] + r.rect[3];

  $("board").addEventListener("pointermove", (event) => {
    if (!drag) return;
    const p = at($("board"), event);
    const x = snap(clampToView(p[0], 0)), y = snap(clampToView(p[1], 1));
    if (drag.mode === "draw") {
      const [x0, y0] = drag.start;
      const w = Math.abs(x - x0), h = Math.abs(y - y0);
      if (w < 1 || h < 1) return;
      setRect(drag.name, [Math.min(x, x0), Math.min(y, y0), w, h]);
    } else if (drag.mode === "move") {
      const dx = snap(p[0] - drag.start[0]), dy = snap(p[1] - drag.start[1]);
      if (!drag.moved && Math.hypot(dx, dy) < 3 * unit($("board"))) return;
      drag.moved = true;
      const [rx, ry, rw, rh] = drag.rect;
      setRect(drag.name, [rx + dx, ry + dy, rw, rh]);
    } else {
      const r = region(drag.name);
      setRect(drag.name, [r.rect[0], r.rect[1], Math.max(SNAP, x - r.rect[0]), Math.max(SNAP, y - r.rect[1])]);
    }
    renderRegions();
    renderForm();
  });
  const endDrag = () => {
    if (!drag) return;
    drag = null;
    renderList();
  };
  $("board").addEventListener("pointerup", endDrag);
  $("board").addEventListener("pointercancel", endDrag);

  document.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!(event.key in steps) || !S.selected || !region(S.selected)) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
    const [dx, dy] = steps[event.key].map((v) => v * (event.shiftKey ? 5 : 1));
    const [x, y, w, h] = region(S.selected).rect;
    setRect(S.selected, [x + dx, y + dy, w, h]);
    renderRegions();
    renderForm();
    event.preventDefault();
  });

  // --- the region list and the chosen region's fields ---------------------------------------------
  function names() {
    const out = S.state.expected.map((e) => e.name);
    for (const r of regions()) if (!out.includes(r.name)) out.push(r.name);
    return out;
  }

  function select(name) {
    S.selected = name;
    renderRegions();
    renderList();
    renderForm();
  }

  function renderList() {
    const all = names();
    const placed = all.filter((n) => region(n)).length;
    fill("placed", t("ui/cal-placed", { placed, total: all.length }));
    fill("regions", all.map((name) => {
      const r = region(name);
      const cls = `${r ? "placed" : "missing"}${name === S.selected ? " selected" : ""}`;
      return el("li", { class: cls, "data-name": name },
        el("button", { type: "button", onclick: () => select(name) },
          el("span", { class: "rname" }, name),
          el("span", { class: "rkind" }, r ? r.kind : t("ui/cal-missing"))));
    }));
    const current = document.querySelector("#regions li.selected");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  function renderForm() {
    const name = S.selected;
    $("region-none").hidden = Boolean(name);
    $("region-form").hidden = !name;
    if (!name) return;
    const r = region(name);
    const focused = document.activeElement;
    const put = (id, value) => { if ($(id) !== focused) $(id).value = value; };
    put("f-name", name);
    put("f-kind", r ? r.kind : expectedKind(name) || "area");
    const rect = r ? r.rect : ["", "", "", ""];
    ["f-x", "f-y", "f-w", "f-h"].forEach((id, i) => put(id, rect[i]));
    $("f-delete").disabled = !r;
  }

  ["f-x", "f-y", "f-w", "f-h"].forEach((id, i) => $(id).addEventListener("change", () => {
    const r = region(S.selected);
    const value = Number($(id).value);
    if (!r || !Number.isFinite(value) || (i >= 2 && value <= 0)) { renderForm(); return; }
    const rect = r.rect.slice();
    rect[i] = value;
    setRect(r.name, rect);
    renderRegions();
  }));
  $("f-kind").addEventListener("change", () => {
    const r = region(S.selected);
    if (r) { r.kind = $("f-kind").value; changed(); renderRegions(); renderList(); }
  });
  $("f-name").addEventListener("change", () => {
    const r = region(S.selected);
    const name = $("f-name").value.trim();
    if (!r || !name || name === r.name) { renderForm(); return; }
    if (region(name)) { toast(t("ui/cal-name-taken", { name }), "bad"); renderForm(); return; }
    r.name = name;
    changed();
    select(name);
  });
  $("f-delete").addEventListener("click", () => {
    const index = regions().findIndex((r) => r.name === S.selected);
    if (index < 0) return;
    regions().splice(index, 1);
    changed();
    select(S.selected);
  });
  $("add-region").addEventListener("click", () => {
    const name = $("new-name").value.trim();
    if (!name) return;
    if (region(name)) { toast(t("ui/cal-name-taken", { name }), "bad"); return; }
    const [cx, cy] = [S.profile.width_mm / 2, S.profile.height_mm / 2];
    setRect(name, [snap(cx - 20), snap(cy - 20), 40, 40], $("new-kind").value);
    $("new-name").value = "";
    select(name);
  });

  for (const [id, key] of [["board-w", "width_mm"], ["board-h", "height_mm"]]) {
    $(id).addEventListener("change", async () => {
      const value = Number($(id).value);
      if (!Number.isFinite(value) || value <= 0) { $(id).value = S.profile[key]; return; }
      S.profile[key] = value;
      changed();
      if (S.corners.length === 4) await rectify();
      else renderBoard();
    });
  }

  // --- save and check ------------------------------------------------------------------------------
  function profileForSave() {
    const doc = JSON.parse(JSON.stringify(S.profile));
    if ($("use-measured").checked && S.rect) {
      for (const m of S.rect.measured) {
        const i = doc.corner_ids.indexOf(m.id);
        if (i >= 0) doc.corner_centers_mm[i] = m.center_mm.slice();
      }
    }
    return doc;
  }

  async function save() {
    const doc = profileForSave();
    status("save-status", t("ui/cal-saving"), "");
    const reply = await call("POST", "/profile", { profile: doc, revision: S.revision });
    if (!reply.ok) {
      status("save-status", reply.message, "bad");
      toast(reply.message, "bad");
      return;
    }
    S.profile = doc;
    S.revision = reply.revision;
    S.dirty = false;
    status("save-status", reply.warning ? `${reply.message} ${reply.warning}` : reply.message, reply.warning ? "warn" : "good");
    $("save-status").setAttribute("data-revision", reply.revision);
    if (S.rect) await rectify(); // the measured offsets now refer to the saved profile
    await check();
  }

  async function check() {
    const reply = await call("POST", "/check");
    if (!reply.ok) {
      status("check-status", reply.message, "bad");
      return;
    }
    S.check = reply;
    $("overlay-stage").hidden = false;
    status("check-status", reply.message, reply.found ? "good" : "bad");
    $("check-status").setAttribute("data-found", String(reply.found));
    $("overlay").setAttribute("viewBox", `0 0 ${reply.width} ${reply.height}`);
    const image = $("overlay-image");
    image.setAttribute("width", reply.width);
    image.setAttribute("height", reply.height);
    image.setAttribute("href", `${api}/capture/${reply.capture}/frame.jpg`);
    const parts = [];
    if (reply.board_px) parts.push(svg("polygon", { class: "board-quad", points: points(reply.board_px) }));
    for (const r of reply.regions) {
      parts.push(svg("polygon", { class: `overlay-region kind-${r.kind} seat-${seatOf(r.name)}`, points: points(r.points_px), "data-name": r.name }, svg("title", {}, r.name)));
    }
    for (const m of reply.markers.filter((m) => m.corner)) parts.push(svg("polygon", { class: "marker corner", points: points(m.corners_px) }));
    $("overlay-layer").replaceChildren(...parts);
  }

  $("capture").addEventListener("click", capture);
  $("use-markers").addEventListener("click", useMarkers);
  $("clear-corners").addEventListener("click", clearCorners);
  $("save").addEventListener("click", save);
  $("check").addEventListener("click", check);
  window.addEventListener("beforeunload", (event) => {
    if (!S.dirty) return;
    event.preventDefault();
    event.returnValue = t("ui/cal-leave");
  });

  // --- start -------------------------------------------------------------------------------------
  const state = await call("GET", "/profile");
  if (!state.ok) {
    status("frame-status", state.message, "bad");
    for (const id of ["capture", "save", "check", "add-region"]) $(id).disabled = true;
    return;
  }
  S.state = state;
  S.profile = state.profile;
  fillKinds();
  S.revision = state.revision;
  S.view = state.view;
  $("board-w").value = S.profile.width_mm;
  $("board-h").value = S.profile.height_mm;
  if (!state.camera) {
    $("no-camera").hidden = false;
    $("no-camera").textContent = state.no_camera;
    for (const id of ["capture", "check"]) $(id).disabled = true;
  }
  if (!state.can_save) {
    $("save").disabled = true;
    fill("path", state.camera ? state.cannot_save || t("ui/cal-cannot-save") : "");
  } else {
    fill("path", t("ui/cal-saved-to", { path: state.path }));
  }
  if (state.note) {
    $("note").hidden = false;
    $("note").textContent = state.note;
  }
  renderFrame();
  renderBoard();
  renderList();
  renderForm();
  window.heraldCalibrate = { state: () => S };
  document.body.setAttribute("data-ready", "true");
})();
