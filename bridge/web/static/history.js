// History on the table display: pick a move in the log (or step with the slider) and see the
// table as it was after it, the board drawn by the game's own page module and the scores then.
// The server replays the stored events up to that state (`history` event, docs/protocol.md).
"use strict";

const HeraldHistory = (() => {
  const { t, fill } = Herald;
  let conn = null;
  let getModule = () => null;
  let latestId = 0;
  let shown = null; // the state shown, or null when the live table is shown
  const box = () => document.getElementById("history-box");
  const range = () => document.getElementById("history-range");

  function attach(connection, moduleOf) {
    conn = connection;
    getModule = moduleOf;
    fill("h-history", t("ui/history"));
    fill("history-older", t("ui/history-older"));
    fill("history-newer", t("ui/history-newer"));
    fill("history-live", t("ui/history-live"));
    document.getElementById("history-older").onclick = () => show(Math.max(0, (shown || 0) - 1));
    document.getElementById("history-newer").onclick = () => show(Math.min(latestId, (shown || 0) + 1));
    document.getElementById("history-live").onclick = close;
    range().oninput = () => show(Number(range().value));
  }

  function live(stateId) {
    latestId = stateId;
    range().max = String(stateId);
  }

  function show(stateId) {
    shown = stateId;
    box().hidden = false;
    document.getElementById("live").classList.add("behind");
    range().value = String(stateId);
    conn.socket.emit("history", { state_id: stateId }, (reply) => {
      if (reply && reply.code === "history/too-fast") { // paced by the referee: ask again soon
        setTimeout(() => { if (shown === stateId) show(stateId); }, 250);
        return;
      }
      if (!reply || !reply.ok || shown !== stateId) {
        if (reply && !reply.ok) Herald.toast(reply.message, "bad");
        return;
      }
      fill("history-at", stateId === 0 ? t("ui/history-start", { of: reply.current })
        : t("ui/history-at", { n: stateId, of: reply.current }));
      const root = document.getElementById("history-board");
      const module = getModule() || {};
      const ctx = { key: reply.game, data: { ...reply, income: {}, log: [], seats: [] }, t: Herald.gameT(reply.game) };
      if (module.renderTable) module.renderTable(root, reply.view, ctx);
      else Herald.genericBoard(root, reply.view);
      fill("history-scores", Herald.scores(reply.view, null));
      box().scrollIntoView({ block: "start" });
    });
  }

  function close() {
    shown = null;
    box().hidden = true;
    document.getElementById("live").classList.remove("behind");
    fill("history-board");
    fill("history-scores");
  }

  return { attach, live, show, close, shown: () => shown };
})();
