// Middle Ages on both pages: a row tile and a seat's fief (its estate columns with the tokens
// under them). Loaded before table.js or seat.js (the contract is in bridge/web/static/common.js).
"use strict";

Herald.register("middle-ages", (() => {
  const { el } = Herald;
  // An estate in the page's language (the game's catalog), e.g. "Młyn" for Mill.
  const estateName = (estate) => {
    const code = `middle-ages:ui/estate-${estate}`;
    const said = Herald.t(code);
    return said === code ? estate : said;
  };

  function tile(tile, marks) {
    if (!tile) return el("div", { class: "tile empty" }, marks);
    const symbols = "●".repeat(tile.farmers || 0) + "◆".repeat(tile.chests || 0);
    return el("div", { class: `tile estate-${tile.estate}`, title: `#${tile.number} ${tile.back}` },
      el("span", { class: "estate" }, tile.estate_name || estateName(tile.estate)),
      symbols ? el("span", { class: "symbols" }, symbols) : null,
      marks);
  }

  // The seat's estate columns: how many tiles of each estate, tokens under the column.
  function fief(player, estates) {
    return el("div", { class: "fief" },
      estates.map((estate, i) => {
        const column = player.board[i] || [];
        const coins = (player.special_coins || []).includes(estate) ? "¤" : "";
        const story = (player.story_tokens || []).filter((s) => s.estate === estate)
          .map((s) => estateName(s.symbol).slice(0, 1)).join("");
        return el("div", { class: `col estate-${estate} ${column.length ? "" : "none"}`, title: estateName(estate) },
          el("span", { class: "name" }, estateName(estate).slice(0, 3)),
          el("span", { class: "count" }, String(column.length)),
          el("span", { class: "tokens" }, coins + story));
      }));
  }

  const estatesOf = (view, seat) => Object.keys(view.estate_income[seat] || {});

  return { tile, fief, estatesOf, estateName };
})());
