// The camera's question (issue #25): one panel, under the page's bar, that stays until the
// question is answered or resolved; never a toast. The server sends `question` only to the
// table display and to the phone of the seat who answers (docs/protocol.md), so this module
// shows what it is sent: the sentence, and either the choices to tap (the asked phone, or the
// host's table display for a table move) or who answers. An answer is `answer` with the
// question's id; the server closes the panel everywhere with `{open: false, id}`.
"use strict";

const HeraldQuestion = (() => {
  const { t, el, seatChip } = Herald;

  // Mount on a page: `conn` from Herald.connect, `host` whether this page may answer for the
  // table (the host's token). Returns the panel's state for the browser tests.
  function attach(conn, { host = false } = {}) {
    const panel = el("section", { id: "question", class: "card question-panel", role: "alertdialog", "aria-live": "assertive", hidden: true });
    const bar = document.querySelector("header.bar");
    if (bar && bar.parentNode) bar.parentNode.insertBefore(panel, bar.nextSibling);
    else document.body.prepend(panel);
    const S = { open: null, shown: 0, answered: 0 };

    function close() {
      S.open = null;
      panel.hidden = true;
      panel.replaceChildren();
      document.body.removeAttribute("data-question");
    }

    async function answer(q, index, buttons) {
      for (const b of buttons) b.disabled = true;
      const reply = await new Promise((resolve) => conn.socket.emit("answer", { question: q.id, choice: index }, resolve));
      if (!reply || !reply.ok) { // a refusal also comes as `error`/`violation`, which the page says
        if (!reply) Herald.toast(t("ui/disconnected"), "bad");
        for (const b of buttons) b.disabled = false;
        return;
      }
      S.answered += 1;
      if (S.open && S.open.id === q.id) close(); // the server's close follows; the tap is done
    }

    function render(q) {
      S.open = q;
      S.shown += 1;
      const canAnswer = q.choices.length > 0 && (q.answerable || host);
      const parts = [el("h2", {}, t("ui/question-title")), el("p", { class: "question-text" }, Herald.seatWords(q.message))];
      if (canAnswer) {
        const buttons = [];
        for (const choice of q.choices) {
          const label = choice.labels.map((l) => Herald.seatWords(l)).join(" · ");
          const b = el("button", { type: "button", class: "question-choice", "data-index": String(choice.index) }, label);
          b.addEventListener("click", () => answer(q, choice.index, buttons));
          buttons.push(b);
        }
        parts.push(el("div", { class: "question-choices" }, buttons));
      } else if (q.count > 0) {
        parts.push(el("p", { class: "note" }, t("ui/question-count", { count: q.count })));
      }
      if (!canAnswer && q.seat) {
        parts.push(el("p", { class: "question-who" }, seatChip(q.seat), " ", t("ui/question-wait", { seat: Herald.seatName(q.seat) })));
      } else if (canAnswer && !q.seat) {
        parts.push(el("p", { class: "note" }, t("ui/question-host")));
      }
      panel.replaceChildren(...parts);
      panel.hidden = false;
      document.body.setAttribute("data-question", String(q.id));
    }

    conn.socket.on("question", (q) => {
      if (!q || typeof q.id !== "number") return;
      if (q.open) render(q);
      else if (S.open && S.open.id === q.id) close();
    });
    conn.socket.on("connect", close); // the server sends the open question again on connect
    conn.socket.on("state", (data) => { // a newer session resolves any question about the old one
      if (S.open && data && data.session !== undefined && data.session !== S.open.session) close();
    });
    return S;
  }

  return { attach };
})();
