// The phone-camera page (issue #17): this phone's camera is the table camera. Plain browser
// JavaScript: getUserMedia opens the back camera, a canvas turns the newest video frame into a
// JPEG, and one POST at a time goes to /api/phone/<host token>/frame; each answer says the frame
// rate and width the referee wants next (docs/protocol.md, "Phone camera"). The Screen Wake Lock
// keeps the screen on while streaming; the page takes it again when it becomes visible.
"use strict";

(async () => {
  const { t, fill } = Herald;
  await Herald.loadLabels();
  const match = location.pathname.match(/^\/phone\/([^/]+)/);
  const token = match ? decodeURIComponent(match[1]) : "";
  const api = `/api/phone/${encodeURIComponent(token)}`;
  const $ = (id) => document.getElementById(id);
  document.title = t("ui/phone-title");
  fill("title", t("ui/phone-heading"));
  fill("help", t("ui/phone-help"));
  fill("start", t("ui/phone-start"));
  fill("stop", t("ui/phone-stop"));
  fill("lang-box", Herald.langSwitch());

  const S = { stream: null, running: false, wake: null, sent: 0, fps: 4, width: 1280, quality: 0.85, failures: 0 };
  window.heraldPhone = S; // what the browser test reads

  function problem(text) {
    const box = $("problem");
    box.textContent = text || "";
    box.hidden = !text;
    document.body.setAttribute("data-problem", text ? "true" : "false");
  }

  function status() {
    fill("status", t("ui/phone-streaming", { count: S.sent, fps: S.fps }));
  }

  async function ask() { // the referee's wishes, and whether it takes a phone at all
    const reply = await fetch(api, { cache: "no-store" });
    const data = await reply.json();
    if (!data.ok) throw new Error(data.message);
    S.fps = data.fps; S.width = data.width; S.quality = data.quality;
  }

  async function keepAwake() {
    if (!("wakeLock" in navigator)) { fill("wake", t("ui/phone-wake-none")); return; }
    try {
      S.wake = await navigator.wakeLock.request("screen");
      fill("wake", t("ui/phone-wake-on"));
      S.wake.addEventListener("release", () => { if (S.running) fill("wake", t("ui/phone-wake-off")); });
    } catch (e) {
      fill("wake", t("ui/phone-wake-off")); // refused (battery saver, page hidden): say so, stream on
    }
  }
  document.addEventListener("visibilitychange", () => {
    if (S.running && document.visibilityState === "visible") keepAwake();
  });

  function explain(err) { // getUserMedia's refusals in words a player can act on
    const name = err && err.name;
    if (name === "NotAllowedError" || name === "SecurityError") return t("ui/phone-denied");
    if (name === "NotFoundError" || name === "OverconstrainedError") return t("ui/phone-no-camera");
    if (name === "NotReadableError") return t("ui/phone-busy");
    return t("ui/phone-error", { detail: (err && err.message) || String(err) });
  }

  function grab() { // the newest video frame as a JPEG of the width the referee asked for
    const video = $("preview");
    const w = video.videoWidth, h = video.videoHeight;
    if (!w || !h) return Promise.resolve(null);
    const scale = Math.min(1, S.width / w);
    const canvas = $("canvas");
    canvas.width = Math.round(w * scale); canvas.height = Math.round(h * scale);
    canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
    return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", S.quality));
  }

  async function loop() {
    while (S.running) {
      const started = performance.now();
      const blob = await grab();
      if (blob) {
        try {
          const reply = await fetch(`${api}/frame`, { method: "POST", body: blob, headers: { "Content-Type": "image/jpeg" } });
          const data = await reply.json();
          if (data.ok) {
            S.sent += 1; S.failures = 0; S.fps = data.fps; S.width = data.width; S.quality = data.quality;
            problem(""); status();
          } else {
            problem(data.message);
          }
        } catch (e) { // the referee is away (Wi-Fi, restart): keep trying, slower
          S.failures += 1;
          problem(t("ui/phone-offline"));
        }
      }
      const gap = (1000 / Math.max(0.1, S.fps)) * (S.failures ? Math.min(8, 2 ** S.failures) : 1);
      await new Promise((r) => setTimeout(r, Math.max(0, gap - (performance.now() - started))));
    }
  }

  async function start() {
    problem("");
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      problem(t("ui/phone-insecure"));
      return;
    }
    try {
      await ask();
    } catch (e) {
      problem(e.message || t("ui/phone-offline"));
      return;
    }
    try {
      S.stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: "environment" }, width: { ideal: S.width }, height: { ideal: Math.round(S.width * 9 / 16) } },
      });
    } catch (err) {
      problem(explain(err));
      return;
    }
    $("preview").srcObject = S.stream;
    S.running = true;
    $("start").hidden = true; $("stop").hidden = false;
    document.body.setAttribute("data-streaming", "true");
    await keepAwake();
    status();
    loop();
  }

  function stop() {
    S.running = false;
    if (S.stream) for (const track of S.stream.getTracks()) track.stop();
    S.stream = null;
    if (S.wake) S.wake.release().catch(() => {});
    S.wake = null;
    $("start").hidden = false; $("stop").hidden = true;
    document.body.setAttribute("data-streaming", "false");
    fill("status", t("ui/phone-stopped"));
    fill("wake", "");
  }

  $("start").addEventListener("click", start);
  $("stop").addEventListener("click", stop);
  document.body.setAttribute("data-ready", "true");
})();
