// The table chat (docs/protocol.md, "Table chat"): a panel beside the game on a wide window,
// a sheet between the top bar and the prompt on a phone (it never covers the prompt). It
// rides on the table's websocket: the connection says hello with chat: true and hands every
// chat message here; what this module sends goes out on the same socket and is resent with
// the same id after a reconnect until it is acknowledged.
//
// This module keeps the chat (messages, unread count, what is still unacknowledged) and
// announces new messages to screen readers; the panel itself (chat_panel.js) and its style
// sheet load when the chat is first opened, so a phone that never opens it loads neither.
// Every text a person wrote is put in the page as text (textContent), never as markup. Quick
// phrases travel as ids and are shown in the reader's language. Muting a person is this
// browser's own choice (localStorage), hiding a message is the creator's, for everyone.
import { errorText, h, t } from "./i18n.js";
import { deferWhilePressed, loadStyle } from "./page.js";
import { isPhone } from "./sheet.js";

const PHONE = "(max-width: 800px)";

const state = {
  tableId: null,
  conn: null,
  messages: [], // as the server sent them, in seq order
  more: false,
  spectatorsOpen: true,
  room: "players",
  open: null, // the panel shown (null: not decided yet; a wide window opens it)
  unread: 0,
  pending: {}, // id -> the chat message sent and not yet acknowledged
  echoed: {}, // id -> seq: a pending message whose copy came back before its ack
  acked: {}, // seq -> true: our own messages the server acknowledged
  seat: null, // our seat (null: a spectator)
  covered: null, // the seat we own while a bot plays it: we watch, and chat as its owner
  creator: false,
  isPublic: false,
  names: [],
  error: null,
  started: false,
  fetching: false,
};
// ---- muted people (this browser only) -----------------------------------------------

function muteKey() {
  return "gh_chat_muted:" + state.tableId;
}

function muted() {
  try {
    return JSON.parse(localStorage.getItem(muteKey()) || "[]");
  } catch (err) {
    return [];
  }
}

// A seat's person is known by their seat; a spectator by the server's mark of them (``who``),
// which stays theirs under any name they give (by name only for messages without one).
function personOf(m) {
  if (m.seat !== null) return "s:" + m.seat;
  return m.who ? "w:" + m.who : "n:" + m.name;
}

function isMuted(m) {
  return muted().indexOf(personOf(m)) >= 0;
}

// ---- who is who ----------------------------------------------------------------------

function authorName(m) {
  if (m.seat === null)
    return (m.name || t("chat.spectator")) + " (" + t("chat.spectator_short") + ")";
  return m.name || state.names[m.seat] || t("seat.n", { n: m.seat + 1 });
}

// A spectator's own messages: those with the mark (``who``) the server gave a message this
// page sent (an acknowledged seq), kept per table in this browser, and the copy of one not
// yet acknowledged.
function mine(m) {
  if (state.seat !== null) return m.seat === state.seat;
  if (Object.values(state.echoed).includes(m.seq)) return true;
  return m.seat === null && !!m.who && m.who === localStorage.getItem(whoKey());
}

function whoKey() {
  return "gh_chat_who:" + state.tableId;
}

function learnWho(m) {
  if (state.acked[m.seq] && m.seat === null && m.who) localStorage.setItem(whoKey(), m.who);
}

function bodyText(m) {
  if (m.hidden) return t("chat.hidden");
  if (m.phrase) return t("chat.phrase." + m.phrase);
  return m.text;
}

// ---- the connection ------------------------------------------------------------------

// A new connection (a reconnect, or another token): what was not acknowledged goes again
// once the history has come (the server stores a repeated id once).
export function connect(conn) {
  state.conn = conn;
}

export function receive(msg) {
  if (msg.type === "chat_history" && msg.before === undefined) {
    state.messages = msg.messages.slice();
    state.more = msg.more;
    state.spectatorsOpen = msg.spectators;
    Object.keys(state.pending).forEach((id) => {
      sendChat(state.pending[id]);
    });
  } else if (msg.type === "chat_history") {
    const known = {};
    state.messages.forEach((m) => {
      known[m.seq] = true;
    });
    state.messages = msg.messages.filter((m) => !known[m.seq]).concat(state.messages);
    state.more = msg.more;
    state.fetching = false;
  } else if (msg.type === "chat") {
    take(msg);
  } else if (msg.type === "chat_ack") {
    delete state.pending[msg.id];
    delete state.echoed[msg.id];
    state.acked[msg.seq] = true;
    state.messages.forEach(learnWho); // the message may have come before its ack
  } else {
    return;
  }
  drawChat();
}

