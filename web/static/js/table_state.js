// The table page's state: what the server said (the document, the polled table row), who this
// page is at the table (its seat link, a lost seat's link, the invite) and what it shows besides
// (a notice, a replay step). One object, owned here: the page's modules read and change it,
// and draw the page from it (table_draw.js).
import * as pieces from "./pieces.js";
import { errorText, t } from "./i18n.js";
import { redraw } from "./page.js";

export const state = {
  tableId: null,
  token: null, // this page's seat link, or null for a spectator
  invite: null, // the table's invite secret, from an invite link (#invite=…) or GET …/me
  lost: null, // {token, seat}: our seat link while a bot plays the seat for us
  // Our seat link while a bot plays the seat: the connection still says hello with it, and
  // so, watching, chats as the seat's owner (chatting is not playing; it sends no command).
  covered: null,
  summary: null, // the latest GET /api/tables/{id}: how long absent players have been away
  summaryArrived: 0, // when it arrived (Date.now())
  conn: null, // the table's TableConnection (conn.js)
  doc: null, // the table's document: {table, you, game, log}
  notice: null, // {kind: "error"|"info", text, code, rule}
  replay: null, // {step, steps, view, log, command, rounds} while stepping through a finished game
  renderers: {}, // game name -> its renderer, once its module has loaded
};

export function seats() {
  return (state.doc && state.doc.table && state.doc.table.seats) || [];
}

export function seatName(seat) {
  return pieces.seatName(seats()[seat], seat);
}

// Event and prompt texts name seats {s0}, {s1} …; show player names instead.
export function fillNames(text) {
  return String(text).replace(/\{s(\d+)\}/g, (whole, n) => {
    return seatName(Number(n));
  });
}

export function mySeat() {
  const you = state.doc && state.doc.you;
  return you && typeof you.seat === "number" ? you.seat : null;
}

export function isPaused() {
  const clock = !state.replay && state.doc && state.doc.table && state.doc.table.clock;
  return !!(clock && clock.paused);
}

export function away(seat) {
  const s = state.summary && state.summary.seats && state.summary.seats[seat];
  if (!s || s.away_seconds === null || s.away_seconds === undefined) return null;
  return s.away_seconds + Math.max(0, (Date.now() - state.summaryArrived) / 1000);
}

export function showNotice(err) {
  state.notice = {
    kind: "error",
    text: t("error.prefix") + " " + errorText(err),
    code: err && err.code,
  };
  redraw();
}

export function replaceChildren(el, content) {
  el.innerHTML = "";
  if (content)
    (Array.isArray(content) ? content : [content]).forEach((c) => {
      if (c) el.appendChild(c);
    });
}
