// Turn clocks (docs/clocks.md): a clock's one-line label, and the server's time and clock
// rules that every table page counts with (the lobby's choice is clock_choice.js, the
// running clocks' chips clock_chips.js).
import { t } from "./i18n.js";

// "12 h", "3 days", "5 min", "45 s": a span of time for people.
export function span(seconds) {
  seconds = Math.max(0, Math.round(seconds));
  if (seconds >= 3 * 86400 && seconds % 86400 === 0) return t("clock.days", { n: seconds / 86400 });
  if (seconds >= 3600) return t("clock.hours", { n: Math.round(seconds / 360) / 10 });
  if (seconds >= 60 && seconds % 60 === 0) return t("clock.minutes", { n: seconds / 60 });
  return t("clock.seconds", { n: seconds });
}

// The table's clock in one line (the lobby's list, the created table, the table page).
export function clockLabel(clock) {
  const c = (clock && (clock.config || clock)) || { mode: "untimed" };
  if (c.mode === "live" && !c.bank)
    return t("clock.live_no_bank", { plan: span(c.plan), action: span(c.action) });
  if (c.mode === "live") {
    return t("clock.live", {
      plan: span(c.plan),
      action: span(c.action),
      bank: span(c.bank),
      increment: span(c.increment),
    });
  }
  if (c.mode === "days") return t("clock.per_move", { time: span(c.per_decision) });
  return t("clock.untimed");
}

// ---- the table page: every running clock, counting down ------------------------------
// Deadlines are absolute (the server's seconds since the epoch); the page counts from the
// server's own time, learnt from the table summary's server_time, so a client clock that is
// minutes off shows the same countdown as everybody else's.

let offset = 0; // the server's time minus this browser's, in seconds

export function learnServerTime(serverTime, sentAt, receivedAt) {
  if (typeof serverTime !== "number" || !serverTime) return;
  const middle = (sentAt + receivedAt) / 2000; // the answer was made about half-way
  offset = serverTime - middle;
}

export function serverNow() {
  return Date.now() / 1000 + offset;
}

// The server's nudge and vote thresholds (the summary's clock_rules), once known.
let rules = null;
export function clockRules() {
  return rules;
}

export function learnClockRules(known) {
  if (known && typeof known.nudge_after === "number") rules = known;
}

export function fetchServerTime(tableId) {
  const sentAt = Date.now();
  return fetch("/api/tables/" + encodeURIComponent(tableId))
    .then((res) => {
      return res.ok ? res.json() : null;
    })
    .then((summary) => {
      if (summary) learnServerTime(summary.server_time, sentAt, Date.now());
      if (summary) learnClockRules(summary.clock_rules);
    })
    .catch(() => {
      /* the next fetch tries again */
    });
}

// "4:05", "0:09", "1 d 3 h": what is left of ``seconds``.
export function countdown(seconds) {
  seconds = Math.max(0, Math.ceil(seconds));
  if (seconds >= 86400) {
    return t("clock.left_days", {
      d: Math.floor(seconds / 86400),
      h: Math.floor((seconds % 86400) / 3600),
    });
  }
  const hours = Math.floor(seconds / 3600),
    minutes = Math.floor((seconds % 3600) / 60),
    secs = seconds % 60;
  const two = (n) => {
    return (n < 10 ? "0" : "") + n;
  };
  return hours ? hours + ":" + two(minutes) + ":" + two(secs) : minutes + ":" + two(secs);
}
