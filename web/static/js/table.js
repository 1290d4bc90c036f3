// The table page: connection, waiting room, whose turn, log, final scores and replay. This
// module starts the page and wires its parts (docs/ui.md, "The table page's modules"); the
// game's own board and prompts come from its renderer, web/static/js/games/<game>/<game>.js,
// loaded when the table's game is known; only that game's module is ever loaded.
import * as follow from "./follow.js";
import * as chat from "./chat.js";
import { fetchServerTime } from "./clocks.js";
import { translatePage } from "./i18n.js";
import { $, setRedraw, watchPresses } from "./page.js";
import { loadMine, pollTable, readToken, reconnect } from "./table_conn.js";
import { startSound } from "./table_banner.js";
import { arrowKeys, focusPrompt, heldClick, loadRenderer, render } from "./table_draw.js";
import { state } from "./table_state.js";

function init() {
  translatePage();
  setRedraw(render);
  state.tableId = $("app").dataset.tableId;
  chat.start(state.tableId);
  state.token = readToken();
  if (state.token && !/seat=/.test(location.hash))
    history.replaceState(null, "", "#seat=" + encodeURIComponent(state.token));
  loadMine();
  // The first table poll (below, once the game's module is here) learns the server's time.
  setInterval(() => {
    fetchServerTime(state.tableId);
  }, 60000);
  startSound();
  document.addEventListener("click", heldClick, true);
  document.addEventListener("keydown", arrowKeys);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") follow.skip();
  });
  $("skip-to-move").addEventListener("click", (ev) => {
    ev.preventDefault();
    focusPrompt();
  });
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
  });
  watchPresses();
  // The page names its game: connect once its module is here, so the first snapshot is
  // drawn at once (a table the server did not know is drawn when its module arrives).
  const game = $("app").dataset.game;
  (game ? loadRenderer(game) : Promise.resolve()).then(() => {
    reconnect();
    pollTable();
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