// An error about one of our chat messages (its id); true when it was one.
export function refused(err) {
  if (!err.id || !state.pending[err.id]) return false;
  delete state.pending[err.id];
  state.error = errorText(err);
  drawChat();
  return true;
}

function take(msg) {
  const bySeq = {};
  state.messages.forEach((m, i) => {
    bySeq[m.seq] = i;
  });
  msg.messages.forEach((m) => {
    if (bySeq[m.seq] !== undefined) return;
    state.messages.push(m);
    learnWho(m);
    const echo = echoOf(m);
    if (echo) state.echoed[echo] = m.seq;
    if (!mine(m) && !isMuted(m)) {
      readOut(m);
      if (!seen(m.room)) state.unread += 1;
    }
  });
  (msg.hidden || []).forEach((seq) => {
    const i = bySeq[seq];
    if (i !== undefined)
      state.messages[i] = {
        seq,
        room: state.messages[i].room,
        seat: state.messages[i].seat,
        name: state.messages[i].name,
        at: state.messages[i].at,
        hidden: true,
      };
  });
  if (msg.spectators !== undefined) state.spectatorsOpen = msg.spectators;
}

// Our own message may come back before its ack (the protocol allows either order): the
// pending one it most likely is (same room and words, written as we write, not yet matched),
// so the list shows it once, as ours. Only the drawing trusts this guess: the message stays
// pending, to be resent after a reconnect, until its ack.
function echoOf(m) {
  if (state.acked[m.seq] || m.hidden || m.seat !== state.seat) return null;
  const id = Object.keys(state.pending).find((key) => {
    const p = state.pending[key];
    return (
      !(key in state.echoed) && p.room === m.room && p.text === m.text && p.phrase === m.phrase
    );
  });
  return id || null;
}

// Whether a new message of ``room`` is in view: the panel open on that room, the page shown.
function seen(room) {
  return state.open && state.room === room && !document.hidden;
}

function readOut(m) {
  const el = document.getElementById("chat-announce");
  if (el) el.textContent = t("chat.said", { name: authorName(m), text: bodyText(m) });
}

function sendChat(msg) {
  state.pending[msg.id] = msg;
  if (state.conn) state.conn.sendRaw(msg);
}

// ---- the document --------------------------------------------------------------------

export function update(doc) {
  const seat = doc.you ? doc.you.seat : null;
  const wasSeated = state.seat !== null;
  state.seat = seat === null ? state.covered : seat;
  // Seated now (joined, or a seat taken back): the players' room, where a spectator of a
  // private table was kept.
  if (state.seat !== null && !wasSeated) state.room = "players";
  state.creator = state.seat === 0;
  state.isPublic = !!doc.table.public;
  state.finished = doc.table.status === "finished";
  state.names = doc.table.seats.map((s) => s.name);
  if (state.seat === null && !state.isPublic) state.room = "spectators";
  const toggle = document.getElementById("chat-toggle");
  if (toggle) toggle.hidden = false;
  placePanel(doc.table.status === "open");
  drawChat();
}

// The panel lives beside the game; before the start (the game's layout hidden) it stands
// below the waiting room's card, where those who joined already talk.
function placePanel(waiting) {
  const el = document.getElementById("chat");
  const room = document.getElementById("waiting-room");
  const log = document.querySelector(".col-side .log-card");
  if (!el || !room || !log) return;
  if (waiting && room.nextElementSibling !== el) room.parentNode.insertBefore(el, room.nextSibling);
  else if (!waiting && log.previousElementSibling !== el) log.parentNode.insertBefore(el, log);
}

