// The table page: connection, waiting room, whose turn, log, final scores and replay.
// The game's own board and prompts come from its renderer, the module web/static/js/<game>.js
// (norenberc.js, strasbourg.js), loaded when the table's game is known; only that game's
// module is ever loaded.
import { errorText, h, has, loadStrings, t, translatePage } from "./i18n.js";
import { TableConnection, api, askRematch, forgetTable, keptSeat, rememberTable } from "./conn.js";
import { fetchServerTime, learnClockRules, learnServerTime, serverNow } from "./clocks.js";
import * as acts from "./table_acts.js";
import * as follow from "./follow.js";
import * as pieces from "./pieces.js";
import { mark, ruleLink, seatNames } from "./pieces.js";
import { $, setRedraw } from "./page.js";
import * as sheet from "./sheet.js";
import * as chat from "./chat.js";

let tableId = null;
let token = null;
let invite = null; // the table's invite secret, from an invite link (#invite=…) or GET …/me
let lost = null; // {token, seat}: our seat link while a bot plays the seat for us
// Our seat link while a bot plays the seat: the connection still says hello with it, and
// so, watching, chats as the seat's owner (chatting is not playing; it sends no command).
let covered = null;
let summary = null; // the latest GET /api/tables/{id}: how long absent players have been away
let awayPoll = null;
let conn = null;
let doc = null;
let wasMyTurn = false;
let notice = null; // {kind: "error"|"info", text}
let soundOn = localStorage.getItem("gh_sound") !== "off";
let audio = null;
let replay = null; // {step, steps, view, log, command} while stepping through a finished game
let waitingPoll = null;
const renderers = {}; // game name -> its renderer, once its module has loaded

// ---- names and text -------------------------------------------------------------

function seats() {
  return (doc && doc.table && doc.table.seats) || [];
}

function seatName(seat) {
  return pieces.seatName(seats()[seat], seat);
}

// Event and prompt texts name seats {s0}, {s1} …; show player names instead.
function fillNames(text) {
  return String(text).replace(/\{s(\d+)\}/g, (whole, n) => {
    return seatName(Number(n));
  });
}

// A log line in the page's language: the template "log.<type>" (or the game's own
// prefix), with ".<variant>" when the event names one, filled from the event's params.
// {name} inserts a value as it is; {name:format} passes it through a formatter: the
// shared ones below or the game renderer's logFormats, called (value, params, seatName). An event without params, a
// missing template, a missing value or an unknown formatter falls back to the
// engine's English text, so a line is never lost.
const sharedLogFormats = {
  seat(seat) {
    return seatName(seat);
  },
  seats(list) {
    return seatNames(list, seatName);
  },
  list(list) {
    return list.join(", ");
  },
};

function logText(e) {
  const renderer = doc && doc.table ? renderers[doc.table.game] : null;
  const params = e.params;
  const key =
    ((renderer && renderer.logPrefix) || "log.") +
    e.type +
    (params && params.variant ? "." + params.variant : "");
  if (!params || !has(key)) return fillNames(e.text);
  const formats = (renderer && renderer.logFormats) || {};
  let complete = true;
  const text = t(key).replace(/\{(\w+)(?::(\w+))?\}/g, (whole, name, format) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) {
      complete = false;
      return whole;
    }
    const value = params[name];
    if (!format) return String(value);
    const fn = formats[format] || sharedLogFormats[format];
    if (!fn) {
      complete = false;
      return whole;
    }
    return String(fn(value, params, seatName));
  });
  return complete ? text : fillNames(e.text);
}

function mySeat() {
  const you = doc && doc.you;
  return you && typeof you.seat === "number" ? you.seat : null;
}

// ---- context handed to the game renderer ------------------------------------------

function context(game, readOnly) {
  return {
    seatName,
    fillNames,
    mySeat: readOnly ? null : mySeat(),
    readOnly: !!readOnly,
    busy: conn ? conn.busy() : false,
    send,
    rerender: render,
    handToBot,
    reclaim,
    reclaimable: lost ? lost.seat : null,
    away,
    handoverAfter: summary ? summary.handover_after : 60,
    table: doc && doc.table,
    game,
    seatActs: readOnly
      ? null
      : (seat) => {
          return acts.seatActs(seat, doc.table, mySeat(), tableAct, seatName, render);
        },
  };
}

// A table act on the clock (a pause, a nudge, added time …): docs/clocks.md. The new state
// comes back through the socket like every change.
function tableAct(path, body) {
  api("POST", "/api/tables/" + tableId + path, body, token)
    .then(() => {
      notice = null;
      render();
    })
    .catch(showNotice);
}

// How long the seat's player has been away as the server sees it (every process), or null:
// what the last table summary said, grown by the time passed since it arrived, so the
// creator's hand-over comes when its time does, not at the next poll. (Counted from its
// arrival, not from its server_time: the server made it earlier still, so this is never more
// than the server counts, and the hand-over it offers is never refused as too soon.)
let summaryArrived = 0;
function away(seat) {
  const s = summary && summary.seats && summary.seats[seat];
  if (!s || s.away_seconds === null || s.away_seconds === undefined) return null;
  return s.away_seconds + Math.max(0, (Date.now() - summaryArrived) / 1000);
}

// When (the server's seconds) the creator may hand an absent player's seat to a bot, for the
// seats not yet away long enough; [] for anyone but the creator.
function handoverMoments(table) {
  if (mySeat() !== 0 || table.status !== "playing" || !summary || !summary.seats) return [];
  return summary.seats
    .map((s) => {
      const gone = away(s.seat);
      return gone === null || gone >= summary.handover_after
        ? null
        : serverNow() + summary.handover_after - gone;
    })
    .filter((at) => {
      return at !== null;
    });
}

