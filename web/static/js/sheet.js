// On a phone the prompt is a bottom sheet: fixed under the board, so the board and the
// question are on one screen. It folds to a one-line handle, opens again by itself for a new
// question, and the page scrolls so the places on the board that the question asks about lie
// above it, never under it. On a wide window the sheet is the prompt in its usual place and
// nothing here moves anything (the handle is not shown).
import { h, t } from "./i18n.js";

const PHONE = "(max-width: 800px)";
let folded = false;
let asked = null; // the question the page last scrolled for (the legal places' ids)
let left = null; // where that scroll left the page: its scrollY and the first place's top

export function isPhone() {
  return window.matchMedia(PHONE).matches;
}

// The places on the board that the current question may take (pieces.boardPick).
function places() {
  return Array.prototype.slice.call(document.querySelectorAll("#layout .board-pick"));
}

// Of those, the ones the page brings above the sheet: the places still to take (a bailiff's
// second tile, not the first one already picked), or the picked ones when all are taken.
function toShow(spots) {
  const open = spots.filter((el) => {
    return !el.classList.contains("picked");
  });
  return open.length ? open : spots;
}

// After a draw: the handle in the sheet, the room the sheet takes under the page, and (for a
// new question) the scroll that brings its places above the sheet.
export function place(promptEl) {
  const root = document.documentElement;
  const content = promptEl.firstElementChild;
  if (!content) {
    promptEl.classList.remove("sheet-folded");
    root.style.removeProperty("--sheet");
    root.style.removeProperty("--sheet-leave");
    asked = null;
    left = null;
    return;
  }
  const spots = places();
  const key =
    spots
      .map((el) => {
        return el.id || el.className;
      })
      .join(" ") +
    "|" +
    headingText(promptEl);
  const fresh = key !== asked;
  if (fresh) folded = false; // a new question is shown whole
  promptEl.insertBefore(handle(promptEl), content);
  promptEl.classList.toggle("sheet-folded", folded);
  if (!isPhone()) {
    root.style.removeProperty("--sheet");
    root.style.removeProperty("--sheet-leave");
    asked = key;
    return;
  }
  const shown = toShow(spots);
  leaveRoom(root, shown, promptEl);
  root.style.setProperty("--sheet", promptEl.offsetHeight + "px");
  const panel = promptEl.querySelector(".summary-hold") && document.getElementById("summary");
  if (fresh) {
    asked = key;
    // A summary holding the prompt is read first: bring it up (it stands above the board).
    if (panel && !panel.hidden)
      window.scrollBy(0, panel.getBoundingClientRect().top - bannerBottom() - 8);
    else if (spots.length) bringAbove(shown, promptEl);
    left = where(shown);
  } else if (spots.length && !(panel && !panel.hidden) && !scrolledSince(shown)) {
    // A redraw of the same question after the page above the board changed (the digest, a
    // log line, the banner) or the sheet changed height: bring the places up again, unless
    // the player has scrolled since, whose own scroll is left alone.
    bringAbove(shown, promptEl);
    left = where(shown);
  }
}

// The sheet may grow up to what the window has left under the banner and the question's
// first places (the CSS keeps it between 40 % and 70 % of the height): a question whose
// places are a few windows of one house gets room for all its choices, one whose places
// fill the board keeps more of the board in view. The first places are the topmost one and
// those below it within half the window's height (the called house's windows, not one's own
// goods further down, which a sell of the same prompt takes). Without places: 48 %, or, for
// a question whose choices are read together (a renderer marks it data-sheet-whole:
// Strasbourg's five task cards), up to 70 %, so that none of them lies under Confirm.
function leaveRoom(root, shown, promptEl) {
  if (!shown.length) {
    if (promptEl.querySelector("[data-sheet-whole]"))
      root.style.setProperty("--sheet-leave", "30vh");
    else root.style.removeProperty("--sheet-leave");
    return;
  }
  const rects = areas(shown).map((el) => {
    return el.getBoundingClientRect();
  });
  rects.sort((a, b) => {
    return a.top - b.top;
  });
  const top = rects[0].top;
  let bottom = rects[0].bottom;
  rects.forEach((r) => {
    if (r.bottom - top <= window.innerHeight / 2) bottom = Math.max(bottom, r.bottom);
  });
  const banner = document.getElementById("banner");
  root.style.setProperty(
    "--sheet-leave",
    Math.ceil((banner ? banner.offsetHeight : 0) + bottom - top + 16) + "px",
  );
}

// What the page keeps in view for a place: the board area it is read in, when its renderer
// marks one (data-pick-area: Strasbourg's city with the row and column numbers its spaces
// and corners are named by), else the place itself.
function areas(spots) {
  const out = [];
  spots.forEach((el) => {
    const area = el.closest("[data-pick-area]") || el;
    if (out.indexOf(area) < 0) out.push(area);
  });
  return out;
}

function where(shown) {
  return { y: window.scrollY, top: shown.length ? topOf(shown) : null };
}

