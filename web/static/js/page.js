// What the modules of one page share that is the page's, not a game's: its elements by id,
// its redraw, the redraws put off while a press is on, and the style sheets of its parts.
// The page's own script (table.js) sets the redraw; a module that changes what the page
// shows on a timer of its own (a glow that fades, a summary that closes by itself) asks for
// it.

export function $(id) {
  return document.getElementById(id);
}

let redrawPage = () => {};

export function setRedraw(fn) {
  redrawPage = fn;
}

export function redraw() {
  redrawPage();
}

// One draw for what one message brings: the mover's patch is a new document and the ack of
// its command at once. A microtask runs before the next message and before the next paint.
let redrawQueued = false;
export function redrawSoon() {
  if (redrawQueued) return;
  redrawQueued = true;
  queueMicrotask(() => {
    redrawQueued = false;
    redrawPage();
  });
}

// A redraw replaces the buttons it draws. One that came between a press and its release (a
// patch or a chat message arriving, a clock's poll) swallowed the tap: the release fell on a
// new button, so no click. While a pointer is down, a part of the page that would redraw
// waits and draws once the pointer is lifted, after the click that release makes (a press
// that never ends is let go of after a while).

const LONGEST_PRESS_MS = 2000;

let pressing = false;
let limit = null;
const waiting = new Set();

// Follows the document's presses; the page's script calls it once, at its start.
export function watchPresses() {
  document.addEventListener("pointerdown", started, true);
  document.addEventListener("pointerup", ended, true);
  document.addEventListener("pointercancel", ended, true);
}

// True while a press is on: ``draw`` is then called once it ends, instead of now.
export function deferWhilePressed(draw) {
  if (pressing) waiting.add(draw);
  return pressing;
}

function started() {
  pressing = true;
  clearTimeout(limit);
  limit = setTimeout(ended, LONGEST_PRESS_MS);
}

function ended() {
  pressing = false;
  clearTimeout(limit);
  const due = Array.from(waiting);
  waiting.clear();
  due.forEach((draw) => {
    setTimeout(draw, 0);
  });
}

// A part loaded later brings its own style sheet (web/static/css/<name>, under this
// module's version), added once; resolved once loaded, or failed, so that a part waiting for
// it is never seen unstyled (it would jump) and never kept from being drawn.
const sheets = {};
export function loadStyle(name) {
  if (!sheets[name])
    sheets[name] = new Promise((done) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("../css/" + name, import.meta.url).pathname;
      link.onload = link.onerror = done;
      document.head.appendChild(link);
    });
  return sheets[name];
}
