// The table's connection and seat: the websocket (conn.js) and what it reports, the seat link
// (read, lost to a bot, taken back), the table row polled while seats change, and the table's
// acts sent over HTTP (a hand-over, a clock act); the context handed to the game's renderer
// (its acts go out here), and the redraw at the moments the table changes by time alone.
import * as chat from "./chat.js";
import * as acts from "./table_acts.js";
import { learnClockRules, learnServerTime, serverNow } from "./clocks.js";
import { TableConnection, api, forgetTable, keptSeat, rememberTable } from "./conn.js";
import { errorText, loadStrings, t } from "./i18n.js";
import { $, redraw, redrawSoon } from "./page.js";
import { away, fillNames, isPaused, mySeat, seatName, showNotice, state } from "./table_state.js";

export function send(cmd) {
  // Paused, every command is refused: the prompt is held (holdWhilePaused), this too.
  if (isPaused()) return;
  state.notice = null;
  state.conn.send(cmd);
  redraw();
}

// A table act on the clock (a pause, a nudge, added time …): docs/clocks.md. The new state
// comes back through the socket like every change.
export function tableAct(path, body) {
  api("POST", "/api/tables/" + state.tableId + path, body, state.token)
    .then(() => {
      state.notice = null;
      redraw();
    })
    .catch(showNotice);
}

// A player may hand their own seat to a bot; the creator another's, once that player has been
// away long enough (the server decides: docs/seats.md).
export function handToBot(seat) {
  api(
    "POST",
    "/api/tables/" + state.tableId + "/seats/" + seat + "/bot",
    { kind: "greedy" },
    state.token,
  )
    .then(() => {
      state.notice = null;
      redraw();
    })
    .catch(showNotice);
}

// Our seat link takes the seat back from the bot standing in for us.
export function reclaim() {
  if (!state.lost) return;
  const mine = state.lost;
  api("POST", "/api/tables/" + state.tableId + "/seats/" + mine.seat + "/reclaim", {}, mine.token)
    .then(() => {
      state.token = mine.token;
      state.lost = null;
      state.covered = null;
      chat.cover(null);
      state.notice = null;
      reconnect();
      redraw();
    })
    .catch(showNotice);
}

// ---- connection -------------------------------------------------------------------
function onStatus(state) {
  const el = $("conn");
  el.dataset.state = state;
  el.textContent = t("conn." + state);
}

function onError(err) {
  if (chat.refused(err)) return; // shown in the chat, beside what was refused
  if (err.code === "bad_token" && (state.token || state.covered)) return dropToken();
  if (err.code === "seat_lost" && state.token) return loseSeat();
  if (err.code === "seat_lost" && state.covered) return; // known: the notice offers the seat back
  state.notice = {
    kind: "error",
    text: t("error.prefix") + " " + errorText(err),
    code: err && err.code,
    rule: err && err.clause,
  };
  redraw();
}

// A seat link stops working when its seat was handed to a bot: forget it, watch instead.
function dropToken() {
  forgetTable(state.tableId, state.token || state.covered);
  state.token = null;
  state.covered = null;
  state.lost = null;
  chat.cover(null);
  history.replaceState(null, "", location.pathname + location.search);
  state.notice = { kind: "info", text: t("table.token_gone") };
  reconnect();
  redraw();
}

// A bot plays our seat now: watch as a spectator, and offer to take the seat back (the seat
// link keeps working for it; the link stays in the address bar for a reload). The chat
// still speaks as the seat's owner, in the players' room.
function loseSeat() {
  const mine = { token: state.token, seat: mySeat() };
  state.token = null;
  state.covered = mine.token;
  api("GET", "/api/tables/" + state.tableId + "/me", undefined, mine.token)
    .then((res) => {
      mine.seat = res.seat;
      state.lost = mine;
      chat.cover(res.seat);
      state.notice = { kind: "info", text: t("seat.lost"), code: "seat_lost" };
      redraw();
    })
    .catch(() => {
      dropToken();
    });
  reconnect();
}

// The seat link tells which seat is ours and gives the invite to show in the waiting room.
export function loadMine() {
  if (!state.token) return;
  api("GET", "/api/tables/" + state.tableId + "/me", undefined, state.token)
    .then((res) => {
      state.invite = res.invite;
      redraw();
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
          got[0].place($("push-body"), state.tableId, res.seat, state.token);
        });
        Promise.all([import("./notify.js"), words]).then((got) => {
          got[0].showNotifications(state.tableId, state.token);
        });
      });
    })
    .catch(() => {
      /* a seat link that no longer works is handled on hello */
    });
}