// A player's own scroll moves both the page and the places in the window. Either alone is
// the page's doing: the page above the board grew with scrollY unchanged, or it changed
// height and the browser's scroll anchoring moved scrollY to keep the places where they
// were in the window (the banner wrapped to one line fewer: the places did not move, but
// the banner and the sheet around them did).
function scrolledSince(shown) {
  if (!left) return true;
  const moved = Math.abs(window.scrollY - left.y) >= 2;
  const placesMoved = left.top === null || Math.abs(topOf(shown) - left.top) >= 2;
  return moved && placesMoved;
}

function topOf(shown) {
  return Math.min.apply(
    null,
    shown.map((el) => {
      return el.getBoundingClientRect().top;
    }),
  );
}

function headingText(promptEl) {
  const head = promptEl.querySelector("h2");
  return head ? head.textContent : "";
}

// The handle names what the sheet holds: the question (its heading), or, for a note without
// a question ("You plan after Bea"), the note itself; "Hide the choice" only where there is one.
function handle(promptEl) {
  const note = promptEl.querySelector(".prompt-card p");
  const title = headingText(promptEl) || (note ? note.textContent : "") || tip(promptEl);
  return h(
    "button",
    {
      type: "button",
      class: "sheet-handle",
      id: "sheet-handle",
      "data-focus": "sheet-handle",
      "aria-expanded": String(!folded),
      "aria-controls": "prompt-card",
      title: tip(promptEl),
      onclick() {
        toggle(promptEl);
      },
    },
    h("span", { class: "sheet-grip", "aria-hidden": "true" }, folded ? "▲" : "▼"),
    " ",
    h("span", { class: "sheet-title" }, title),
  );
}

function tip(promptEl) {
  if (headingText(promptEl)) return t(folded ? "sheet.show" : "sheet.hide");
  return t(folded ? "sheet.show_note" : "sheet.hide_note");
}

function toggle(promptEl) {
  folded = !folded;
  promptEl.classList.toggle("sheet-folded", folded);
  const button = promptEl.querySelector(".sheet-handle");
  button.setAttribute("aria-expanded", String(!folded));
  button.title = tip(promptEl);
  button.querySelector(".sheet-grip").textContent = folded ? "▲" : "▼";
  if (isPhone())
    document.documentElement.style.setProperty("--sheet", promptEl.offsetHeight + "px");
}

function bannerBottom() {
  const banner = document.getElementById("banner");
  return banner ? Math.max(0, banner.getBoundingClientRect().bottom) : 0;
}

// Scroll (at once: a jump, not an animation) so that the first place lies between the sticky
// banner and the sheet; the page's own room under it (--sheet) lets the last row come up. A
// place taller than that room (a house card on a narrow phone) starts just under the banner.
function bringAbove(spots, promptEl) {
  let top = bannerBottom();
  const bottom = window.innerHeight - promptEl.offsetHeight;
  const shown = areas(spots);
  let first = shown[0].getBoundingClientRect();
  let last = first;
  shown.forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.top < first.top) first = r;
    if (r.bottom > last.bottom) last = r;
  });
  if (first.top >= top && last.bottom <= bottom) return;
  // A scroll down takes the page under the sticky banner, which then stands at the top: the
  // room is measured from there (from the banner's place before the scroll, the places
  // would end up lower by the height of the top bar and the sheet would cover the last).
  const banner = document.getElementById("banner");
  if (banner && first.top > top) top = Math.min(top, banner.offsetHeight);
  // The whole group when it fits, else its first place just under the banner.
  const span = last.bottom - first.top;
  const room = bottom - top;
  const delta = span <= room ? first.top - top - (room - span) / 2 : first.top - top - 8;
  window.scrollBy(0, delta);
  bringNameDown(shown, promptEl, span <= room);
}

// After that scroll, the name of the board part the first place is read under (a renderer
// marks the part data-pick-named: Norenberc's houses) comes out from under the banner, as
// far as the places stay above the sheet (all of them when the whole group fitted, else
// those in that part): a window or a store good reads as the called guild's, and its name
// had gone under the banner.
function bringNameDown(shown, promptEl, fitted) {
  const rects = shown.map((el) => {
    return el.getBoundingClientRect();
  });
  let firstAt = 0;
  rects.forEach((r, i) => {
    if (r.top < rects[firstAt].top) firstAt = i;
  });
  const part = shown[firstAt].closest("[data-pick-named]");
  if (!part) return;
  const hidden = bannerBottom() + 4 - part.getBoundingClientRect().top;
  // Every place counts, a picked one too (it stays in view beside the ones still to take).
  const kept = places()
    .concat(shown)
    .filter((el) => {
      return fitted || part.contains(el);
    });
  const spare =
    window.innerHeight -
    promptEl.offsetHeight -
    Math.max.apply(
      null,
      kept.map((el) => {
        return el.getBoundingClientRect().bottom;
      }),
    );
  const up = Math.min(hidden, spare);
  if (up >= 1) window.scrollBy(0, -up);
}
