// What the modules of one page share that is the page's, not a game's: its elements by id,
// and its redraw. The page's own script (table.js) sets the redraw; a module that changes
// what the page shows on a timer of its own (a glow that fades, a summary that closes by
// itself) asks for it.

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
