// The score plot on the table display: each seat's score, in the game's own measure (its
// ScoreRow totals: points for a game scored in points, not its money), after every move that changed it. Drawn
// by uPlot (vendor/uPlot.iife.min.js, from npm, no build step): axes with their labels, a
// legend naming each seat, and the lines clipped to the plotting area.
"use strict";

const HeraldPlot = (() => {
  const { t, el } = Herald;
  let chart = null;
  const WHOLE = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000]; // whole ticks
  let shape = ""; // the seats and labels the chart was built for

  function measure(key) {
    const code = `${key}:ui/score-measure`;
    const said = t(code);
    return said === code ? t("ui/total") : said;
  }

  // series: {move: {seat: total}} (a point where a total changed); seats in table order; `now`
  // the current move. A total holds until it changes, so the lines are steps, drawn on to the
  // current move: a game whose measure moves rarely (points won a few times a game) shows its
  // lines across the game, not one dot (issue 25, point 5). Returns the uPlot chart (or null).
  let last = null; // what was drawn last, for redraw()
  const axisFont = (rem) => ({
    font: `${Math.round(0.75 * rem)}px system-ui, sans-serif`,
    labelFont: `${Math.round(0.8 * rem)}px system-ui, sans-serif`,
    labelSize: Math.round(1.2 * rem),
  });

  // The same series again, after the page's type size changed (large type on a TV).
  function redraw() {
    if (last) draw(...last);
  }

  function draw(root, series, seats, key, now) {
    last = [root, series, seats, key, now];
    series = { ...(series || {}) };
    const known = Object.keys(series).map(Number);
    const newest = known.length ? Math.max(...known) : null;
    if (newest !== null && Number.isInteger(now) && now > newest) series[now] = series[newest];
    const moves = Object.keys(series).map(Number).sort((a, b) => a - b);
    if (!moves.length || typeof uPlot === "undefined") {
      if (chart) { chart.destroy(); chart = null; shape = ""; }
      root.replaceChildren();
      return null;
    }
    const data = [moves, ...seats.map((s) => moves.map((m) => {
      const v = series[m][s];
      return v === undefined ? null : v;
    }))];
    const label = measure(key);
    const few = moves.length < 3; // one or two points: drawn as dots, a line needs more
    // the root's font size (larger in large type, for a TV) sizes the axes' words with the page
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const look = `${seats.map((s) => Herald.seatName(s)).join("|")}|${label}|${Herald.LANG}|${few}|${rem}`;
    const width = Math.max(240, Math.min(45 * rem, root.clientWidth || 480));
    if (chart && shape === look && chart.root.isConnected && root.contains(chart.root)) {
      chart.setData(data);
      if (Math.abs(chart.width - width) > 4) chart.setSize({ width, height: chart.height });
      return chart;
    }
    if (chart) chart.destroy();
    root.replaceChildren();
    const holder = el("div", { class: "plot-holder" });
    root.append(holder);
    chart = new uPlot({
      width,
      height: Math.round(width * 0.5),
      scales: { x: { time: false } },
      legend: { show: true, live: false },
      cursor: { show: true, drag: { x: false, y: false } },
      series: [
        { label: t("ui/plot-move") },
        ...seats.map((s) => ({
          label: Herald.seatName(s),
          stroke: Herald.SEAT_COLOURS[s] || "#666",
          width: 2.5,
          spanGaps: true,
          paths: uPlot.paths && uPlot.paths.stepped ? uPlot.paths.stepped({ align: 1 }) : undefined,
          points: { show: few, size: 8 },
        })),
      ],
      axes: [
        { label: t("ui/plot-move"), stroke: "#77716a", grid: { stroke: "#e8e2d6" }, incrs: WHOLE, ...axisFont(rem) },
        { label, stroke: "#77716a", grid: { stroke: "#e8e2d6" }, incrs: WHOLE, ...axisFont(rem), size: 3.2 * rem },
      ],
    }, data, holder);
    shape = look;
    return chart;
  }

  // Every plotted point inside the plotting area (the axes' box), in CSS pixels: for tests.
  function pointsInside() {
    if (!chart) return { points: 0, outside: 0, axes: [] };
    let points = 0, outside = 0;
    const w = chart.bbox.width / devicePixelRatio, h = chart.bbox.height / devicePixelRatio;
    for (let i = 1; i < chart.data.length; i++) {
      chart.data[i].forEach((v, j) => {
        if (v === null) return;
        points++;
        const x = chart.valToPos(chart.data[0][j], "x"), y = chart.valToPos(v, "y");
        if (x < -0.5 || x > w + 0.5 || y < -0.5 || y > h + 0.5) outside++;
      });
    }
    return { points, outside, axes: chart.axes.map((a) => a.label) };
  }

  return { draw, redraw, pointsInside, current: () => chart };
})();
