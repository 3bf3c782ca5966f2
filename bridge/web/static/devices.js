// The table display's device panel: seat boxes and dice towers (paired to what, online,
// battery, last seq, errors), the last rolls, the pairing window's codes, and device notices
// (a tower that lost rolls while cut off asks the table to roll again). Asks for the whole
// panel with `devices` on every (re)connection, then applies the server's small
// `devices_delta` pushes. Opened as the host page, it also lets the host open pairing, pair a
// waiting device to a seat or the table, and unpair one (host-only Socket.IO events).
"use strict";

const HeraldDevices = (() => {
  const { t, el, fill, deviceName } = Herald;
  // A server sentence about devices in the page's words: device ids, a pairing ("seat:green")
  // and a seat's key named as everywhere else on the page (a Polish sentence says "zielony").
  const deviceWords = (text) => Herald.seatWords(Herald.deviceWords(String(text)
    .replace(/(?<![\w-])seat:([a-z]+)(?![\w-])/g, (_, seat) => Herald.seatName(seat))));
  let rolls = [];
  let devices = new Map();
  let pairing = { open: false, codes: {}, seats: [], pending: [] };
  let notices = [];
  let socket = null;
  let isHost = false;

  function die(d) {
    const style = d.color ? `--die:${d.color}` : null;
    return el("span", { class: "die", style, title: `d${d.sides}${d.type ? ` ${d.type}` : ""}` }, String(d.value));
  }

  function renderRolls() {
    if (!rolls.length) return fill("rolls", el("li", { class: "muted" }, t("ui/no-rolls")));
    return fill("rolls", rolls.map((r) => el("li", { class: r.used ? "used" : "", "data-seq": r.seq, title: deviceWords(Herald.said(r.texts, r.text || "")) },
      el("span", { class: "who" }, `${deviceName(r.device)} #${r.seq}`),
      (r.dice || r.values.map((v) => ({ value: v, sides: 0 }))).map(die),
      r.text ? el("span", { class: "why muted" }, deviceWords(Herald.said(r.texts, r.text))) : null)));
  }

  function ask(event, data) {
    return new Promise((resolve) => socket.emit(event, data, resolve));
  }

  async function hostDo(event, data) {
    const reply = await ask(event, data);
    if (!reply || !reply.ok) Herald.toast(deviceWords(Herald.said(reply && reply.messages, reply && reply.message) || event), "bad");
    else if (reply.message) Herald.toast(deviceWords(Herald.said(reply.messages, reply.message)), "");
    socket.emit("devices", {}, render);
  }

  // What a device is paired to ("seat:green", "table"), in words: the seat by its name.
  function pairedTo(paired) {
    const seat = String(paired).match(/^seat:(.+)$/);
    return seat ? Herald.seatName(seat[1]) : paired === "table" ? t("ui/the-table") : String(paired);
  }

  function targetLabel(target) {
    return target === "table" ? t("ui/pairing-table") : t("ui/pairing-seat", { seat: Herald.seatName(target) });
  }

  function renderDevices() {
    const list = [...devices.values()].sort((a, b) => a.device.localeCompare(b.device));
    if (!list.length) return fill("devices", el("li", { class: "muted" }, t("ui/no-devices")));
    return fill("devices", list.map((d) => {
      const meta = [t(d.online ? "ui/device-online" : "ui/device-offline")];
      meta.push(d.paired ? t("ui/device-paired", { target: pairedTo(d.paired) }) : t("ui/device-unpaired"));
      if (d.battery !== null) meta.push(t("ui/device-battery", { battery: d.battery }));
      if (d.last_seq !== null) meta.push(t("ui/device-seq", { seq: d.last_seq }));
      if (d.errors) meta.push(t("ui/device-errors", { errors: d.errors }));
      const unpair = isHost && d.paired
        ? el("button", { class: "small", type: "button", onclick: () => hostDo("device_unpair", { device: d.device }) }, t("ui/unpair"))
        : null;
      return el("li", { class: `device ${d.online ? "on" : "off"} ${d.low_battery ? "low" : ""} ${d.paired ? "paired" : "unpaired"}`,
        "data-device": d.device, "data-online": String(d.online), "data-paired": d.paired || "",
        title: deviceWords(d.last_error_text || d.transport || "") },
      el("span", { class: "dot" }, "●"), el("span", { class: "id" }, deviceName(d.device)),
      el("span", { class: "meta muted" }, meta.join(" · ")), unpair);
    }));
  }

  function renderPairing() {
    const box = document.getElementById("pairing");
    if (!box) return;
    const parts = [];
    if (isHost) {
      parts.push(el("button", { class: "small", type: "button", id: "pairing-toggle",
        onclick: () => hostDo("device_pairing", { open: !pairing.open }) },
      t(pairing.open ? "ui/pairing-close" : "ui/pairing-open")));
    }
    if (pairing.open && isHost) {
      // the codes reach the host page only: a viewer's or a seat's panel never carries them
      parts.push(el("p", { class: "muted" }, t("ui/pairing-help")));
      parts.push(el("ul", { class: "pair-codes" }, Object.entries(pairing.codes || {}).map(([target, code]) =>
        el("li", { "data-target": target }, el("span", {}, targetLabel(target)), " ", el("code", {}, code)))));
      if (pairing.wrong) parts.push(el("p", { class: "muted", id: "pairing-wrong" }, t("ui/pairing-wrong", { count: pairing.wrong })));
    } else if (pairing.open && (pairing.waiting || []).length) {
      parts.push(el("p", { class: "muted", id: "pairing-waiting" },
        t("ui/pairing-waiting", { targets: pairing.waiting.map(targetLabel).join(", ") })));
    }
    if (isHost && pairing.pending && pairing.pending.length) {
      parts.push(el("h3", {}, t("ui/pending-devices")));
      parts.push(el("ul", { class: "pending" }, pairing.pending.map((p) => {
        const choice = el("select", {}, [...pairing.seats, "table"].map((s) => el("option", { value: s }, targetLabel(s))));
        if (p.device_kind === "dice_tower") choice.value = "table";
        if (p.claims) choice.value = p.claims; // a right code that needed the host's approval
        const pair = () => hostDo("device_pair", { device: p.device, seat: choice.value === "table" ? null : choice.value });
        return el("li", { "data-device": p.device }, el("span", { class: "id" }, deviceName(p.device)), " ",
          p.claims ? el("span", { class: "muted claims" }, t("ui/pairing-claims", { target: targetLabel(p.claims) }), " ") : null,
          el("span", { class: "muted" }, t("ui/pair-to")), " ", choice, " ",
          el("button", { class: "small", type: "button", onclick: pair }, t("ui/pair-to")));
      })));
    }
    box.replaceChildren(...parts);
  }

  // Lost events stay on the display (the table must roll or press again), newest first; the
  // other notices are toasts.
  function renderNotices() {
    const box = document.getElementById("device-notices");
    if (!box) return;
    const lost = notices.filter((n) => n.code.startsWith("devices/lost")).slice(-3).reverse();
    box.replaceChildren(...lost.map((n) => el("li", { class: "bad", "data-code": n.code,
      "data-device": n.device }, deviceWords(Herald.said(n.messages, n.message)))));
  }

  function render(panel) {
    if (!panel || panel.ok === false) return;
    fill("devices-note", panel.note || "");
    devices = new Map((panel.devices || []).map((d) => [d.device, d]));
    if (panel.pairing) pairing = panel.pairing;
    renderDevices();
    renderPairing();
    rolls = (panel.rolls || []).slice();
    renderRolls();
    notices = (panel.notices || []).slice();
    renderNotices();
  }

  function applyDelta(delta) {
    for (const d of delta.changed || []) devices.set(d.device, d);
    for (const id of delta.removed || []) devices.delete(id);
    if ("note" in delta) fill("devices-note", delta.note || "");
    if (delta.pairing) pairing = delta.pairing;
    renderDevices();
    renderPairing();
  }

  function attach(sock, host) {
    socket = sock;
    isHost = Boolean(host);
    fill("h-devices", t("ui/devices"));
    fill("h-rolls", t("ui/last-rolls"));
    const card = document.getElementById("devices-box");
    if (card && !document.getElementById("pairing")) {
      card.insertBefore(el("div", { id: "pairing", class: "pairing" }), document.getElementById("devices"));
    }
    if (card && !document.getElementById("device-notices")) {
      card.insertBefore(el("ul", { id: "device-notices", class: "device-notices" }), document.getElementById("pairing"));
    }
    renderRolls();
    const whole = () => socket.emit("devices", {}, render);
    socket.on("connect", whole);
    if (socket.connected) whole();
    socket.on("devices", render);
    socket.on("devices_delta", applyDelta);
    socket.on("device_notice", (n) => {
      Herald.toast(deviceWords(Herald.said(n.messages, n.message)), n.code.startsWith("devices/lost") ? "bad" : "");
      if (!notices.some((x) => x.code === n.code && x.device === n.device && x.time === n.time)) {
        notices = [...notices, n].slice(-6);
      }
      renderNotices();
    });
    socket.on("roll", (r) => {
      rolls = [r, ...rolls.filter((x) => !(x.device === r.device && x.seq === r.seq))].slice(0, 6);
      renderRolls();
    });
  }

  return { attach, words: deviceWords };
})();
