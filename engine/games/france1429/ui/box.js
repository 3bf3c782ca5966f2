// France 1429's own box tool (issue #24 point 2): trace the map on a photo of the board. The
// host sets the board's four corners on the photo, then clicks each Village (its name typed
// first), two Villages for a road, and Villages into a Fief or a Bishopric; every step edits
// the draft's map file through the "Your box" page (bridge/web/static/box.js), so the server's
// check judges it at once, and Undo takes back any step, a corner click too. Positions are kept
// in board millimetres (the map file's x/y) with the board's size (its `board`): the camera's
// board profile for the box is laid out from them (layout.board_profile), so the corners
// clicked here are the camera's calibration. The squares the camera will read each Village in
// are drawn over the photo, so a host sees at once where two would overlap.
"use strict";

(() => {
  const NS = "http://www.w3.org/2000/svg";
  const KEY = "france1429";
  const STROKES = ["#555", "#7b241c", "#1f618d", "#117a65", "#b9770e", "#6c3483"];
  // The camera's square for a Village and the board's corner stickers, in board millimetres
  // (board_places.VILLAGE_MM, CORNER_MM, CORNER_INSET_MM).
  const SQUARE_MM = 64;
  const CORNER_MM = 40;
  const INSET_MM = 5;

  // A homography from four point pairs (src → dst), solved as the 8×8 linear system.
  function homography(src, dst) {
    const a = [];
    const b = [];
    for (let i = 0; i < 4; i++) {
      const [x, y] = src[i];
      const [u, v] = dst[i];
      a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.push(u);
      a.push([0, 0, 0, x, y, 1, -v * x, -v * y]); b.push(v);
    }
    for (let c = 0; c < 8; c++) { // Gaussian elimination with partial pivoting
      let p = c;
      for (let r = c + 1; r < 8; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
      [a[c], a[p]] = [a[p], a[c]];
      [b[c], b[p]] = [b[p], b[c]];
      for (let r = 0; r < 8; r++) {
        if (r === c || a[c][c] === 0) continue;
        const f = a[r][c] / a[c][c];
        for (let k = c; k < 8; k++) a[r][k] -= f * a[c][k];
        b[r] -= f * b[c];
      }
    }
    const h = b.map((v, i) => v / a[i][i]);
    return [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1];
  }
  function project(h, x, y) {
    const w = h[6] * x + h[7] * y + h[8];
    return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
  }
  function slug(name) {
    return name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "village";
  }

  function mount(holder, ctx) {
    const { el } = ctx;
    if (!document.getElementById("trace-css")) {
      document.head.append(el("link", { id: "trace-css", rel: "stylesheet", href: `/games/${KEY}/ui/box.css` }));
    }
    const L = (code, params) => ctx.t(`${KEY}:ui/trace-${code}`, params);
    const S = { corners: [], toImage: null, toBoard: null, tool: "village", pending: null,
      undo: [], width: 0, height: 0 };
    const mapName = () => (ctx.files()[ctx.main()] || {}).map;
    const current = () => JSON.parse(JSON.stringify(ctx.files()[mapName()] || {}));
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "stage-svg trace-stage");
    svg.setAttribute("role", "img");
    svg.id = "trace-stage";
    const image = document.createElementNS(NS, "image");
    const layer = document.createElementNS(NS, "g");
    svg.append(image, layer);

    const tools = ["village", "road", "fief", "bishopric", "remove"].map((tool) =>
      el("label", { class: "trace-tool" },
        el("input", { type: "radio", name: "trace-tool", value: tool, checked: tool === S.tool,
          onchange: () => { S.tool = tool; S.pending = null; draw(); } }),
        " ", L(`tool-${tool}`)));
    const photo = el("input", { id: "trace-photo", type: "file", accept: "image/*", capture: "environment" });
    const given = (current().board || {});
    const boardW = el("input", { id: "trace-width", type: "number", min: "100", max: "3000", step: "1",
      value: String(given.width_mm || 800) });
    const boardH = el("input", { id: "trace-height", type: "number", min: "100", max: "3000", step: "1",
      value: String(given.height_mm || 500) });
    const whole = el("input", { id: "trace-whole", type: "checkbox", onchange: markWhole });
    const squares = el("input", { id: "trace-squares", type: "checkbox", checked: true, onchange: () => draw() });
    const name = el("input", { id: "trace-name", type: "text", maxlength: "60", autocomplete: "off",
      list: "herald-start-names" }); // the names of a TTS save's or VASSAL module's pieces, if any
    const principal = el("input", { id: "trace-principal", type: "checkbox" });
    const fief = el("select", { id: "trace-fief" });
    const bishopric = el("select", { id: "trace-bishopric" },
      [1, 2, 3, 4, 5].map((n) => el("option", { value: String(n) }, L("bishopric", { n }))));
    const fiefName = el("input", { id: "trace-fief-name", type: "text", maxlength: "40", autocomplete: "off" });
    const fiefRank = el("select", { id: "trace-fief-rank" },
      ["barony", "county", "duchy"].map((r) => el("option", { value: r }, L(`rank-${r}`))));
    const fiefColour = el("input", { id: "trace-fief-colour", type: "color", value: "#2e86c1" });
    const status = el("p", { id: "trace-status", class: "note status", "aria-live": "polite" });

    holder.append(el("section", { class: "card", id: "trace-card" },
      el("h2", {}, L("heading")),
      el("p", { class: "note muted" }, L("help")),
      el("div", { class: "box-tools" },
        el("label", {}, L("photo"), " ", photo),
        el("label", {}, L("width"), " ", boardW), el("label", {}, L("height"), " ", boardH),
        el("button", { type: "button", id: "trace-corners", onclick: cornersAgain }, L("corners-again")),
        el("button", { type: "button", id: "trace-new-map", onclick: newMap }, L("new-map")),
        el("button", { type: "button", id: "trace-undo", onclick: undo }, L("undo"))),
      el("div", { class: "box-tools" }, tools),
      el("div", { class: "box-tools" },
        el("label", {}, L("name"), " ", name), el("label", { class: "check" }, principal, " ", L("principal")),
        el("label", {}, L("fief"), " ", fief), el("label", {}, L("bishopric-pick"), " ", bishopric)),
      el("div", { class: "box-tools" },
        el("label", {}, L("fief-name"), " ", fiefName), el("label", {}, L("fief-rank"), " ", fiefRank),
        el("label", {}, L("fief-colour"), " ", fiefColour),
        el("button", { type: "button", id: "trace-add-fief", onclick: addFief }, L("add-fief"))),
      el("div", { class: "box-tools" },
        el("label", { class: "check" }, whole, " ", L("whole")),
        el("label", { class: "check" }, squares, " ", L("squares"))),
      status,
      el("div", { class: "stage" }, svg)));

    function say(text) { status.textContent = text; }
    function fillFiefs() {
      const doc = current();
      const chosen = fief.value;
      fief.replaceChildren(...(doc.fiefs || []).map((f) => el("option", { value: f.id }, f.name || f.id)));
      if (chosen) fief.value = chosen;
    }
    function size() { return [Number(boardW.value) || 800, Number(boardH.value) || 500]; }
    // Every step is undone whole: the map as it was, and the corners as they were.
    function remember(withMap) {
      S.undo.push({ doc: withMap ? current() : null, corners: S.corners.slice() });
    }
    function commit(doc, said) {
      remember(true);
      ctx.setFile(mapName(), doc);
      fillFiefs();
      draw();
      say(said);
    }
    function undo() {
      const before = S.undo.pop();
      if (!before) return say(L("nothing-to-undo"));
      if (before.doc) {
        ctx.setFile(mapName(), before.doc);
        const board = before.doc.board || {};
        if (board.width_mm) { boardW.value = String(board.width_mm); boardH.value = String(board.height_mm); }
        fillFiefs();
      }
      setCorners(before.corners);
      draw();
      say(L("undone"));
    }
    // The four corners clicked on the photo are the board's calibration: board millimetres
    // (the size typed beside them) to photo pixels and back.
    function setCorners(corners) {
      S.corners = corners.slice();
      S.toImage = S.toBoard = null;
      if (S.corners.length === 4) {
        const [w, h] = size();
        const board = [[0, 0], [w, 0], [w, h], [0, h]];
        S.toImage = homography(board, S.corners);
        S.toBoard = homography(S.corners, board);
      }
    }
    function withBoard(doc) {
      const [w, h] = size();
      doc.board = { width_mm: w, height_mm: h };
      return doc;
    }
    function cornersAgain() {
      remember(false);
      setCorners([]);
      draw();
      say(L("corner-1"));
    }
    // A map traced from nothing: the Villages, roads and Fiefs go (the Bishoprics are the
    // rules' five), and the lists are marked incomplete until the host says the map is whole.
    function newMap() {
      const doc = current();
      Object.assign(doc, { villages: [], roads: [], fiefs: [], incomplete: ["villages", "roads"] });
      commit(S.toImage ? withBoard(doc) : doc, L("map-new"));
    }
    function markWhole() {
      const doc = current();
      doc.incomplete = whole.checked ? [] : ["villages", "roads"];
      commit(doc, L(whole.checked ? "map-whole" : "map-not-whole"));
    }
    for (const input of [boardW, boardH]) {
      input.addEventListener("change", () => {
        if (S.corners.length !== 4) return;
        const doc = current();
        const corners = S.corners;
        commit(withBoard(doc), L("corners-set"));
        setCorners(corners);
        draw();
      });
    }
    function addFief() {
      const label = fiefName.value.trim();
      if (!label) return say(L("fief-needs-name"));
      const doc = current();
      const id = slug(label);
      doc.fiefs = (doc.fiefs || []).filter((f) => f.id !== id);
      doc.fiefs.push({ id, name: label, colour: fiefColour.value, rank: fiefRank.value });
      fiefName.value = "";
      commit(doc, L("fief-added", { name: label }));
      fief.value = id;
    }

    photo.addEventListener("change", () => {
      const file = photo.files[0];
      if (!file) return;
      const reader = new FileReader(); // a data: URL, which the page CSP allows for pictures
      reader.addEventListener("load", () => show(String(reader.result)));
      reader.readAsDataURL(file);
    });
    function show(url, flat) {
      const probe = new Image();
      probe.onload = () => {
        S.width = probe.naturalWidth;
        S.height = probe.naturalHeight;
        svg.setAttribute("viewBox", `0 0 ${S.width} ${S.height}`);
        image.setAttribute("href", url);
        image.setAttribute("width", S.width);
        image.setAttribute("height", S.height);
        S.corners = [];
        S.toImage = null;
        if (flat) { // a picture of the board alone: its corners are the board's
          for (const corner of [[0, 0], [S.width, 0], [S.width, S.height], [0, S.height]]) setCorner(corner);
          return draw();
        }
        draw();
        say(ctx.t(`${KEY}:ui/trace-corner-1`));
      };
      probe.src = url;
    }
    // A start from a TTS save or a VASSAL module (bridge/web/static/box-start.js) gives the
    // board's own picture, not a photo: it is traced on as it is, the board's height in
    // millimetres kept in the picture's proportions.
    function useStart(start) {
      if (!start || !start.board) return;
      const w = Number(boardW.value) || 800;
      boardH.value = String(Math.round((w * start.board.height) / start.board.width));
      show(start.board.image, true);
    }
    const onStart = (event) => {
      if (!svg.isConnected) return document.removeEventListener("heraldbox:start", onStart);
      return useStart(event.detail);
    };
    document.addEventListener("heraldbox:start", onStart);

    function nearest(doc, point) {
      let best = null;
      let bestD = (S.width || 1000) * 0.03;
      for (const v of doc.villages || []) {
        if (v.x === null || v.x === undefined || v.y === null || v.y === undefined) continue;
        const [x, y] = project(S.toImage, v.x, v.y);
        const d = Math.hypot(x - point[0], y - point[1]);
        if (d < bestD) { best = v; bestD = d; }
      }
      return best;
    }

    svg.addEventListener("click", (event) => {
      if (!S.width) return say(L("photo-first"));
      const m = svg.getScreenCTM().inverse();
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m);
      const point = [p.x, p.y];
      if (S.corners.length < 4) {
        setCorner(point);
        return draw();
      }
      const doc = current();
      doc.villages = doc.villages || [];
      doc.roads = doc.roads || [];
      const hit = nearest(doc, point);
      if (S.tool === "village") {
        if (hit) return say(L("village-there", { name: hit.name }));
        const label = name.value.trim();
        if (!label) return say(L("name-first"));
        const [bx, by] = project(S.toBoard, point[0], point[1]);
        const known = doc.villages.find((v) => v.name === label);
        const village = known || { id: slug(label), name: label, fief: fief.value || null,
          bishopric: Number(bishopric.value), principal: principal.checked };
        village.x = Math.round(bx);
        village.y = Math.round(by);
        if (!known) doc.villages.push(village);
        name.value = "";
        principal.checked = false;
        return commit(doc, L("village-placed", { name: label }));
      }
      if (!hit) return say(L("click-a-village"));
      if (S.tool === "road") {
        if (!S.pending) { S.pending = hit.id; draw(); return say(L("road-from", { name: hit.name })); }
        const from = S.pending;
        S.pending = null;
        if (from === hit.id) return draw();
        const same = (r) => r.between.includes(from) && r.between.includes(hit.id);
        const had = doc.roads.some(same);
        doc.roads = had ? doc.roads.filter((r) => !same(r)) : [...doc.roads, { between: [from, hit.id] }];
        return commit(doc, L(had ? "road-removed" : "road-laid", { name: hit.name }));
      }
      const village = doc.villages.find((v) => v.id === hit.id);
      if (S.tool === "fief") {
        if (!fief.value) return say(L("fief-needs-name"));
        village.fief = fief.value;
        return commit(doc, L("in-fief", { name: hit.name }));
      }
      if (S.tool === "bishopric") {
        village.bishopric = Number(bishopric.value);
        return commit(doc, L("in-bishopric", { name: hit.name, n: bishopric.value }));
      }
      doc.villages = doc.villages.filter((v) => v.id !== hit.id);
      doc.roads = doc.roads.filter((r) => !r.between.includes(hit.id));
      return commit(doc, L("removed", { name: hit.name }));
    });

    // A corner clicked is a step Undo takes back; the fourth puts the board's size into the map
    // with it, in the same step.
    function setCorner(point) {
      if (S.corners.length < 3) {
        remember(false);
        setCorners([...S.corners, point]);
        return say(L(`corner-${S.corners.length + 1}`));
      }
      remember(true);
      setCorners([...S.corners, point]);
      ctx.setFile(mapName(), withBoard(current()));
      return say(L("corners-set"));
    }

    // The map as traced, drawn over the photo where the corners put the board.
    function draw() {
      layer.replaceChildren();
      const r = (S.width || 1000) * 0.012;
      const add = (tag, attrs, text) => {
        const node = document.createElementNS(NS, tag);
        for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
        if (text) node.textContent = text;
        layer.append(node);
      };
      for (const c of S.corners) add("circle", { cx: c[0], cy: c[1], r, class: "trace-corner" });
      if (!S.toImage) return;
      const [bw, bh] = size();
      const poly = (x, y, w, h) => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
        .map(([px, py]) => project(S.toImage, px, py).join(",")).join(" ");
      add("polygon", { points: poly(0, 0, bw, bh), class: "trace-board" });
      const doc = current();
      whole.checked = !(doc.incomplete || []).length;
      if (squares.checked) {
        // where the camera will read: each Village's square and the corner stickers, red
        // where two overlap (the check names them too)
        const far = [INSET_MM, bw - INSET_MM - CORNER_MM];
        const low = [INSET_MM, bh - INSET_MM - CORNER_MM];
        const boxes = [];
        for (const x of far) for (const y of low) boxes.push({ rect: [x, y, CORNER_MM, CORNER_MM], corner: true });
        for (const v of doc.villages || []) {
          if (v.x === null || v.x === undefined || v.y === null || v.y === undefined) continue;
          boxes.push({ rect: [v.x - SQUARE_MM / 2, v.y - SQUARE_MM / 2, SQUARE_MM, SQUARE_MM] });
        }
        const meets = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
        for (const [i, box] of boxes.entries()) {
          const [x, y, w, h] = box.rect;
          const bad = !box.corner && (x < 0 || y < 0 || x + w > bw || y + h > bh
            || boxes.some((other, j) => j !== i && meets(box.rect, other.rect)));
          add("polygon", { points: poly(x, y, w, h),
            class: box.corner ? "trace-sticker" : bad ? "trace-square trace-clash" : "trace-square" });
        }
      }
      const at = {};
      for (const v of doc.villages || []) {
        if (v.x !== null && v.x !== undefined && v.y !== null && v.y !== undefined) at[v.id] = project(S.toImage, v.x, v.y);
      }
      for (const road of doc.roads || []) {
        const [a, b] = road.between.map((id) => at[id]);
        if (a && b) add("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "trace-road" });
      }
      const colours = Object.fromEntries((doc.fiefs || []).map((f) => [f.id, f.colour || "#999"]));
      for (const v of doc.villages || []) {
        const p = at[v.id];
        if (!p) continue;
        add("circle", { cx: p[0], cy: p[1], r, fill: colours[v.fief] || "#bbb",
          stroke: STROKES[v.bishopric || 0] || "#555", "stroke-width": r / 3,
          class: v.id === S.pending ? "trace-village trace-pending" : "trace-village",
          "data-village": v.id });
        add("text", { x: p[0] + r * 1.3, y: p[1] + r / 2, class: "trace-label", "font-size": r * 1.4 },
          v.principal ? `${v.name} ★` : v.name);
      }
    }
    fillFiefs();
    draw();
    say(L("corner-1"));
    useStart((window.HeraldBox || {}).start);
  }

  window.HeraldBox = window.HeraldBox || { tools: {} };
  window.HeraldBox.tools[KEY] = { mount };
})();
