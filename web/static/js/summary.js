// The summary panel: what a Norenberc round end or a Strasbourg council did, built by the
// game's renderer (`summaries(log)`, from the public log only) and shown by the table page.
//
// A summary that arrives while the page is open opens by itself; while it is open the
// player's next prompt waits behind a short card, until the panel is closed or it closes
// by itself after WAIT_MS (a pointer over it or focus in it keeps it open). The server never
// waits for it, nor do bots. Every summary is reachable again from its line in the log.
import { h, t } from "./i18n.js";
import { redraw } from "./page.js";

export const WAIT_MS = 25000;

let known = null; // how many summaries the live log held at the last look (null: none yet)
let openKey = null; // the summary shown
let holding = false; // opened by itself: the prompt waits for it
let timer = null;
let held = false; // the player is reading it (pointer or focus): no timeout
let openedAt = 0;

// Called with the live log's summaries on every draw; true when one just opened itself.
export function follow(list) {
  const arrived = known !== null && list.length > known;
  known = list.length;
  if (!arrived) return false;
  openKey = list[list.length - 1].key;
  holding = true;
  held = false;
  openedAt = Date.now();
  startTimer();
  return true;
}

function startTimer() {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (held) return;
    close();
  }, WAIT_MS);
}

export function open(key) {
  openKey = key;
  holding = false;
  clearTimeout(timer);
  redraw();
  const heading = document.getElementById("summary-title");
  if (heading) {
    heading.scrollIntoView({ block: "nearest" });
    heading.focus();
  }
}

export function close() {
  clearTimeout(timer);
  openKey = null;
  holding = false;
  held = false;
  redraw();
}

// True while a summary that opened by itself keeps the player's prompt waiting.
export function holdsPrompt() {
  return openKey !== null && holding;
}

// What stands in the prompt's place meanwhile (a heading, so focus has a place to land).
export function holdCard(title) {
  return h(
    "div",
    { class: "card prompt-card summary-hold", id: "prompt-card" },
    h("h2", null, t("summary.hold_title")),
    h("p", null, t("summary.hold_text", { title })),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "summary-continue",
        "data-focus": "summary-continue",
        onclick: close,
      },
      t("summary.continue"),
    ),
  );
}

export function openTitle(list) {
  const s = find(list, openKey);
  return s ? s.title : "";
}

function find(list, key) {
  return (
    list.filter((s) => {
      return s.key === key;
    })[0] || null
  );
}

// The panel itself, or nothing (the section stays hidden).
export function draw(el, list, ctx) {
  const s = openKey !== null ? find(list, openKey) : null;
  el.hidden = !s;
  el.innerHTML = "";
  if (!s) return;
  el.className = "card summary-panel" + (holding ? " waiting" : "");
  const keep = () => {
    if (held || !holding) return;
    held = true;
    const bar = el.querySelector(".summary-timer");
    if (bar) bar.remove();
  };
  el.onpointerenter = keep;
  el.onfocusin = keep;
  [
    h(
      "div",
      { class: "summary-head" },
      h("h2", { id: "summary-title", tabindex: "-1", "data-focus": "summary-title" }, s.title),
      h(
        "button",
        {
          type: "button",
          class: "small-btn",
          id: "summary-close",
          "data-focus": "summary-close",
          onclick: close,
        },
        t("summary.close"),
      ),
    ),
    h("div", { class: "summary-body" }, s.body(ctx)),
    holding
      ? h(
          "p",
          { class: "muted summary-timeout" },
          t("summary.timeout", { n: Math.round(WAIT_MS / 1000) }),
        )
      : null,
    // The bar runs down from where it was (a redraw must not restart it).
    holding && !held
      ? h(
          "div",
          { class: "summary-timer", "aria-hidden": "true" },
          h("span", {
            style:
              "animation-duration: " +
              WAIT_MS +
              "ms; animation-delay: -" +
              (Date.now() - openedAt) +
              "ms",
          }),
        )
      : null,
  ].forEach((c) => {
    if (c) el.appendChild(c);
  });
}

// The button a log line carries when a summary starts there.
export function logButton(s) {
  return h(
    "button",
    {
      type: "button",
      class: "small-btn log-summary",
      "data-summary": s.key,
      onclick() {
        open(s.key);
      },
    },
    t("summary.show"),
  );
}