// What the table shows changes with time alone (a nudge or vote offered once a seat has been
// silent long enough, the creator's hand-over, an "away until" passing): the page draws
// again at the next such moment, computed from the server time it knows. Nobody reloads,
// and no request is made for it.
let timedRedraw = null;
const LONGEST_WAIT = 3600; // seconds: a timer for weeks ahead would overflow; look again then
function redrawWhenDue(table) {
  clearTimeout(timedRedraw);
  timedRedraw = null;
  if (replay || table.status !== "playing") return;
  const moments = handoverMoments(table);
  const next = acts.nextChange(table, mySeat());
  if (next !== null) moments.push(next);
  if (!moments.length) return;
  const wait = Math.min(LONGEST_WAIT, Math.min.apply(null, moments) - serverNow());
  // A little after the moment, so that the redraw finds it passed.
  timedRedraw = setTimeout(render, Math.max(0, wait) * 1000 + 50);
}

// A player may hand their own seat to a bot; the creator another's, once that player has been
// away long enough (the server decides: docs/seats.md).
function handToBot(seat) {
  api("POST", "/api/tables/" + tableId + "/seats/" + seat + "/bot", { kind: "greedy" }, token)
    .then(() => {
      notice = null;
      render();
    })
    .catch(showNotice);
}

// Our seat link takes the seat back from the bot standing in for us.
function reclaim() {
  if (!lost) return;
  const mine = lost;
  api("POST", "/api/tables/" + tableId + "/seats/" + mine.seat + "/reclaim", {}, mine.token)
    .then(() => {
      token = mine.token;
      lost = null;
      covered = null;
      chat.cover(null);
      notice = null;
      reconnect();
      render();
    })
    .catch(showNotice);
}

function send(cmd) {
  // Paused, every command is refused: the prompt is held (holdWhilePaused), this too.
  if (isPaused()) return;
  notice = null;
  conn.send(cmd);
  render();
}

function isPaused() {
  const clock = !replay && doc && doc.table && doc.table.clock;
  return !!(clock && clock.paused);
}

