// The venue view: every table of the store, one row each. The first `venue` message is the
// store's listing; each table's own Herald process then announces it (`venue_table`) through the
// venue's message queue, on every move, when a phone comes or goes, and every few seconds.
"use strict";

(async () => {
  const { t, el, fill, seatChip } = Herald;
  await Herald.loadLabels();
  document.title = t("ui/venue-title");
  fill("title", t("ui/venue-title"));
  fill("h-tables", t("ui/venue-heading"));
  const tables = new Map(); // table_id -> newest summary
  const SILENT_AFTER = 20000; // ms without an announcement: the table's process is not heard

  function count(v) {
    return v === null || v === undefined ? "—" : String(v);
  }

  function row(s) {
    const heard = s.live && s.seen && Date.now() - s.seen * 1000 < SILENT_AFTER;
    const status = s.over ? t("ui/venue-over") : heard ? t("ui/venue-live") : t("ui/venue-silent");
    const link = s.table_url ? el("a", { href: s.table_url, target: "_blank", rel: "noopener" }, t("ui/venue-open-display")) : "—";
    return el("tr", { "data-table": s.table_id, class: heard ? "live" : "silent" },
      el("td", {}, s.table_id), el("td", {}, s.game_name || s.game),
      el("td", { class: "num" }, count(s.round)),
      el("td", {}, s.over ? "—" : (s.to_act || []).map(seatChip)),
      el("td", { class: "num" }, count(s.phones)),
      el("td", { class: "num" }, s.devices ? `${s.devices_online}/${s.devices}` : count(s.devices_online)),
      el("td", { class: "num" }, String(s.state_id)),
      el("td", {}, status), el("td", {}, link));
  }

  function render() {
    const head = el("thead", {}, el("tr", {}, ["ui/venue-table", "ui/venue-game", "ui/venue-round",
      "ui/venue-to-act", "ui/venue-phones", "ui/venue-devices", "ui/venue-state", "ui/venue-live",
      "ui/venue-display"].map((code) => el("th", {}, t(code)))));
    const rows = [...tables.values()].sort((a, b) => a.table_id.localeCompare(b.table_id)).map(row);
    fill("tables", head, el("tbody", {}, rows));
    const none = document.getElementById("none");
    none.hidden = tables.size > 0;
    none.textContent = t("ui/venue-none");
  }

  // An announcement replaces what is held unless it is older (a restarted table starts again
  // from its stored state, so a lower state_id of a newer session still wins).
  function take(s) {
    const held = tables.get(s.table_id);
    if (held && held.session === s.session && held.live && s.live && (s.seen || 0) < (held.seen || 0)) return;
    tables.set(s.table_id, held && !s.live ? { ...held, ...s, live: held.live, phones: held.phones,
      devices: held.devices, devices_online: held.devices_online, table_url: held.table_url, seen: held.seen } : s);
  }

  const socket = io({ transports: ["websocket", "polling"] });
  const status = document.getElementById("conn");
  socket.on("connect", () => { status.textContent = "●"; status.className = "conn ok"; });
  socket.on("disconnect", () => { status.textContent = t("ui/disconnected"); status.className = "conn down"; });
  socket.on("venue", (data) => { for (const s of data.tables || []) take(s); render(); });
  socket.on("venue_table", (s) => { take(s); render(); });
  setInterval(render, 5000); // a table that stops announcing turns "not announced"
  render();
})();
