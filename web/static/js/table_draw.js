// The page drawn from its state (table_state.js): one draw() for the whole page, render() that
// keeps the keyboard focus across it (and waits for a press to end), the game's renderer
// (web/static/js/games/<game>/), the parts loaded only when a table needs them (the waiting
// room, the final scores, the replay, the clocks' chips, the pause bar, the summaries' panel),
// and the prompt's keys, focus and room.
import * as acts from "./table_acts.js";
import * as follow from "./follow.js";
import * as sheet from "./sheet.js";
import { h, t } from "./i18n.js";
import { $, deferWhilePressed, loadStyle, redraw } from "./page.js";
import {
  announce,
  dropStaleNotice,
  noticeNudges,
  renderBanner,
  updateTurnSignal,
} from "./table_banner.js";
import {
  context,
  redrawWhenDue,
  startAwayPoll,
  stopAwayPoll,
  stopWaitingPoll,
  tableAct,
} from "./table_conn.js";
import {
  logText,
  markChanges,
  renderFairness,
  renderLog,
  showLogEnd,
  sinceMyMove,
} from "./table_log.js";
import { isPaused, mySeat, replaceChildren, seatName, state } from "./table_state.js";

// ---- rendering ----------------------------------------------------------------------

// Re-rendering replaces the DOM (never under a press: page.js); keep keyboard focus on the
// control with the same key, or on the same explained piece (someone reading a citizen's
// power keeps it while others move).
// When that control is gone or disabled (a sent command, a new prompt), focus moves to the
// prompt (its heading, so a screen reader reads the new question), never to the page body.
export function render() {
  if (deferWhilePressed(redraw)) return;
  const active = document.activeElement;
  const hadFocus = active && active !== document.body;
  const focused = hadFocus && active.getAttribute("data-focus");
  const piece = hadFocus && !focused ? focusedPiece(active) : null;
  draw();
  // Without preventScroll a tapped tile scrolled back into view, undoing sheet.js's scroll.
  if (focused) {
    const again = document.querySelector('[data-focus="' + focused + '"]');
    if (again && !again.disabled) return again.focus({ preventScroll: true });
  }
  if (piece && !active.isConnected) {
    const again = document.querySelectorAll(piece[0])[piece[1]];
    if (again) return again.focus({ preventScroll: true });
  }
  const now = document.activeElement;
  const dropped = !now || now === document.body || !now.isConnected || now.disabled;
  if (hadFocus && dropped) focusPrompt();
}

// An explained piece (data-explain) has no key of its own: a tile is known by its id
// wherever it now lies, another piece by its rank among the pieces that explain the same
// thing. Controls are never found this way: another choice must not take the focus.
function focusedPiece(el) {
  const kind = el.getAttribute("data-explain");
  if (!kind || el.matches("button, input, select, textarea, a")) return null;
  const tile = el.getAttribute("data-tile");
  const same = '[data-explain="' + CSS.escape(kind) + '"]';
  if (tile) return [same + '[data-tile="' + CSS.escape(tile) + '"]', 0];
  return [same, Array.prototype.indexOf.call(document.querySelectorAll(same), el)];
}

// A game may say something under the table (where its component data comes from).
function renderFootnote(renderer, game) {
  const note = renderer.footnote && game ? renderer.footnote(game) : null;
  const el = $("footnote");
  el.textContent = note ? note.text : "";
  el.title = note && note.title ? note.title : "";
}

