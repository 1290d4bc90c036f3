// What just happened: the places on the board that another player's move changed glow for a
// few seconds, and at the player's turn a short digest says what the others did since the
// player's own last move. Both read only what the page already shows (the board as drawn,
// the public log).
import { h, t } from "./i18n.js";
import { redraw } from "./page.js";

export const HIGHLIGHT_MS = 4000;
export const DIGEST_LINES = 6;

let before = null; // data-watch key -> what the place showed at the last draw
let changedAt = {}; // data-watch key -> when another player's move changed it
let expiry = null;

// What a watched place shows: its spoken label when it has one (a city space names its
// occupant), else its text without the buttons in it (a "Hire" button is not a change).
function signature(el) {
  const label = el.getAttribute("aria-label");
  if (label) return label;
  let out = "";
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest("button, .ptag")) out += node.nodeValue;
  }
  return out;
}

// After a draw: note the places that changed, when others moved since the last draw, and
// mark every place changed lately (the glow continues where it was across redraws).
export function mark(root, othersMoved) {
  const now = Date.now();
  const shown = {};
  const places = root.querySelectorAll("[data-watch]");
  places.forEach((el) => {
    shown[el.getAttribute("data-watch")] = signature(el);
  });
  if (before && othersMoved) {
    // Only a place that was drawn before can have changed: the first draw of the board (a
    // table row polled before the socket's document has none) is no change.
    Object.keys(shown).forEach((k) => {
      if (k in before && before[k] !== shown[k]) changedAt[k] = now;
    });
  }
  before = shown;
  let next = null;
  places.forEach((el) => {
    const at = changedAt[el.getAttribute("data-watch")];
    if (!at || now - at >= HIGHLIGHT_MS) return;
    el.classList.add("changed");
    el.style.animationDelay = "-" + (now - at) + "ms";
    next = next === null ? at : Math.min(next, at);
  });
  // Redraw when the oldest glow ends, so no mark outlives it (reduced motion has no fade).
  clearTimeout(expiry);
  if (next !== null) expiry = setTimeout(redraw, next + HIGHLIGHT_MS - now + 20);
}

// Escape ends every glow at once.
export function skip() {
  if (!Object.keys(changedAt).length) return;
  changedAt = {};
  redraw();
}

// Forget what the board showed (a replay, another game view): nothing glows for the jump.
export function reset() {
  before = null;
  changedAt = {};
}

// The others' log entries since the player's own last one (an entry naming the player as
// its seat), the latest DIGEST_LINES of them; entries that name nobody are kept (a guild
// called, a round begun) only between others' moves. ``before``: the player's own last entry
// is looked for before that place (entries from it on were a bot's, playing for the player
// when their time ran out).
export function digest(log, me, before) {
  if (me === null) return [];
  let last = -1;
  const from = before === undefined ? log.length : Math.min(before, log.length);
  for (let i = from - 1; i >= 0; i--) {
    const p = log[i].params;
    if (p && p.seat === me) {
      last = i;
      break;
    }
  }
  if (last < 0) return [];
  return log.slice(last + 1).filter((e) => {
    const p = e.params || {};
    return typeof p.seat === "number" && p.seat !== me;
  });
}

// The lines a digest shows: the latest DIGEST_LINES, and before them every ``pinned`` one
// (what happened to the player's own seat, such as a timeout), however old.
export function digestShown(entries) {
  const pinned = entries.filter((e) => {
    return e.pinned;
  });
  const rest = entries.filter((e) => {
    return !e.pinned;
  });
  return pinned.concat(rest.slice(-Math.max(0, DIGEST_LINES - pinned.length)));
}

export function digestCard(entries, text) {
  if (!entries.length) return null;
  const shown = digestShown(entries);
  return h(
    "div",
    { class: "digest", id: "digest-card" },
    h("h2", { class: "digest-title" }, t("digest.title")),
    h(
      "ul",
      null,
      shown.map((e) => {
        return h("li", null, text(e));
      }),
    ),
    entries.length > shown.length
      ? h("p", { class: "muted" }, t("digest.more", { n: entries.length - shown.length }))
      : null,
  );
}
