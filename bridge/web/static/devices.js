// The table display's device panel: seat boxes and dice towers (online, battery, last seq,
// errors) and the last rolls. Fed by the server's `devices` pushes (registry changes) and the
// `roll` broadcasts; asks for a snapshot with `devices` on every (re)connection.
"use strict";

const HeraldDevices = (() => {
  const { t, el, fill } = Herald;
  let rolls = [];

  function die(d) {
    const style = d.color ? `--die:${d.color}` : null;
    return el("span", { class: "die", style, title: `d${d.sides}${d.type ? ` ${d.type}` : ""}` }, String(d.value));
  }

  function renderRolls() {
    if (!rolls.length) return fill("rolls", el("li", { class: "muted" }, t("ui/no-rolls")));
    return fill("rolls", rolls.map((r) => el("li", { class: r.used ? "used" : "", "data-seq": r.seq, title: r.text || "" },
      el("span", { class: "who" }, `${r.device} #${r.seq}`),
      (r.dice || r.values.map((v) => ({ value: v, sides: 0 }))).map(die),
      r.text ? el("span", { class: "why muted" }, r.text) : null)));
  }

  function renderDevices(list) {
    if (!list.length) return fill("devices", el("li", { class: "muted" }, t("ui/no-devices")));
    return fill("devices", list.map((d) => {
      const meta = [t(d.online ? "ui/device-online" : "ui/device-offline")];
      if (d.battery !== null) meta.push(t("ui/device-battery", { battery: d.battery }));
      if (d.last_seq !== null) meta.push(t("ui/device-seq", { seq: d.last_seq }));
      if (d.errors) meta.push(t("ui/device-errors", { errors: d.errors }));
      return el("li", { class: `device ${d.online ? "on" : "off"} ${d.low_battery ? "low" : ""}`,
        "data-device": d.device, "data-online": String(d.online), title: d.last_error_text || d.transport || "" },
      el("span", { class: "dot" }, "●"), el("span", { class: "id" }, d.device),
      el("span", { class: "meta muted" }, meta.join(" · ")));
    }));
  }

  function render(panel) {
    if (!panel) return;
    fill("devices-note", panel.note || "");
    renderDevices(panel.devices || []);
    rolls = (panel.rolls || []).slice();
    renderRolls();
  }

  function attach(socket) {
    fill("h-devices", t("ui/devices"));
    fill("h-rolls", t("ui/last-rolls"));
    renderRolls();
    const ask = () => socket.emit("devices", {}, render);
    socket.on("connect", ask);
    if (socket.connected) ask();
    socket.on("devices", render);
    socket.on("roll", (r) => {
      rolls = [r, ...rolls.filter((x) => !(x.device === r.device && x.seq === r.seq))].slice(0, 6);
      renderRolls();
    });
  }

  return { attach };
})();