// The seat whose owner we are while a bot plays it (null: none, or taken back): the page
// watches the game, and its chat speaks as the seat's owner in the players' room.
export function cover(seat) {
  state.covered = seat;
  if (seat !== null) {
    state.seat = seat;
    state.creator = seat === 0;
    state.room = "players";
  }
  drawChat();
}

// ---- drawing -------------------------------------------------------------------------

export function start(tableId) {
  state.tableId = tableId;
  const toggle = document.getElementById("chat-toggle");
  const panel = document.getElementById("chat");
  if (!toggle || !panel) return;
  state.started = true;
  state.open = !isPhone();
  toggle.addEventListener("click", () => {
    setOpen(!state.open);
  });
  panel.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      ev.stopPropagation();
      setOpen(false);
      toggle.focus();
    }
  });
  // A phone opens the chat when asked (as a sheet it would cover the board), a wide window
  // shows it beside the game: crossing the width opens or closes it.
  const phone = window.matchMedia(PHONE);
  phone.addEventListener("change", () => {
    state.open = !phone.matches;
    placeToggle(toggle);
    drawChat();
  });
  placeToggle(toggle);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && state.open) {
      state.unread = 0;
      drawToggle();
    }
  });
  drawChat();
}

// The button is in the top bar on a wide window; a phone's top bar has no room left, so there
// it stands at the top of the page, above the banner, in the page's flow (fixed over the
// page it would lie on the board's places).
function placeToggle(toggle) {
  const bar = document.getElementById("sound-toggle");
  const banner = document.getElementById("banner");
  if (isPhone() && banner && toggle.nextElementSibling !== banner)
    banner.parentNode.insertBefore(toggle, banner);
  else if (!isPhone() && bar && toggle.nextElementSibling !== bar)
    bar.parentNode.insertBefore(toggle, bar);
}

function setOpen(open) {
  state.open = open;
  state.focus = open; // the panel puts the focus in its text field once drawn
  if (open) state.unread = 0;
  drawChat();
}

// replaceChildren with the parts that are there (it would write a null as "null").
function fillPresent(el) {
  const parts = Array.prototype.slice.call(arguments, 1).filter((part) => {
    return part;
  });
  el.replaceChildren.apply(el, parts);
}

function drawToggle() {
  const toggle = document.getElementById("chat-toggle");
  if (!toggle) return;
  toggle.setAttribute("aria-expanded", state.open ? "true" : "false");
  fillPresent(
    toggle,
    h("span", { class: "chat-toggle-label" }, t("chat.title")),
    state.unread
      ? h(
          "span",
          { class: "chat-badge", id: "chat-unread", "aria-hidden": "true" },
          String(state.unread),
        )
      : null,
    state.unread ? h("span", { class: "sr-only" }, t("chat.unread", { n: state.unread })) : null,
  );
}

// The newest message this browser has shown: the lobby's "your tables" marks a table whose
// chat has a newer one (mine.js).
function markRead() {
  const last = state.messages[state.messages.length - 1];
  const key = "gh_chat_read:" + state.tableId;
  if (last && last.seq > Number(localStorage.getItem(key) || 0))
    localStorage.setItem(key, String(last.seq));
}

// Drawn again whole: never under a press, which the new buttons would swallow (page.js).
function drawChat() {
  if (!state.started || deferWhilePressed(drawChat)) return;
  if (state.open && seen(state.room)) state.unread = 0;
  if (state.open && !document.hidden) markRead();
  drawToggle();
  const el = document.getElementById("chat");
  if (!state.open) {
    el.hidden = true;
    return;
  }
  if (panel) return panel.drawPanel(core);
  loadPanel();
}

// The panel's module and style sheet, once, the first time the chat is opened; it is drawn
// when both are here (unstyled, it would jump).
let panel = null;
let loading = false;
function loadPanel() {
  if (loading) return;
  loading = true;
  Promise.all([import("./chat_panel.js"), loadStyle("chat.css")]).then((loaded) => {
    panel = loaded[0];
    drawChat();
  });
}

// What the panel needs of the chat.
const core = {
  state,
  draw: drawChat,
  setOpen,
  send: sendChat,
  muted,
  muteKey,
  isMuted,
  personOf,
  mine,
  authorName,
  bodyText,
  fill: fillPresent,
};
