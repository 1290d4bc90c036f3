// Every piece explains itself (docs/ui.md): an element of the board marked data-explain="<kind>"
// shows what it is and what it does, in the page's language, with a link to its clause:
// - the mouse resting on it (HOVER_MS), as a BoardGameArena player expects a tooltip: one
//   that lets the pointer through and goes when the pointer leaves, never in the way of the
//   next click (a click on a piece that is not a choice opens one that stays, link and all);
// - keyboard focus (only :focus-visible, so a click does not open one); Enter on a piece
//   that is not itself a choice opens its clause in the rules panel;
// - a long press (PRESS_MS) on a phone, whose click is then swallowed so that it never
//   picks; a plain tap on a piece that is not a choice (not in a button or link).
// A plain tap or click on a choice stays a pick: the board's prompts are unchanged.
// pieces.js loads this module at the first such moment; the words come from
// GET /api/rules/<game>/pieces (web/rules/<game>/pieces/), not the page's dictionary, so a
// table page that never asks carries neither.
import { h, LANG } from "./i18n.js";
import { api } from "./conn.js";
import { openRule, styleSheet } from "./rules_panel.js";

const TIP = "explain-tip";
const HOVER_MS = 450;
const PRESS_MS = 500;
const CLICK_MS = 1000; // a click this soon after a long press's release is that press's
const CHOICE = "button, a, input, select, label, [role=button]";

let words = null; // {kind: {name, text, clause}}, asked for once
let shownOn = null; // the element the tip explains now
let hoverTimer = 0;
let press = null; // {id, x, y, el, timer, fired, up}: a touch that may become a long press

function pieceWords() {
  if (!words) {
    const game = document.getElementById("app").dataset.game;
    words = api("GET", "/api/rules/" + game + "/pieces?lang=" + LANG)
      .then((data) => data.pieces)
      .catch((err) => {
        words = null; // asked again at the next piece
        throw err;
      });
  }
  return words;
}

function tipElement() {
  let tip = document.getElementById(TIP);
  if (!tip) {
    tip = h("div", { id: TIP, class: "explain-tip", role: "tooltip", hidden: true });
    document.body.appendChild(tip);
  }
  return tip;
}

// What this one piece is, when the board says more than its kind ("Brewers craftsman 5",
// a citizen's power): the piece's own accessible name or title.
function specific(el, name) {
  const own = el.dataset.tip || el.getAttribute("aria-label") || el.getAttribute("title") || "";
  return own && own !== name ? own : "";
}

// Beside the piece, inside the viewport: above it where there is room (a citizen's own power
// tooltip shows under it), else below.
function placeTip(tip, el) {
  const box = el.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  tip.style.left = "0px";
  tip.style.top = "0px";
  const own = tip.getBoundingClientRect();
  const left = Math.max(
    8,
    Math.min(width - own.width - 8, box.left + box.width / 2 - own.width / 2),
  );
  const above = box.top - own.height - 6;
  const top = above >= 8 ? above : Math.min(height - own.height - 8, box.bottom + 6);
  tip.style.left = Math.round(left) + "px";
  tip.style.top = Math.round(Math.max(8, top)) + "px";
}

// Shows what ``el`` is; a ``passive`` tip (the mouse's hover) lets the pointer through.
export function show(el, passive) {
  const kind = el.dataset.explain;
  return Promise.all([pieceWords(), styleSheet()]).then(
    ([all]) => {
      const piece = all[kind];
      if (!piece || !el.isConnected) return;
      hide();
      const tip = tipElement();
      const own = specific(el, piece.name);
      tip.innerHTML = "";
      tip.dataset.kind = kind;
      tip.classList.toggle("passive", !!passive);
      tip.appendChild(h("b", { class: "explain-name" }, piece.name));
      if (own) tip.appendChild(h("span", { class: "explain-own" }, own));
      tip.appendChild(h("span", { class: "explain-text" }, piece.text));
      tip.appendChild(ruleLinkOf(piece.clause));
      tip.hidden = false;
      placeTip(tip, el);
      shownOn = el;
      el.setAttribute("aria-describedby", TIP);
    },
    () => {},
  ); // without the words a piece stays as it was drawn
}

export function hide() {
  const tip = document.getElementById(TIP);
  if (tip) tip.hidden = true;
  if (shownOn) shownOn.removeAttribute("aria-describedby");
  shownOn = null;
}