export function reconnect() {
  if (state.conn) state.conn.close();
  state.conn = new TableConnection(state.tableId, state.token || state.covered, {
    onDoc(d) {
      state.doc = d;
      rememberOnce();
      chat.update(d);
      redrawSoon();
    },
    onStatus,
    onAck: redrawSoon,
    onError,
    onChat: chat.receive,
  });
  chat.connect(state.conn);
  state.conn.connect();
}

// A seat link opened from anywhere joins this browser's recent tables.
let remembered = false;

function rememberOnce() {
  if (remembered || !state.token || !state.doc.you || state.doc.you.seat === null) return;
  remembered = true;
  rememberTable({
    id: state.tableId,
    seat: state.doc.you.seat,
    token: state.token,
    title: state.doc.table.title || state.doc.table.game,
  });
}

export function readToken() {
  const m = /(?:^|[#&])seat=([^&]+)/.exec(location.hash);
  const offered = /(?:^|[#&])invite=([^&]+)/.exec(location.hash);
  if (offered) state.invite = decodeURIComponent(offered[1]);
  if (m) return decodeURIComponent(m[1]);
  const known = keptSeat(state.tableId);
  return known ? known.token : null;
}

// The table row may change (joins, start) before the websocket document does.
export function pollTable() {
  const sentAt = Date.now();
  api("GET", "/api/tables/" + state.tableId)
    .then((table) => {
      table = table.table || table;
      learnServerTime(table.server_time, sentAt, Date.now());
      learnClockRules(table.clock_rules);
      const changed = shownRow(table) !== shownRow(state.summary);
      state.summary = table;
      state.summaryArrived = Date.now();
      if (!state.doc) state.doc = { table, you: { seat: null }, game: null, log: [] };
      else if (state.doc.table.status === "open")
        state.doc.table = Object.assign({}, state.doc.table, table);
      if (
        table.status !== "open" &&
        state.conn &&
        state.conn.doc &&
        state.conn.doc.table.status === "open"
      )
        state.conn.resync();
      // A redraw replaces the page's buttons: one every poll could swallow a tap that falls
      // between its press and its release (and lays a phone's page out for nothing).
      if (changed) redraw();
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

let awayPoll = null;

// The creator's hand-over button waits for the server's word on how long a player is away;
// once the game is over there is nothing to hand over.
export function startAwayPoll() {
  if (!awayPoll) awayPoll = setInterval(pollTable, 3000);
}

export function stopAwayPoll() {
  clearInterval(awayPoll);
  awayPoll = null;
}

let waitingPoll = null;

export function startWaitingPoll() {
  if (!waitingPoll) waitingPoll = setInterval(pollTable, 2000);
}

export function stopWaitingPoll() {
  clearInterval(waitingPoll);
  waitingPoll = null;
}

// ---- context handed to the game renderer ------------------------------------------
export function context(game, readOnly) {
  return {
    seatName,
    fillNames,
    mySeat: readOnly ? null : mySeat(),
    readOnly: !!readOnly,
    busy: state.conn ? state.conn.busy() : false,
    send,
    rerender: redraw,
    handToBot,
    reclaim,
    reclaimable: state.lost ? state.lost.seat : null,
    away,
    handoverAfter: state.summary ? state.summary.handover_after : 60,
    table: state.doc && state.doc.table,
    game,
    seatActs: readOnly
      ? null
      : (seat) => {
          return acts.seatActs(seat, state.doc.table, mySeat(), tableAct, seatName, redraw);
        },
  };
}

// What the table shows changes with time alone (a nudge or vote offered once a seat has been
// silent long enough, the creator's hand-over, an "away until" passing): the page draws
// again at the next such moment, computed from the server time it knows. Nobody reloads,
// and no request is made for it.
let timedRedraw = null;

const LONGEST_WAIT = 3600; // seconds: a timer for weeks ahead would overflow; look again then

// When (the server's seconds) the creator may hand an absent player's seat to a bot, for the
// seats not yet away long enough; [] for anyone but the creator.
function handoverMoments(table) {
  if (mySeat() !== 0 || table.status !== "playing" || !state.summary || !state.summary.seats)
    return [];
  return state.summary.seats
    .map((s) => {
      const gone = away(s.seat);
      return gone === null || gone >= state.summary.handover_after
        ? null
        : serverNow() + state.summary.handover_after - gone;
    })
    .filter((at) => {
      return at !== null;
    });
}

export function redrawWhenDue(table) {
  clearTimeout(timedRedraw);
  timedRedraw = null;
  if (state.replay || table.status !== "playing") return;
  const moments = handoverMoments(table);
  const next = acts.nextChange(table, mySeat());
  if (next !== null) moments.push(next);
  if (!moments.length) return;
  const wait = Math.min(LONGEST_WAIT, Math.min.apply(null, moments) - serverNow());
  // A little after the moment, so that the redraw finds it passed.
  timedRedraw = setTimeout(redraw, Math.max(0, wait) * 1000 + 50);
}
