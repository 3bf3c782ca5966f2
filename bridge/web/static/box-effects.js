// The "Your box" page's effect picker (issue #24 point 3): a card's effect is built by choosing
// from the game's own effect vocabulary (GET /api/box/<token>/effects/<game>: timings, what
// stands left of the arrow, reward atoms with their allowed values, where each may stand), never
// free text the rules cannot read. Every choice is read by the game's own grammar on the server
// (POST the same address), which answers the effect's text and a sentence in the page's language,
// or the refusal naming what the vocabulary can say there; an expert's typed text is read the same
// way. A printed text the choices cannot say is marked on its card ("unsayable", with what is
// missing) and the check lists the card as a gap. Core-neutral: any game offering the vocabulary
// gets the picker; box.js mounts it (docs/boxes.md).
"use strict";

(() => {
  window.HeraldBox = window.HeraldBox || { tools: {} };

  const PATH_PART = /([^.[\]]+)|(\[\])/g;

  // Every place in `doc` a vocabulary path ("cards[].ability") names: [segments, place].
  function expand(doc, path, place) {
    const tokens = [...path.matchAll(PATH_PART)].map((m) => m[1] || "[]");
    let found = [[[], doc]];
    for (const token of tokens) {
      const next = [];
      for (const [segs, node] of found) {
        if (token === "[]") {
          if (Array.isArray(node)) node.forEach((item, i) => next.push([[...segs, i], item]));
        } else if (node && typeof node === "object" && !Array.isArray(node) && token in node) {
          next.push([[...segs, token], node[token]]);
        }
      }
      found = next;
    }
    return found.filter(([, value]) => value === null || typeof value === "string")
      .map(([segs]) => ({ segs, place }));
  }

  // The card a field belongs to: the nearest object on its path with a name, id or number.
  function cardOf(doc, segs) {
    let node = doc;
    let card = null;
    for (const seg of segs.slice(0, -1)) {
      node = node[seg];
      if (node && typeof node === "object" && !Array.isArray(node)
          && (node.id !== undefined || node.name !== undefined || node.number !== undefined)) card = node;
    }
    return card;
  }

  function mount(holder, ctx, io) {
    const { t, el } = ctx;
    const P = { vocab: null, fields: [], chosen: null, F: null, text: "", ok: false, asked: 0, timer: null };

    const fieldSel = el("select", { id: "fx-field" });
    const builder = el("div", { id: "fx-builder", class: "fx-builder" });
    const textIn = el("input", { id: "fx-text", type: "text", autocomplete: "off", spellcheck: "false" });
    const said = el("p", { id: "fx-said", class: "note", "aria-live": "polite" });
    const use = el("button", { id: "fx-use", type: "button", class: "primary" }, t("ui/box-fx-use"));
    const printed = el("input", { id: "fx-printed", type: "text", maxlength: "300" });
    const lacking = el("input", { id: "fx-lacking", type: "text", maxlength: "300" });
    const mark = el("button", { id: "fx-mark", type: "button" }, t("ui/box-fx-mark"));
    const unmark = el("button", { id: "fx-unmark", type: "button" }, t("ui/box-fx-unmark"));
    const photo = el("button", { id: "fx-photo", type: "button" }, t("ui/box-fx-photo"));
    const status = el("p", { id: "fx-status", class: "note status", "aria-live": "polite" });
    const undock = el("button", { id: "fx-undock", type: "button", class: "fx-undock" }, t("ui/box-fx-undock"));
    const card = el("section", { class: "card", id: "fx-card" },
      el("div", { class: "fx-head" }, el("h2", {}, t("ui/box-fx-heading")), undock),
      el("p", { class: "note muted" }, t("ui/box-fx-help")),
      el("div", { class: "box-tools" }, el("label", { class: "wide" }, t("ui/box-fx-field"), " ", fieldSel)),
      builder,
      el("div", { class: "box-tools" }, el("label", { class: "wide" }, t("ui/box-fx-text"), " ", textIn)),
      said,
      el("div", { class: "box-tools" }, use, photo),
      el("details", { id: "fx-unsayable" },
        el("summary", {}, t("ui/box-fx-unsayable")),
        el("div", { class: "box-tools" },
          el("label", { class: "wide" }, t("ui/box-fx-printed"), " ", printed),
          el("label", { class: "wide" }, t("ui/box-fx-lacking"), " ", lacking)),
        el("div", { class: "box-tools" }, mark, unmark)),
      status);
    holder.replaceChildren(card);

    const doc = () => ctx.files()[ctx.main()];
    const chosen = () => P.fields[Number(fieldSel.value)] || null;
    const slot = () => (chosen() && chosen().place === "ability" ? P.F.timing : chosen() && chosen().place);
    const allowed = (entry) => entry.where.includes(slot());
    const valueAt = (segs) => segs.reduce((node, seg) => (node == null ? node : node[seg]), doc());

    function cardName(f) {
      const c = cardOf(doc(), f.segs);
      return c ? String(c.name || c.id || c.number) : "";
    }
    function cardId(f) {
      const c = cardOf(doc(), f.segs);
      return c && typeof c.id === "string" ? c.id : null;
    }
    function fieldLabel(f) {
      const name = cardName(f);
      const tail = f.segs.slice(-1)[0];
      const part = typeof tail === "number" ? `${f.segs[f.segs.length - 2]}[${tail}]` : tail;
      return [String(f.segs[0]), name, part].filter((x) => x !== "").join(" · ");
    }

    // --- the fields offered -------------------------------------------------------------------
    function listFields(keep) {
      const d = doc();
      P.fields = d ? P.vocab.paths.flatMap((p) => expand(d, p.path, p.place)) : [];
      const options = P.fields.map((f, i) => el("option", { value: String(i) },
        `${fieldLabel(f)}${valueAt(f.segs) == null ? " ∅" : ""}`));
      fieldSel.replaceChildren(...options);
      const again = keep ? P.fields.findIndex((f) => JSON.stringify(f.segs) === keep) : -1;
      fieldSel.value = String(Math.max(again, 0));
    }

    function blank() {
      return { timing: chosen() && chosen().place === "ability" ? P.vocab.timings[0].id : null,
               conversion: null, left: [], reward: [[]] };
    }
    function fresh(entry) {
      const item = { kind: entry.id };
      for (const f of entry.fields) {
        item[f.name] = f.kind === "number" ? 1 : f.optional ? null : f.values[0].id;
      }
      return item;
    }

    async function pickField() {
      const f = chosen();
      status.textContent = "";
      if (!f) return;
      const c = cardOf(doc(), f.segs);
      const marked = c && c.unsayable;
      printed.value = marked ? marked.printed : "";
      lacking.value = marked ? marked.missing : "";
      const value = valueAt(f.segs);
      P.F = blank();
      if (typeof value === "string" && value.trim()) {
        textIn.value = value;
        await read({ text: value }, true);
      } else {
        textIn.value = "";
        render();
        await read({ fields: P.F }, false);
      }
    }

    // --- the builder --------------------------------------------------------------------------
    function input(field, item, onChange) {
      if (field.kind === "number") {
        const box = el("input", { type: "number", min: "1", step: "1", class: "fx-num", "data-field": field.name,
          "aria-label": field.label, value: String(item[field.name] ?? 1) });
        box.addEventListener("input", () => { item[field.name] = Number(box.value) || box.value; onChange(); });
        return box;
      }
      const options = (field.optional ? [el("option", { value: "" }, "—")] : [])
        .concat(field.values.map((v) => el("option", { value: v.id }, v.label)));
      const pick = el("select", { "data-field": field.name, "aria-label": field.label }, ...options);
      pick.value = item[field.name] || "";
      pick.addEventListener("change", () => { item[field.name] = pick.value || null; onChange(); });
      return pick;
    }

    function row(entry, item, remove) {
      const gone = el("button", { type: "button", class: "fx-remove", title: t("ui/box-fx-remove") }, "×");
      gone.addEventListener("click", remove);
      return el("div", { class: "fx-row", "data-kind": entry.id },
        el("span", { class: "fx-kind" }, entry.label),
        ...entry.fields.map((f) => el("label", { class: "fx-field" }, f.label, " ", input(f, item, changed))),
        gone);
    }

    function adder(id, entries, onPick) {
      const pick = el("select", { class: "fx-add", "data-add": id },
        el("option", { value: "" }, t("ui/box-fx-add")),
        ...entries.filter(allowed).map((e) => el("option", { value: e.id }, e.label)));
      pick.addEventListener("change", () => {
        const entry = entries.find((e) => e.id === pick.value);
        if (entry) onPick(entry);
      });
      return pick;
    }

    function render() {
      const f = chosen();
      const parts = [];
      if (!f) return builder.replaceChildren();
      if (f.place === "ability") {
        const timing = el("select", { id: "fx-timing" },
          ...P.vocab.timings.map((x) => el("option", { value: x.id }, x.label)));
        timing.value = P.F.timing || P.vocab.timings[0].id;
        timing.addEventListener("change", () => { P.F.timing = timing.value; render(); changed(); });
        parts.push(el("label", {}, t("ui/box-fx-timing"), " ", timing));
      }
      const conv = P.vocab.conversion;
      if (allowed(conv)) {
        const box = el("input", { type: "checkbox", id: "fx-conversion" });
        box.checked = !!P.F.conversion;
        box.addEventListener("change", () => {
          P.F.conversion = box.checked ? fresh(conv) : null;
          if (P.F.conversion) {
            delete P.F.conversion.kind;
            const other = conv.fields.find((x) => x.name === "get");
            if (other && other.values[1]) P.F.conversion.get = other.values[1].id; // not into itself
          } else if (!P.F.reward.length) {
            P.F.reward = [[]];
          }
          render(); changed();
        });
        parts.push(el("label", {}, box, " ", conv.label));
      }
      if (P.F.conversion) {
        parts.push(el("div", { class: "fx-row" },
          ...conv.fields.map((x) => el("label", { class: "fx-field" }, x.label, " ", input(x, P.F.conversion, changed)))));
        return builder.replaceChildren(...parts);
      }
      const byId = (list, id) => list.find((e) => e.id === id) || { id, label: id, fields: [], where: [] };
      const left = el("div", { class: "fx-side", id: "fx-left" }, el("h3", {}, t("ui/box-fx-left")),
        ...P.F.left.map((item, i) => row(byId(P.vocab.left, item.kind), item, () => { P.F.left.splice(i, 1); render(); changed(); })),
        adder("left", P.vocab.left, (e) => { P.F.left.push(fresh(e)); render(); changed(); }));
      const reward = el("div", { class: "fx-side", id: "fx-reward" }, el("h3", {}, t("ui/box-fx-reward")));
      P.F.reward.forEach((alternative, a) => {
        if (a > 0) reward.append(el("p", { class: "fx-or" }, t("ui/box-fx-or")));
        const group = el("div", { class: "fx-alt", "data-alt": String(a) },
          ...alternative.map((item, i) => row(byId(P.vocab.atoms, item.kind), item, () => {
            alternative.splice(i, 1);
            if (!alternative.length && P.F.reward.length > 1) P.F.reward.splice(a, 1);
            render(); changed();
          })),
          adder(`atom-${a}`, P.vocab.atoms, (e) => { alternative.push(fresh(e)); render(); changed(); }));
        reward.append(group);
      });
      const or = el("button", { type: "button", id: "fx-add-or" }, t("ui/box-fx-add-or"));
      or.addEventListener("click", () => { P.F.reward.push([]); render(); });
      reward.append(or);
      builder.replaceChildren(...parts, left, reward);
    }

    // --- the server reads it ------------------------------------------------------------------
    function changed() {
      clearTimeout(P.timer);
      P.timer = setTimeout(() => read({ fields: P.F }, false), 150);
    }
    textIn.addEventListener("input", () => {
      clearTimeout(P.timer);
      P.timer = setTimeout(() => read({ text: textIn.value }, true), 300);
    });

    async function read(given, typed) {
      const f = chosen();
      if (!f) return;
      const mine = ++P.asked;
      const { ok, body } = await io.post(`/effects/${encodeURIComponent(io.game())}`,
        { place: f.place, card: cardName(f), ...given });
      if (mine !== P.asked) return; // a newer choice is being read
      if (!ok || !body.ok) {
        P.ok = false;
        if (!typed && body.text !== undefined) textIn.value = body.text;
        said.textContent = body.message || "";
        said.className = "note fault";
        said.setAttribute("role", "alert");
      } else {
        P.ok = true;
        P.text = body.text;
        if (!typed) textIn.value = body.text;
        if (typed) { P.F = body.fields; render(); }
        said.textContent = body.sentence;
        said.className = "note said";
        said.removeAttribute("role");
      }
      use.disabled = !P.ok;
    }

    // --- into the data ------------------------------------------------------------------------
    function setAt(segs, value) {
      const d = doc();
      let node = d;
      for (const seg of segs.slice(0, -1)) node = node[seg];
      node[segs[segs.length - 1]] = value;
      ctx.setFile(ctx.main(), d);
    }
    use.addEventListener("click", () => {
      const f = chosen();
      if (!f || !P.ok) return;
      setAt(f.segs, P.text);
      const keep = JSON.stringify(f.segs);
      listFields(keep);
      status.textContent = t("ui/box-fx-used", { card: cardName(f), part: fieldLabel(f), text: P.text });
    });

    function markCard(on) {
      const f = chosen();
      const c = f && cardOf(doc(), f.segs);
      if (!c) return;
      if (on) {
        if (!printed.value.trim() || !lacking.value.trim()) return printed.focus();
        c.unsayable = { printed: printed.value.trim(), missing: lacking.value.trim() };
      } else {
        delete c.unsayable;
      }
      ctx.setFile(ctx.main(), doc());
      status.textContent = t(on ? "ui/box-fx-marked" : "ui/box-fx-unmarked", { card: cardName(f) });
    }
    mark.addEventListener("click", () => markCard(true));
    unmark.addEventListener("click", () => markCard(false));

    // "Photograph it once": the card's face is enrolled under Card faces, for a box kept here.
    photo.addEventListener("click", () => {
      const f = chosen();
      const id = f && cardId(f);
      const faces = document.getElementById("faces-card");
      const cards = document.getElementById("card");
      if (id && faces && !faces.hidden && cards && [...cards.options].some((o) => o.value === id)) {
        cards.value = id;
        faces.scrollIntoView({ block: "center" });
        document.getElementById("photo").focus();
        status.textContent = t("ui/box-fx-photo-now", { card: cardName(f) });
      } else {
        status.textContent = t("ui/box-fx-photo-save", { card: f ? cardName(f) : "" });
      }
    });

    // A click into a form's effect field chooses it here too.
    const editors = document.getElementById("editors");
    const onFocus = (event) => {
      const name = event.target && event.target.name;
      if (!name || !name.startsWith("root[")) return;
      const segs = [...name.matchAll(/\[([^\]]*)\]/g)].map((m) => (/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]));
      const at = P.fields.findIndex((f) => JSON.stringify(f.segs) === JSON.stringify(segs));
      if (at < 0) return;
      card.classList.add("fx-docked"); // the picker opens over the form, beside what is edited
      if (String(at) !== fieldSel.value) { fieldSel.value = String(at); pickField(); }
    };
    undock.addEventListener("click", () => card.classList.remove("fx-docked"));
    if (editors) editors.addEventListener("focusin", onFocus);
    // A card named or added in the form is offered under its new name (after the form's own
    // change has reached the draft).
    const relist = () => {
      clearTimeout(P.relist);
      P.relist = setTimeout(() => {
        const f = chosen();
        if (P.vocab) listFields(f ? JSON.stringify(f.segs) : null);
      }, 250);
    };
    if (editors) editors.addEventListener("change", relist, true); // the form stops its events

    fieldSel.addEventListener("change", pickField);
    use.disabled = true;
    return {
      async start(vocab) {
        P.vocab = vocab;
        listFields(null);
        await pickField();
      },
      stop() {
        if (!editors) return;
        editors.removeEventListener("focusin", onFocus);
        editors.removeEventListener("change", relist, true);
      },
    };
  }

  window.HeraldBox.effects = { mount, expand };
})();