function pieceOf(target) {
  return target && target.closest ? target.closest("[data-explain]") : null;
}

function inTip(target) {
  const tip = document.getElementById(TIP);
  return !!(tip && target && tip.contains(target));
}

const handlers = {
  pointerover(ev) {
    if (ev.pointerType !== "mouse") return;
    const el = pieceOf(ev.target);
    clearTimeout(hoverTimer);
    if (el && el !== shownOn) hoverTimer = setTimeout(() => show(el, true), HOVER_MS);
  },
  pointerout(ev) {
    if (ev.pointerType !== "mouse") return;
    const el = pieceOf(ev.target);
    if (!el || pieceOf(ev.relatedTarget) === el) return;
    clearTimeout(hoverTimer);
    const tip = document.getElementById(TIP);
    if (el === shownOn && tip.classList.contains("passive")) hide();
  },
  pointerdown(ev) {
    clearTimeout(hoverTimer);
    if (!inTip(ev.target) && pieceOf(ev.target) !== shownOn) hide();
    if (press) clearTimeout(press.timer);
    press = null;
    const el = pieceOf(ev.target);
    if (!el || ev.pointerType === "mouse") return;
    // Started before this module was loaded: the time already pressed counts.
    const waited = Math.max(0, performance.now() - ev.timeStamp);
    const held = {
      id: ev.pointerId,
      x: ev.clientX,
      y: ev.clientY,
      el,
      fired: false,
      timer: 0,
      up: 0,
    };
    held.timer = setTimeout(
      () => {
        held.fired = true;
        show(el);
      },
      Math.max(0, PRESS_MS - waited),
    );
    press = held;
  },
  pointermove(ev) {
    if (
      press &&
      press.id === ev.pointerId &&
      Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 10
    ) {
      clearTimeout(press.timer);
      press = null; // a scroll, not a press
    }
  },
  pointerup(ev) {
    if (!press || press.id !== ev.pointerId) return;
    clearTimeout(press.timer);
    press.up = performance.now(); // the click that follows (in a task of its own) is this press's
  },
  pointercancel() {
    if (press) clearTimeout(press.timer);
    press = null;
  },
  contextmenu(ev) {
    if (press && pieceOf(ev.target) === press.el) ev.preventDefault(); // the long press is ours
  },
  click(ev) {
    if (press && press.fired && performance.now() - press.up < CLICK_MS) {
      // A long press explained the piece: it must not also pick it.
      ev.preventDefault();
      ev.stopPropagation();
      press = null;
      return;
    }
    const el = pieceOf(ev.target);
    // A tap on a choice (or in one) picks it and nothing else.
    if (el && !inTip(ev.target) && !ev.target.closest(CHOICE)) show(el);
  },
  focusin(ev) {
    const el = ev.target;
    if (el.dataset && el.dataset.explain && el.matches(":focus-visible")) show(el);
  },
  focusout(ev) {
    if (ev.target === shownOn && !inTip(ev.relatedTarget)) hide();
  },
  keydown(ev) {
    if (ev.key === "Escape" && shownOn) {
      hide();
      return;
    }
    const el = ev.target;
    if (ev.key !== "Enter" || !el.dataset || !el.dataset.explain || el.matches(CHOICE)) return;
    pieceWords().then(
      (all) => {
        const piece = all[el.dataset.explain];
        if (piece) openRule(piece.clause);
      },
      () => {},
    );
  },
};

let listening = false;

// pieces.ruleLink, handed over by pieces.js (which loads this module) rather than imported
// from it: the two would import each other.
let ruleLinkOf = () => null;

// Called by pieces.js with each event that came before this module was loaded; from the
// first on, this module hears them all itself.
export function explainEvent(ev, ruleLink) {
  ruleLinkOf = ruleLink;
  if (!listening) {
    listening = true;
    Object.keys(handlers).forEach((type) => document.addEventListener(type, handlers[type], true));
    // A redraw replaces the piece: its tip goes with it rather than stand beside nothing.
    new MutationObserver(() => {
      if (shownOn && !shownOn.isConnected) hide();
    }).observe(document.getElementById("app"), { childList: true, subtree: true });
    // The tip stays beside its piece when the page scrolls under it (focus scrolls too).
    window.addEventListener(
      "scroll",
      () => {
        if (shownOn) placeTip(document.getElementById(TIP), shownOn);
      },
      true,
    );
  }
  if (handlers[ev.type]) handlers[ev.type](ev);
}