function draw() {
  if (!state.doc) return;
  const table = state.doc.table || {};
  $("table-name").textContent = (table.title || table.game || "") + " · " + state.tableId;
  if (table.learning) part("suggest")?.mountOnPage(table);
  if (table.status === "open") return drawWaitingRoom(table);
  stopWaitingPoll();
  if (mySeat() === 0 && table.status === "playing") startAwayPoll();
  else stopAwayPoll();
  $("waiting-room").hidden = true;
  $("layout").hidden = false;
  drawClocks($("clocks"), state.replay ? {} : table);
  drawPause($("pause"), state.replay ? {} : table);
  const renderer = state.renderers[table.game];
  if (!renderer) return loadRenderer(table.game);
  const showing = state.replay ? state.replay.view : state.doc.game;
  const ctx = context(showing, !!state.replay);
  const known = summariesOf(renderer);
  const sums = known || [];
  // Only a document from the socket counts: the table row polled before it (no game, an
  // empty log) would make every summary already in the log look as if it had just arrived.
  const opened = !state.replay && !!state.doc.game && follows(known);
  const mine = !state.replay && renderer.isMyTurn(showing, mySeat());
  const since = mine ? sinceMyMove() : [];
  if (!state.replay) noticeNudges(table);
  dropStaleNotice(table);
  renderBanner(renderer, ctx);
  if (!state.replay)
    announce(renderer.status(showing, ctx), opened ? panel.openTitle(sums) : null, since);
  replaceChildren($("board"), renderer.board(showing, ctx));
  replaceChildren($("players"), renderer.players(showing, ctx));
  markChanges();
  if (panel) panel.draw($("summary"), sums, ctx);
  const held = mine && !!panel && panel.holdsPrompt();
  replaceChildren($("digest"), held ? null : follow.digestCard(since, logText));
  replaceChildren(
    $("prompt"),
    state.replay
      ? null
      : held
        ? panel.holdCard(panel.openTitle(sums))
        : renderer.prompt(showing, ctx),
  );
  holdWhilePaused();
  const logGrew = renderLog(sums, panel);
  drawScores(showing, renderer, table);
  renderFootnote(renderer, showing);
  renderFairness(table);
  drawReplayControls(table);
  if (table.status === "finished") part("analysis")?.showOnPage(renderer);
  // The log's end is read in the next frame, where the page is laid out anyway: read here,
  // between two writes, it would lay the whole page out once more at every document.
  if (logGrew) requestAnimationFrame(showLogEnd);
  // On a phone the prompt is a bottom sheet (sheet.js) and the board never moves under it.
  // Once the game is over no prompt comes back: its room goes (it stood empty above the board).
  keepPromptHeight(
    !state.replay && mySeat() !== null && !sheet.isPhone() && table.status === "playing",
  );
  sheet.place($("prompt"));
  updateTurnSignal(renderer);
  redrawWhenDue(table);
}

// The prompt area (with the digest above it) only grows while a seat plays (until the window
// is resized): a shorter prompt, or none while others act, leaves its room, so the board
// below does not jump.
let promptRoom = { height: 0, width: 0 };

function keepPromptHeight(playing) {
  const el = $("prompt");
  if (!playing || promptRoom.width !== window.innerWidth) {
    promptRoom = { height: 0, width: window.innerWidth };
    el.style.minHeight = "";
  }
  if (!playing) return;
  // The digest card ("since your last move") sits above the prompt too: their sum is kept.
  el.style.minHeight = "";
  const digest = $("digest");
  const start = (digest.offsetHeight ? digest : el).getBoundingClientRect().top;
  const span = $("board").getBoundingClientRect().top - start;
  if (span > promptRoom.height) promptRoom.height = span;
  el.style.minHeight = el.offsetHeight + promptRoom.height - span + "px";
}

// The game's module, imported once; the page draws again when it has arrived.
const loading = {};

export function loadRenderer(game) {
  if (!loading[game]) {
    loading[game] = /^[a-z][a-z0-9_]*$/.test(game)
      ? import(`./games/${game}/${game}.js`).then(
          (module) => {
            state.renderers[game] = module.default;
            render();
          },
          () => {
            unknownGame(game);
          },
        )
      : Promise.resolve(unknownGame(game));
  }
  return loading[game];
}

function unknownGame(game) {
  $("board").textContent = t("table.unknown_game", { game });
}

// The running clocks' chips (clock_chips.js) come with the first timed table drawn: most
// tables have no clock, and their section stays hidden as the page was served. Once here,
// they draw (or hide) at every draw.
function drawClocks(el, table) {
  const timed = !!table.clock && table.clock.mode !== "untimed";
  const chips = timed || "clock_chips" in parts ? part("clock_chips") : null;
  if (chips) chips.renderClocks(el, table);
}

// The pause bar (pause_bar.js) comes with the first table drawn that has a pause proposed
// or running: most games never pause, and the bar stays hidden as the page was served.
function drawPause(el, table) {
  const clock = acts.live(table) ? table.clock : null;
  const shown = !!clock && !!(clock.paused || clock.proposal);
  const bar = shown || "pause_bar" in parts ? part("pause_bar") : null;
  if (bar) bar.renderPause(el, table, mySeat(), tableAct, seatName);
}

// The round-end (or council) summaries of the log shown: the live one or the replay's. The
// panel that shows them (summary.js, and its summary.css) is loaded with the first one a log
// holds: a page opened in the first round has no use for it yet. null while that is not
// known: the panel, or the renderer's own summaries (a renderer answers null while they
// load), is on its way.
let panel = null;

let panelLoading = false;

let sawNone = false; // the live log held no summary once: the next one arrives (and opens)

function summariesOf(renderer) {
  if (!renderer.summaries) return [];
  const sums = renderer.summaries(
    (state.replay && state.replay.log) || state.doc.log || [],
    state.replay ? state.replay.view : state.doc.game,
  );
  if (!sums || !sums.length || panel) return sums;
  if (!panelLoading) {
    panelLoading = true;
    Promise.all([import("./summary.js"), loadStyle("summary.css")]).then(([m]) => {
      if (sawNone) m.follow([]);
      panel = m;
      render();
    });
  }
  return null;
}