// While the table is paused nobody may move (the server refuses every command with
// "paused"): the prompt stays readable, with the player's picks, but none of its controls
// nor any place on the board can be used, and its first line says why.
function holdWhilePaused() {
  const prompt = $("prompt");
  // The summary's short card in the prompt's place only closes the summary: no move.
  if (!isPaused() || prompt.querySelector(".summary-hold")) return;
  prompt.querySelectorAll("button, input, select, textarea").forEach((el) => {
    el.disabled = true;
  });
  document
    .querySelectorAll("#board button.board-pick, #players button.board-pick")
    .forEach((el) => {
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
function heldClick(ev) {
  if (
    isPaused() &&
    ev.target.closest &&
    ev.target.closest("#board .board-pick, #players .board-pick")
  ) {
    ev.stopPropagation();
    ev.preventDefault();
  }
}

// A notice that the table moved past says nothing true any more: a refusal because the table
// was paused, once it has resumed; "your seat link can take it back", once the game is over.
// (The refusal may come before the document that shows the pause: it stays until then.)
// While the game goes on, the one about a lost seat also says why a bot plays it.
let pausedDrawn = false;
function dropStaleNotice(table) {
  const paused = !!(table.clock && table.clock.paused);
  if (pausedDrawn && !paused && notice && notice.code === "paused") notice = null;
  pausedDrawn = paused;
  if (!notice || notice.code !== "seat_lost") return;
  const why = table.status === "playing" && lost ? lostBecause(table, lost.seat) : null;
  notice.text =
    table.status === "finished" ? t("seat.lost_end") : t("seat.lost") + (why ? " " + why : "");
}

// The seat log's line that gave ``seat`` to a bot (the creator's or its player's hand-over, a
// second timeout in a row, the others' vote), the latest; null if none is shown.
const HANDED_OVER = ["bot_took_over", "timeout_handover", "vote_handover"];
function lostBecause(table, seat) {
  let found = null;
  (table.seat_log || []).forEach((c) => {
    if (c.seat === seat && HANDED_OVER.indexOf(c.type) >= 0) found = c;
  });
  return found ? seatChangeLine(found).text : null;
}

// ---- rendering ----------------------------------------------------------------------

// Re-rendering replaces the DOM; keep keyboard focus on the control with the same key.
// When that control is gone or disabled (a sent command, a new prompt), focus moves to the
// prompt (its heading, so a screen reader reads the new question), never to the page body.
function render() {
  if (pressing) {
    redrawAfterPress = true;
    return;
  }
  const active = document.activeElement;
  const hadFocus = active && active !== document.body;
  const focused = hadFocus && active.getAttribute("data-focus");
  draw();
  if (focused) {
    // Without preventScroll a tapped tile scrolled back into view, undoing sheet.js's scroll.
    const again = document.querySelector('[data-focus="' + focused + '"]');
    if (again && !again.disabled) return again.focus({ preventScroll: true });
  }
  const now = document.activeElement;
  const lost = !now || now === document.body || !now.isConnected || now.disabled;
  if (hadFocus && lost) focusPrompt();
}

// One draw for what one message brings: the mover's patch is a new document and the ack of
// its command at once. A microtask runs before the next message and before the next paint.
let renderQueued = false;
function renderSoon() {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => {
    renderQueued = false;
    render();
  });
}

// A redraw replaces the page's buttons. One that came between a press and its release (a
// patch arriving, a clock's poll) swallowed the tap: the release fell on a new button, so
// no click. While a pointer is down the page waits, and draws once it is lifted, after the
// click that release makes (a press that never ends is let go of after a while).
let pressing = false;
let redrawAfterPress = false;
let pressLimit = null;

function pressStarted() {
  pressing = true;
  clearTimeout(pressLimit);
  pressLimit = setTimeout(pressEnded, 2000);
}

function pressEnded() {
  pressing = false;
  clearTimeout(pressLimit);
  if (!redrawAfterPress) return;
  redrawAfterPress = false;
  setTimeout(render, 0);
}

// The prompt's heading (or, without one, its first choice); else the page's heading.
function focusPrompt() {
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

// Arrow keys move between the choices of one prompt (a group of options, a hand of cards).
function arrowKeys(ev) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  const el = ev.target;
  const group =
    step && el.closest && el.matches("button") && el.closest("#prompt .options, #prompt .sb-hand");
  if (!group) return;
  const choices = Array.prototype.filter.call(group.querySelectorAll("button"), (b) => {
    return !b.disabled;
  });
  const i = choices.indexOf(el);
  if (i < 0) return;
  ev.preventDefault();
  choices[(i + step + choices.length) % choices.length].focus();
}

// What a screen reader hears (polite): the player's own turn, once, and what just happened
// to this player; never other seats' turns or "Sending…" (the banner says those visually).
const announced = { turn: null, log: null };
function announce(status, summaryTitle, since) {
  const parts = summaryTitle ? [summaryTitle] : [];
  const me = mySeat();
  const all = doc.log || [];
  if (announced.log !== null && me !== null) {
    all.slice(announced.log).forEach((e) => {
      const p = e.params || {};
      if (p.seat === me || p.victim === me) parts.push(logText(e));
    });
  }
  announced.log = all.length;
  const mine = !!status.mine;
  // A turn is told once: a new list of legal commands is a new turn, even when the turn
  // comes straight back to this player (nothing is told while a command is in flight).
  const turn = mine ? JSON.stringify((doc.game && doc.game.legal) || []) : null;
  if (mine && turn !== announced.turn && !(conn && conn.busy())) {
    announced.turn = turn;
    parts.push(status.text);
    // What the others did since this player's last move, as the digest card shows it.
    const told = follow.digestShown(since);
    if (told.length) parts.push(t("digest.title") + " " + told.map(logText).join("; "));
  }
  if (!mine) announced.turn = null;
  if (parts.length) $("announce").textContent = parts.join(". ");
}

// "Since your last move": the others' moves since the player's own last one. When their time
// ran out (once or more in a row: the clock's ``timeouts``) a bot's moves for them are not
// theirs: the digest counts from the player's own move before the first of those timeouts,
// and says first that a bot played for them.
function sinceMyMove() {
  const me = mySeat(),
    log = doc.log || [];
  const clock = doc.table && doc.table.clock;
  const timeouts = clock && clock.seats[me] ? clock.seats[me].timeouts : 0;
  const ran = ((doc.table && doc.table.seat_log) || []).filter((c) => {
    return c.type === "timed_out" && c.seat === me;
  });
  const first = timeouts ? ran[ran.length - timeouts] : null;
  if (!first) return follow.digest(log, me);
  return [{ type: "timed_out", text: t("clock.timed_out_you"), pinned: true }].concat(
    follow.digest(log, me, first.at),
  );
}

// A game may say something under the table (where its component data comes from).
function renderFootnote(renderer, game) {
  const note = renderer.footnote && game ? renderer.footnote(game) : null;
  const el = $("footnote");
  el.textContent = note ? note.text : "";
  el.title = note && note.title ? note.title : "";
}

function draw() {
  if (!doc) return;
  const table = doc.table || {};
  $("table-name").textContent = (table.title || table.game || "") + " · " + tableId;
  if (table.status === "open") return renderWaitingRoom(table);
  stopWaitingPoll();
  if (mySeat() === 0 && table.status === "playing") startAwayPoll();
  else stopAwayPoll();
  $("waiting-room").hidden = true;
  $("layout").hidden = false;
  drawClocks($("clocks"), replay ? {} : table);
  drawPause($("pause"), replay ? {} : table);
  const renderer = renderers[table.game];
  if (!renderer) return loadRenderer(table.game);
  const showing = replay ? replay.view : doc.game;
  const ctx = context(showing, !!replay);
  const known = summariesOf(renderer);
  const sums = known || [];
  // Only a document from the socket counts: the table row polled before it (no game, an
  // empty log) would make every summary already in the log look as if it had just arrived.
  const opened = !replay && !!doc.game && follows(known);
  const mine = !replay && renderer.isMyTurn(showing, mySeat());
  const since = mine ? sinceMyMove() : [];
  if (!replay) noticeNudges(table);
  dropStaleNotice(table);
  renderBanner(renderer, ctx);
  if (!replay)
    announce(renderer.status(showing, ctx), opened ? panel.openTitle(sums) : null, since);
  replaceChildren($("board"), renderer.board(showing, ctx));
  replaceChildren($("players"), renderer.players(showing, ctx));
  markChanges();
  if (panel) panel.draw($("summary"), sums, ctx);
  const held = mine && !!panel && panel.holdsPrompt();
  replaceChildren($("digest"), held ? null : follow.digestCard(since, logText));
  replaceChildren(
    $("prompt"),
    replay ? null : held ? panel.holdCard(panel.openTitle(sums)) : renderer.prompt(showing, ctx),
  );
  holdWhilePaused();
  const logGrew = renderLog(sums);
  renderScores(showing, renderer);
  if (!replay) renderRematch(table);
  renderFootnote(renderer, showing);
  renderFairness(table);
  renderReplayControls(table);
  // The log's end is read in the next frame, where the page is laid out anyway: read here,
  // between two writes, it would lay the whole page out once more at every document.
  if (logGrew) requestAnimationFrame(showLogEnd);
  // On a phone the prompt is a bottom sheet (sheet.js) and the board never moves under it.
  // Once the game is over no prompt comes back: its room goes (it stood empty above the board).
  keepPromptHeight(!replay && mySeat() !== null && !sheet.isPhone() && table.status === "playing");
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
function loadRenderer(game) {
  if (!loading[game]) {
    loading[game] = /^[a-z][a-z0-9_]*$/.test(game)
      ? import("./" + game + ".js").then(
          (module) => {
            renderers[game] = module.default;
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

function replaceChildren(el, content) {
  el.innerHTML = "";
  if (content)
    (Array.isArray(content) ? content : [content]).forEach((c) => {
      if (c) el.appendChild(c);
    });
}

function renderBanner(renderer, ctx) {
  const el = $("banner");
  const paused = !replay && ctx.table && ctx.table.clock && ctx.table.clock.paused;
  const info = replay
    ? { text: t("replay.banner", { step: replay.step, of: replayLength() }), mine: false }
    : paused
      ? { text: t("pause.banner"), mine: false }
      : renderer.status(ctx.game, ctx);
  // Redraw only on change (patches arrive often). The banner is not a live region: #announce
  // speaks only what concerns this player; refusals are alerts.
  const key = JSON.stringify([info, notice, ctx.busy]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.className = "banner" + (info.mine ? " mine" : "") + (notice ? " has-notice" : "");
  replaceChildren(el, [
    h("span", { class: "banner-text", id: "banner-text" }, info.text),
    notice
      ? h(
          "span",
          { class: "notice " + notice.kind, role: "alert" },
          notice.text,
          ruleLink(notice.rule),
        )
      : null,
    // Once the game is over there is no seat to take back (the server says "finished").
    lost && ctx.table && ctx.table.status === "playing"
      ? h(
          "button",
          { type: "button", class: "primary small-btn", id: "reclaim-seat", onclick: reclaim },
          t("seat.reclaim"),
        )
      : null,
    ctx.busy ? h("span", { class: "sending" }, t("table.sending")) : null,
  ]);
}

// A nudge for this player (docs/clocks.md) arriving while the page is open: said in the
// banner, with the turn's beep. One already in the log when the page opened is only logged.
let seatLogSeen = null;
function noticeNudges(table) {
  const entries = table.seat_log || [];
  // The document carries the newest entries only; seatLogSeen counts the whole log.
  const skipped = table.seat_log_skipped || 0;
  const me = mySeat();
  if (seatLogSeen !== null && me !== null) {
    entries.slice(Math.max(0, seatLogSeen - skipped)).forEach((e) => {
      if (e.type !== "nudged" || e.seat !== me) return;
      notice = { kind: "info", text: t("nudge.you", { by: e.by_name || "" }) };
      beep();
    });
  }
  seatLogSeen = skipped + entries.length;
}

// Entries that arrived lately glow briefly, so others' moves are noticed; a redraw in
// the meantime continues the glow where it was (negative animation delay).
const FRESH_MS = 2500;
let logSeen = null;
let fresh = { from: Infinity, at: 0 };
// What the log shows, so a redraw only appends the lines that came: a whole game's log is
// hundreds of lines, and building it again (and laying it out) at every move cost more than
// the rest of the page. It is built again when anything but its end changed: a replay, the
// language, where a seat change stands among the lines (or its text), a summary's button.
function nothingShown() {
  return { key: null, count: 0, heading: null, glowing: [], last: null };
}
let logShown = nothingShown();
function showLogEnd() {
  const log = $("log");
  log.scrollTop = log.scrollHeight;
}

// Draws the log; true when it changed, so that the caller shows its end.
function renderLog(sums) {
  const ol = $("log");
  const all = (replay && replay.log) || withSeatChanges(doc.log || []);
  const raw = (replay && replay.log) || doc.log || [];
  const startsAt = new Map();
  sums.forEach((s) => {
    if (raw[s.from]) startsAt.set(raw[s.from], s);
  });
  if (!replay) {
    if (logSeen !== null && all.length > logSeen) fresh = { from: logSeen, at: Date.now() };
    logSeen = all.length;
  }
  const key = [
    replay ? "replay:" + replay.step : "live",
    document.documentElement.lang,
    seatChangePlaces(raw.length),
    sums
      .map((s) => {
        return s.from + ":" + s.key;
      })
      .join(","),
  ].join("|");
  let from = key === logShown.key && all.length >= logShown.count ? logShown.count : 0;
  // An entry that came in among the lines shown (not after them) moves the last one shown.
  if (from > 0 && !sameLine(all[from - 1], logShown.last)) from = 0;
  const elapsed = Date.now() - fresh.at;
  if (from === 0) {
    ol.innerHTML = "";
    logShown = nothingShown();
  }
  // A line glows only while it is fresh, as if the log were drawn anew at every redraw.
  logShown.glowing = logShown.glowing.filter((line) => {
    if (line.at >= fresh.from && elapsed < FRESH_MS) return true;
    line.li.classList.remove("fresh");
    line.li.style.animationDelay = "";
    return false;
  });
  if (from === all.length && from > 0) return false;
  let heading = logShown.heading; // the round whose header was put last
  const lines = document.createDocumentFragment();
  for (let i = from; i < all.length; i++) {
    const e = all[i];
    const glow = !replay && i >= fresh.from && elapsed < FRESH_MS;
    const round =
      e.type === "RoundStarted" && e.params && e.params.round
        ? e.params.round
        : i === 0
          ? 1
          : heading;
    if (round !== heading) {
      heading = round;
      lines.appendChild(
        h("li", { class: "log-head" }, h("h3", null, t("log.round_head", { round }))),
      );
    }
    const starts = startsAt.get(e);
    const li = h(
      "li",
      {
        class: "log-" + e.type + (glow ? " fresh" : ""),
        style: glow ? "animation-delay: -" + elapsed + "ms" : null,
      },
      seatMark(e),
      logText(e),
      starts ? [" ", panel.logButton(starts)] : null,
    );
    if (glow) logShown.glowing.push({ li, at: i });
    lines.appendChild(li);
  }
  ol.appendChild(lines);
  logShown.key = key;
  logShown.count = all.length;
  logShown.heading = heading;
  logShown.last = all[all.length - 1];
  return true; // lines came (or the log was drawn anew): the caller scrolls to its end
}

// A line about one seat starts with that seat's shape in its colour, as on the board.
function seatMark(e) {
  const seat = e.params && e.params.seat;
  return typeof seat === "number" && seat >= 0 && seat < seats().length ? mark(seat) : null;
}

// Places another player's move changed glow (follow.js); a replay jumps, so nothing glows.
let drawnLog = null;
function markChanges() {
  if (replay) {
    follow.reset();
    drawnLog = null;
    return;
  }
  const log = doc.log || [];
  const me = mySeat();
  const others =
    drawnLog !== null &&
    log.slice(drawnLog).some((e) => {
      return !(e.params && e.params.seat === me);
    });
  drawnLog = log.length;
  follow.mark($("layout"), others);
}

// The running clocks' chips (clock_chips.js) come with the first timed table drawn: most
// tables have no clock, and their section stays hidden as the page was served.
let chips = null;
let chipsLoading = false;
function drawClocks(el, table) {
  if (chips) return chips.renderClocks(el, table);
  if (!table.clock || table.clock.mode === "untimed" || chipsLoading) return;
  chipsLoading = true;
  import("./clock_chips.js").then((m) => {
    chips = m;
    render();
  });
}

// The pause bar (pause_bar.js) comes with the first table drawn that has a pause proposed
// or running: most games never pause, and the bar stays hidden as the page was served.
let pauseBar = null;
let pauseBarLoading = false;
function drawPause(el, table) {
  if (pauseBar) return pauseBar.renderPause(el, table, mySeat(), tableAct, seatName);
  const clock = acts.live(table) ? table.clock : null;
  if (!clock || !(clock.paused || clock.proposal) || pauseBarLoading) return;
  pauseBarLoading = true;
  import("./pause_bar.js").then((m) => {
    pauseBar = m;
    render();
  });
}

// The round-end (or council) summaries of the log shown: the live one or the replay's. The
// panel that shows them (summary.js) is loaded with the first one a log holds: a page opened
// in the first round has no use for it yet. null while that is not known: the panel, or the
// renderer's own summaries (a renderer answers null while they load), is on its way.
let panel = null;
let panelLoading = false;
let sawNone = false; // the live log held no summary once: the next one arrives (and opens)
function summariesOf(renderer) {
  if (!renderer.summaries) return [];
  const sums = renderer.summaries(
    (replay && replay.log) || doc.log || [],
    replay ? replay.view : doc.game,
  );
  if (!sums || !sums.length || panel) return sums;
  if (!panelLoading) {
    panelLoading = true;
    import("./summary.js").then((m) => {
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

// The table's seat changes (a bot standing in, a player back) placed among the game's lines.
function withSeatChanges(log) {
  const changes = (doc.table && doc.table.seat_log) || [];
  if (!changes.length) return log;
  const out = [];
  let k = 0;
  for (let i = 0; i <= log.length; i++) {
    for (; k < changes.length && changes[k].at <= i; k++) out.push(seatChangeLine(changes[k]));
    if (i < log.length) out.push(log[i]);
  }
  return out;
}

// The same log line: the same entry of the document, or a seat change saying the same (those
// are made anew at each redraw).
function sameLine(a, b) {
  return (
    a === b ||
    (!!a && !!b && a.type === "seat_change" && b.type === "seat_change" && a.text === b.text)
  );
}

// Where each seat change stands among the log's first ``length`` entries, and what it says:
// part of the log's key, so a change placed or reworded redraws the log.
function seatChangePlaces(length) {
  if (replay) return "";
  const changes = (doc.table && doc.table.seat_log) || [];
  return changes
    .map((c) => {
      return c.at <= length ? [c.at, c.type, c.until || ""].join(":") : "-";
    })
    .join(",");
}

function seatChangeLine(change) {
  const name = change.name || (change.seat === null ? "" : t("seat.n", { n: change.seat + 1 }));
  const kind = change.bot ? t("bot." + change.bot) : "";
  const params = {
    name,
    kind,
    by: change.by_name || "",
    when: change.until ? acts.when(change.until) : "",
  };
  const key = "seatlog." + change.type + (change.until ? ".until" : "");
  return { type: "seat_change", text: t(has(key) ? key : "seatlog." + change.type, params) };
}

function renderFairness(table) {
  const el = $("fairness");
  const hash = table.seed_sha256;
  el.hidden = !hash;
  if (!hash) return;
  const key = JSON.stringify([hash, table.status]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const file = "guildhall-" + tableId + ".json";
  replaceChildren(el, [
    h("h2", { id: "fairness-title" }, t("fair.title")),
    h("p", null, t("fair.seed"), " ", h("code", { class: "hash", id: "seed-hash" }, hash)),
    h("p", { class: "muted" }, t(table.status === "finished" ? "fair.revealed" : "fair.hidden")),
    table.status === "finished"
      ? h(
          "p",
          null,
          h(
            "a",
            { id: "record-download", href: "/api/tables/" + tableId + "/record", download: file },
            t("fair.download"),
          ),
        )
      : null,
    table.status === "finished"
      ? h(
          "p",
          null,
          t("fair.verify"),
          " ",
          h("code", { id: "verify-command" }, "guildhall verify " + file),
        )
      : null,
  ]);
}

function renderScores(game, renderer) {
  const el = $("scores");
  const result = renderer.result(game);
  el.hidden = !result;
  if (!result) return;
  const n = result.scores.length;
  const categories = [];
  result.breakdown.forEach((b) => {
    Object.keys(b).forEach((c) => {
      if (categories.indexOf(c) < 0) categories.push(c);
    });
  });
  const head = h(
    "tr",
    null,
    h("th", { scope: "col" }, t("scores.category")),
    range(n).map((s) => {
      return h("th", { scope: "col" }, renderer.playerBadge(s, game, context(game)));
    }),
  );
  const rows = categories.map((c) => {
    return h(
      "tr",
      null,
      h("th", { scope: "row" }, has("score." + c) ? t("score." + c) : c),
      range(n).map((s) => {
        return h("td", null, result.breakdown[s][c] || 0);
      }),
    );
  });
  const total = h(
    "tr",
    { class: "total" },
    h("th", { scope: "row" }, t("scores.total")),
    range(n).map((s) => {
      const win = result.winners.indexOf(s) >= 0;
      return h("td", { class: win ? "winner" : null }, result.scores[s], win ? " ♛" : "");
    }),
  );
  const winners = seatNames(result.winners, seatName);
  replaceChildren(el, [
    h("h2", { id: "scores-title" }, t("scores.title")),
    h(
      "p",
      { class: "winner-line", id: "winner-line" },
      t(result.winners.length > 1 ? "scores.winners" : "scores.winner", { names: winners }),
    ),
    h(
      "div",
      { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "scores-title" },
      h("table", { id: "score-table" }, h("thead", null, head), h("tbody", null, rows, total)),
    ),
  ]);
}

// At the end, a seated person asks for a rematch, or joins the one another asked for
// (docs/seats.md, "Rematch"): below the final scores.
function renderRematch(table) {
  const mine = token || (lost && lost.token);
  if (table.status !== "finished" || !mine || $("scores").hidden) return;
  const joining = !!table.rematch;
  const joined = joining ? keptSeat(table.rematch) : null;
  if (joined) {
    // Already seated there (this browser keeps its link): open it, nothing left to join.
    $("scores").appendChild(
      h(
        "div",
        { class: "rematch", id: "rematch" },
        h(
          "a",
          {
            class: "button primary",
            id: "rematch-open",
            href: "/t/" + joined.id + "#seat=" + joined.token,
          },
          t("rematch.open"),
        ),
      ),
    );
    return;
  }
  $("scores").appendChild(
    h(
      "div",
      { class: "rematch", id: "rematch" },
      joining ? h("p", { class: "rematch-waiting" }, t("rematch.waiting")) : null,
      h(
        "button",
        {
          type: "button",
          id: "rematch-button",
          class: joining ? "primary" : null,
          "data-focus": "rematch",
          onclick(ev) {
            ev.target.disabled = true;
            askRematch(tableId, mine, table.title || table.game).catch((err) => {
              ev.target.disabled = false;
              showNotice(err);
            });
          },
        },
        t(joining ? "rematch.join" : "rematch.button"),
      ),
      h("p", { class: "muted" }, t("rematch.hint")),
    ),
  );
}

function range(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(i);
  return out;
}

// ---- turn signal: tab title, flash, sound -----------------------------------------

function updateTurnSignal(renderer) {
  const mine = !replay && renderer.isMyTurn(doc.game, mySeat());
  document.title =
    (mine ? "● " + t("table.your_turn_short") + " — " : "") + (doc.table.title || "Guildhall");
  if (mine && !wasMyTurn) {
    const banner = $("banner");
    banner.classList.remove("flash");
    void banner.offsetWidth; // restart the CSS animation
    banner.classList.add("flash");
    beep();
  }
  wasMyTurn = mine;
}

function beep() {
  if (!soundOn || !audio) return;
  try {
    const osc = audio.createOscillator(),
      gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch (err) {
    audio = null;
  }
}

// Browsers allow audio only after a user gesture; create the context on the first one.
function unlockAudio() {
  if (audio || !window.AudioContext) return;
  try {
    audio = new AudioContext();
  } catch (err) {
    audio = null;
  }
}

function renderSoundToggle() {
  const b = $("sound-toggle");
  b.textContent = soundOn ? "♪" : "♪̸";
  b.setAttribute("aria-pressed", String(soundOn));
  b.title = t(soundOn ? "table.sound_on" : "table.sound_off");
  b.setAttribute("aria-label", b.title);
}

// ---- waiting room (before the game starts) ----------------------------------------

function renderWaitingRoom(table) {
  $("layout").hidden = true;
  $("banner").innerHTML = "";
  $("banner").dataset.key = "";
  const room = $("waiting-room");
  room.hidden = false;
  const me = mySeat();
  // Polling redraws the room; skip unchanged redraws so a name being typed survives.
  const key = JSON.stringify([table.seats, me, notice, invite, lost, table.public]);
  if (room.dataset.key === key) return startWaitingPoll();
  room.dataset.key = key;
  const free = table.seats.filter((s) => {
    return !s.name && !s.bot;
  });
  const open =
    free.length ||
    (invite &&
      table.seats.some((s) => {
        return s.bot && !s.stand_in;
      }));
  const canJoin = me === null && !lost && open && (invite || table.public);
  // The invite secret stays in the fragment: browsers never send it to a server.
  const link = location.origin + "/t/" + tableId + (invite ? "#invite=" + invite : "");
  replaceChildren(room, [
    h("h1", null, t("wait.title")),
    invite ? h("p", null, t("wait.invite")) : null,
    invite
      ? h(
          "div",
          { class: "copy-row" },
          h("input", {
            readonly: true,
            value: link,
            id: "wait-link",
            "aria-label": t("lobby.copy"),
          }),
          h(
            "button",
            {
              type: "button",
              onclick() {
                copyText(link);
              },
            },
            t("lobby.copy"),
          ),
        )
      : null,
    h("p", { class: "muted", id: "wait-access" }, t(table.public ? "wait.public" : "wait.private")),
    h(
      "ol",
      { class: "seat-roll" },
      table.seats.map((s) => {
        return h(
          "li",
          null,
          h("span", { class: "seat-no" }, t("lobby.seat_n", { n: s.seat + 1 })),
          " ",
          s.stand_in
            ? t("seat.stand_in", { kind: t("bot." + s.bot), name: s.name })
            : s.name || (s.bot ? t("bot." + s.bot) : t("lobby.free_seat")),
          s.seat === me ? " (" + t("lobby.you") + ")" : "",
        );
      }),
    ),
    canJoin ? joinForm() : null,
    lost
      ? h(
          "button",
          { type: "button", class: "primary", id: "reclaim-seat", onclick: reclaim },
          t("seat.reclaim"),
        )
      : null,
    me === 0
      ? h(
          "button",
          { type: "button", class: "primary", id: "start-game", onclick: startGame },
          t("lobby.start"),
        )
      : h("p", { class: "muted" }, t("wait.for_start", { name: seatName(0) })),
    notice ? h("p", { class: "error", role: "alert" }, notice.text) : null,
  ]);
  startWaitingPoll();
}

function joinForm() {
  const typed = $("join-name") ? $("join-name").value : localStorage.getItem("gh_name") || "";
  const input = h("input", {
    id: "join-name",
    "data-focus": "join-name",
    required: true,
    maxlength: 24,
    value: typed,
  });
  return h(
    "form",
    {
      class: "join",
      onsubmit(ev) {
        ev.preventDefault();
        localStorage.setItem("gh_name", input.value.trim());
        const body = { name: input.value.trim() };
        if (invite) body.invite = invite;
        api("POST", "/api/tables/" + tableId + "/join", body)
          .then((res) => {
            token = res.token;
            location.hash = "seat=" + token;
            rememberTable({
              id: tableId,
              seat: res.seat,
              token,
              title: doc.table.title || doc.table.game,
            });
            reconnect();
          })
          .catch(showNotice);
      },
    },
    h("label", null, t("lobby.your_name"), " ", input),
    h("button", { type: "submit", class: "primary" }, t("wait.join")),
  );
}

function startGame() {
  api("POST", "/api/tables/" + tableId + "/start", {}, token)
    .then(pollTable)
    .catch(showNotice);
}

function copyText(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

function showNotice(err) {
  notice = { kind: "error", text: t("error.prefix") + " " + errorText(err), code: err && err.code };
  render();
}

// The table row may change (joins, start) before the websocket document does.
function pollTable() {
  const sentAt = Date.now();
  api("GET", "/api/tables/" + tableId)
    .then((table) => {
      table = table.table || table;
      learnServerTime(table.server_time, sentAt, Date.now());
      learnClockRules(table.clock_rules);
      const changed = shownRow(table) !== shownRow(summary);
      summary = table;
      summaryArrived = Date.now();
      if (!doc) doc = { table, you: { seat: null }, game: null, log: [] };
      else if (doc.table.status === "open") doc.table = Object.assign({}, doc.table, table);
      if (table.status !== "open" && conn && conn.doc && conn.doc.table.status === "open")
        conn.resync();
      // A redraw replaces the page's buttons: one every poll could swallow a tap that falls
      // between its press and its release (and lays a phone's page out for nothing).
      if (changed) render();
    })
    .catch(() => {});
}

// What the page shows of a polled table row: all of it but the server's clock reading, and
// of each seat's time away only whether it is long enough for a hand-over (the seconds grow
// at every poll; the page compares them with handover_after and shows nothing more).
function shownRow(table) {
  if (!table) return null;
  const seats = (table.seats || []).map((s) => {
    const away = s.away_seconds;
    const long = away === null || away === undefined ? null : away >= table.handover_after;
    return Object.assign({}, s, { away_seconds: long });
  });
  return JSON.stringify(Object.assign({}, table, { server_time: null, seats }));
}

// The creator's hand-over button waits for the server's word on how long a player is away;
// once the game is over there is nothing to hand over.
function startAwayPoll() {
  if (!awayPoll) awayPoll = setInterval(pollTable, 3000);
}

function stopAwayPoll() {
  clearInterval(awayPoll);
  awayPoll = null;
}

function startWaitingPoll() {
  if (!waitingPoll) waitingPoll = setInterval(pollTable, 2000);
}

function stopWaitingPoll() {
  clearInterval(waitingPoll);
  waitingPoll = null;
}

// ---- replay of a finished game ----------------------------------------------------

function replayLength() {
  return replay ? replay.steps : 0;
}

function renderReplayControls(table) {
  const el = $("replay");
  const finished = table.status === "finished";
  el.hidden = !finished;
  if (!finished) return;
  if (!replay) {
    replaceChildren(el, [
      h("h2", null, t("replay.title")),
      h(
        "button",
        { type: "button", id: "replay-start", "data-focus": "replay-next", onclick: startReplay },
        t("replay.start"),
      ),
    ]);
    return;
  }
  const n = replayLength();
  const go = (k) => {
    return () => {
      showStep(Math.max(0, Math.min(n, k)));
    };
  };
  replaceChildren(el, [
    h("h2", null, t("replay.title")),
    h(
      "div",
      { class: "button-row replay-buttons" },
      h(
        "button",
        {
          type: "button",
          "data-focus": "replay-first",
          onclick: go(0),
          "aria-label": t("replay.first"),
        },
        "«",
      ),
      h(
        "button",
        {
          type: "button",
          id: "replay-prev",
          "data-focus": "replay-prev",
          onclick: go(replay.step - 1),
          "aria-label": t("replay.prev"),
        },
        "◀",
      ),
      h(
        "span",
        { class: "replay-step", id: "replay-step" },
        t("replay.step", { step: replay.step, of: n }),
      ),
      h(
        "button",
        {
          type: "button",
          id: "replay-next",
          "data-focus": "replay-next",
          onclick: go(replay.step + 1),
          "aria-label": t("replay.next"),
        },
        "▶",
      ),
      h(
        "button",
        {
          type: "button",
          "data-focus": "replay-last",
          onclick: go(n),
          "aria-label": t("replay.last"),
        },
        "»",
      ),
      h(
        "button",
        { type: "button", id: "replay-stop", "data-focus": "replay-stop", onclick: stopReplay },
        t("replay.stop"),
      ),
    ),
    replay.rounds.length ? jumpControls(n) : null,
    replay.command ? h("p", { class: "muted", id: "replay-command" }, replay.command) : null,
  ]);
}

function startReplay() {
  showStep(0);
}

// One step of the finished game as a spectator saw it (GET …/replay/{k}, see pages.py).
function showStep(k) {
  api("GET", "/api/tables/" + tableId + "/replay/" + k)
    .then((res) => {
      replay = {
        step: res.step,
        steps: res.steps,
        view: revealed(res),
        log: res.log,
        command: null,
        rounds: res.rounds || [],
      };
      if (res.command) {
        replay.command = seatName(res.command.seat) + ": " + describeCommand(res.command.cmd);
      }
      render();
    })
    .catch(showNotice);
}

// The game is over: the replay shows every seat's own holdings (money, plans, stacks,
// tasks), merged into the spectator's view by the game's renderer.
function revealed(res) {
  const renderer = renderers[doc.table.game];
  return renderer.reveal && res.seat_views ? renderer.reveal(res.view, res.seat_views) : res.view;
}

// The round being shown: the last round that began at or before the step.
function roundAt(step) {
  let found = null;
  replay.rounds.forEach((r) => {
    if (r.step <= step) found = r;
  });
  return found;
}

function jumpControls(n) {
  const current = roundAt(replay.step);
  const select = h(
    "select",
    {
      id: "replay-round",
      "data-focus": "replay-round",
      onchange() {
        showStep(Number(select.value));
      },
    },
    replay.rounds.map((r) => {
      return h(
        "option",
        { value: String(r.step), selected: current && current.step === r.step },
        t("replay.round", { round: r.round }),
      );
    }),
  );
  const input = h("input", {
    type: "number",
    id: "replay-goto",
    min: "0",
    max: String(n),
    value: String(replay.step),
    "data-focus": "replay-goto",
    inputmode: "numeric",
  });
  return h(
    "form",
    {
      class: "button-row replay-jump",
      onsubmit(ev) {
        ev.preventDefault();
        const k = Math.max(0, Math.min(n, Math.round(Number(input.value) || 0)));
        showStep(k);
      },
    },
    h("label", null, t("replay.jump_round"), " ", select),
    h("label", null, t("replay.jump_step"), " ", input),
    h("button", { type: "submit", id: "replay-go" }, t("replay.go")),
  );
}

function describeCommand(cmd) {
  const renderer = renderers[doc.table.game];
  return renderer.describe
    ? renderer.describe(cmd, context(replay.view, true))
    : JSON.stringify(cmd);
}

// In a replay, ← and → step back and forth (unless a text field has the focus).
function replayKeys(ev) {
  if (!replay || /INPUT|TEXTAREA|SELECT/.test(document.activeElement.tagName)) return;
  if (document.activeElement.closest && document.activeElement.closest("#prompt")) return;
  const delta = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
  if (!delta) return;
  const k = replay.step + delta;
  if (k >= 0 && k <= replayLength()) showStep(k);
}

function stopReplay() {
  replay = null;
  render();
}

// ---- connection -------------------------------------------------------------------

function onStatus(state) {
  const el = $("conn");
  el.dataset.state = state;
  el.textContent = t("conn." + state);
}

function onError(err) {
  if (chat.refused(err)) return; // shown in the chat, beside what was refused
  if (err.code === "bad_token" && (token || covered)) return dropToken();
  if (err.code === "seat_lost" && token) return loseSeat();
  if (err.code === "seat_lost" && covered) return; // known: the notice offers the seat back
  notice = {
    kind: "error",
    text: t("error.prefix") + " " + errorText(err),
    code: err && err.code,
    rule: err && err.clause,
  };
  render();
}

// A seat link stops working when its seat was handed to a bot: forget it, watch instead.
function dropToken() {
  forgetTable(tableId, token || covered);
  token = null;
  covered = null;
  lost = null;
  chat.cover(null);
  history.replaceState(null, "", location.pathname + location.search);
  notice = { kind: "info", text: t("table.token_gone") };
  reconnect();
  render();
}

// A bot plays our seat now: watch as a spectator, and offer to take the seat back (the seat
// link keeps working for it; the link stays in the address bar for a reload). The chat
// still speaks as the seat's owner, in the players' room.
function loseSeat() {
  const mine = { token, seat: mySeat() };
  token = null;
  covered = mine.token;
  api("GET", "/api/tables/" + tableId + "/me", undefined, mine.token)
    .then((res) => {
      mine.seat = res.seat;
      lost = mine;
      chat.cover(res.seat);
      notice = { kind: "info", text: t("seat.lost"), code: "seat_lost" };
      render();
    })
    .catch(() => {
      dropToken();
    });
  reconnect();
}

// The seat link tells which seat is ours and gives the invite to show in the waiting room.
function loadMine() {
  if (!token) return;
  api("GET", "/api/tables/" + tableId + "/me", undefined, token)
    .then((res) => {
      invite = res.invite;
      render();
      // The notifications card is a seat's own, folded: its modules (this device's push
      // notices, the seat's e-mail and webhook) and settings are loaded only when a player
      // opens it, which few pages ever do.
      const card = $("notify");
      if (!card.hidden) return;
      card.hidden = false;
      card.addEventListener("toggle", () => {
        if (!card.open) return;
        const words = loadStrings("notices");
        Promise.all([import("./push.js"), words]).then((got) => {
          got[0].place($("push-body"), tableId, res.seat, token);
        });
        Promise.all([import("./notify.js"), words]).then((got) => {
          got[0].showNotifications(tableId, token);
        });
      });
    })
    .catch(() => {
      /* a seat link that no longer works is handled on hello */
    });
}

function reconnect() {
  if (conn) conn.close();
  conn = new TableConnection(tableId, token || covered, {
    onDoc(d) {
      doc = d;
      rememberOnce();
      chat.update(d);
      renderSoon();
    },
    onStatus,
    onAck: renderSoon,
    onError,
    onChat: chat.receive,
  });
  chat.connect(conn);
  conn.connect();
}

// A seat link opened from anywhere joins this browser's recent tables.
let remembered = false;
function rememberOnce() {
  if (remembered || !token || !doc.you || doc.you.seat === null) return;
  remembered = true;
  rememberTable({
    id: tableId,
    seat: doc.you.seat,
    token,
    title: doc.table.title || doc.table.game,
  });
}

function readToken() {
  const m = /(?:^|[#&])seat=([^&]+)/.exec(location.hash);
  const offered = /(?:^|[#&])invite=([^&]+)/.exec(location.hash);
  if (offered) invite = decodeURIComponent(offered[1]);
  if (m) return decodeURIComponent(m[1]);
  const known = keptSeat(tableId);
  return known ? known.token : null;
}

function init() {
  translatePage();
  setRedraw(render);
  tableId = $("app").dataset.tableId;
  chat.start(tableId);
  token = readToken();
  if (token && !/seat=/.test(location.hash))
    history.replaceState(null, "", "#seat=" + encodeURIComponent(token));
  loadMine();
  // The first table poll (below, once the game's module is here) learns the server's time.
  setInterval(() => {
    fetchServerTime(tableId);
  }, 60000);
  renderSoundToggle();
  $("sound-toggle").addEventListener("click", () => {
    soundOn = !soundOn;
    localStorage.setItem("gh_sound", soundOn ? "on" : "off");
    renderSoundToggle();
  });
  document.addEventListener("click", heldClick, true);
  document.addEventListener("keydown", replayKeys);
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
  document.addEventListener("pointerdown", unlockAudio, { once: true });
  document.addEventListener("pointerdown", pressStarted, true);
  document.addEventListener("pointerup", pressEnded, true);
  document.addEventListener("pointercancel", pressEnded, true);
  document.addEventListener("keydown", unlockAudio, { once: true });
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
