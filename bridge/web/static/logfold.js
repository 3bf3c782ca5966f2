// Folding the log (issue 25, point 6): a run of moves the referee made itself (a step with one
// possible move, bridge/autopass.py) is one line on the table display, "9 moves made by
// themselves: red: pass ×5, blue: pass ×4", instead of nine. The log's data stay one entry per
// event (undo and history name events); only what the page lists is folded. Pure functions,
// no page: tests/server/test_log_fold.py runs them in node.
"use strict";

const HeraldLogFold = (() => {
  // An entry the referee made itself and nobody took back.
  const isAuto = (e) => e.source === "auto" && e.kind !== "undo" && !e.undone;

  // The entries as the page lists them, oldest first: each run of two or more automatic
  // entries becomes `{ run: [entries], seq: first seq }`; every other entry stays as it is.
  function fold(entries) {
    const out = [];
    let run = [];
    const flush = () => {
      if (run.length > 1) out.push({ run, seq: run[0].seq });
      else out.push(...run);
      run = [];
    };
    for (const e of entries) {
      if (isAuto(e)) { run.push(e); continue; }
      flush();
      out.push(e);
    }
    flush();
    return out;
  }

  // The run's moves in words, the same words in a row said once with their count.
  function moves(texts) {
    const groups = [];
    for (const text of texts) {
      const last = groups[groups.length - 1];
      if (last && last.text === text) last.count++;
      else groups.push({ text, count: 1 });
    }
    return groups.map((g) => (g.count > 1 ? `${g.text} ×${g.count}` : g.text)).join(", ");
  }

  return { fold, moves, isAuto };
})();

if (typeof module !== "undefined") module.exports = HeraldLogFold; // node (the tests)