// panel.follow, or what it would say before the panel is here: that nothing opened, and an
// empty list is remembered, so that the first summary still opens by itself when it comes.
function follows(sums) {
  if (!sums) return false;
  if (panel) return panel.follow(sums);
  if (!sums.length) sawNone = true;
  return false;
}

// ---- parts loaded when a table needs them ---------------------------------------

// A part of the page only some tables show: its module, once it is here, else null (it is
// imported then, and the page drawn again when it has arrived). A game under way needs none
// of these, so its page loads less.
const parts = {};
const PART_STYLES = { clock_chips: "clocks.css", pause_bar: "clocks.css" };
function part(name) {
  if (!(name in parts)) {
    parts[name] = null;
    const style = PART_STYLES[name];
    Promise.all([import(`./${name}.js`), style && loadStyle(style)]).then(([m]) => {
      parts[name] = m;
      render();
    });
  }
  return parts[name];
}

// Before the game starts: the seats, the invite, joining and the start (table_waiting.js).
function drawWaitingRoom(table) {
  $("layout").hidden = true;
  $("banner").innerHTML = "";
  $("banner").dataset.key = "";
  const room = part("table_waiting");
  if (room) room.renderWaitingRoom(table);
}

// The final scores and the rematch below them (table_scores.js), once the game shows a result.
function drawScores(showing, renderer, table) {
  const scores = renderer.result(showing) ? part("table_scores") : null;
  if (!scores) {
    $("scores").hidden = true;
    return;
  }
  scores.renderScores(showing, renderer);
  if (!state.replay) scores.renderRematch(table);
}

// The replay's controls (table_replay.js), once the game is over.
function drawReplayControls(table) {
  const replay = table.status === "finished" ? part("table_replay") : null;
  if (replay) replay.renderReplayControls(table);
  else $("replay").hidden = true;
}

// ---- presses, keys and focus ------------------------------------------------------

// The prompt's heading (or, without one, its first choice); else the page's heading.
export function focusPrompt() {
  const card = document.getElementById("prompt-card");
  let target =
    card &&
    (card.querySelector("h2") ||
      card.querySelector("button:not([disabled]), input:not([disabled])") ||
      card.querySelector("p"));
  if (!target)
    target =
      document.querySelector("#replay:not([hidden]) h2") || document.querySelector("#app h1");
  if (!target) return;
  if (!target.matches("button, input, a[href]")) target.setAttribute("tabindex", "-1");
  target.focus();
}

// Arrow keys move between the choices of one prompt (a group of options, or a game's own
// group marked data-choices, such as a hand of cards).
export function arrowKeys(ev) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  const el = ev.target;
  const group =
    step &&
    el.closest &&
    el.matches("button") &&
    el.closest("#prompt .options, #prompt [data-choices]");
  if (!group) return;
  const choices = Array.prototype.filter.call(group.querySelectorAll("button"), (b) => {
    return !b.disabled;
  });
  const i = choices.indexOf(el);
  if (i < 0) return;
  ev.preventDefault();
  choices[(i + step + choices.length) % choices.length].focus();
}

// While the table is paused nobody may move (the server refuses every command with
// "paused"): the prompt stays readable, with the player's picks, but none of its controls
// nor any place on the board can be used, and its first line says why. The board's places
// lose their marks (the picked one keeps its own); one that is no button is marked disabled
// for screen readers, and heldClick stops its tap.
export function holdWhilePaused() {
  const prompt = $("prompt");
  const paused = isPaused();
  $("layout").classList.toggle("held", paused);
  if (!paused) return;
  document.querySelectorAll("#board .board-pick, #players .board-pick").forEach((el) => {
    if (el.tagName === "BUTTON") el.disabled = true;
    else el.setAttribute("aria-disabled", "true");
  });
  // The summary's short card in the prompt's place only closes the summary: no move.
  if (prompt.querySelector(".summary-hold")) return;
  prompt.querySelectorAll("button, input, select, textarea").forEach((el) => {
    el.disabled = true;
  });
  if (prompt.firstChild) {
    prompt.insertBefore(
      h("p", { class: "prompt-paused", id: "prompt-paused" }, t("pause.banner")),
      prompt.firstChild,
    );
  }
}

// A board place that is no button (a house, a seat card) cannot be disabled: its click is
// stopped here while paused, before the renderer's own listener hears it.
export function heldClick(ev) {
  if (
    isPaused() &&
    ev.target.closest &&
    ev.target.closest("#board .board-pick, #players .board-pick")
  ) {
    ev.stopPropagation();
    ev.preventDefault();
  }
}
