// Turn clocks: the lobby's clock choice and its one-line label (docs/clocks.md).
import { h, t } from "./i18n.js";
import { mark, seatName } from "./pieces.js";

// What the lobby offers; each preset is the body of the clock settings it sends.
export var PRESETS = [
  { id: "untimed", clock: { mode: "untimed" } },
  { id: "live_fast", clock: { mode: "live", plan: 30, action: 10, bank: 120, increment: 5 } },
  { id: "live", clock: { mode: "live", plan: 60, action: 20, bank: 300, increment: 5 } },
  { id: "live_slow", clock: { mode: "live", plan: 120, action: 40, bank: 600, increment: 10 } },
].concat([12, 24, 48, 72, 120, 168].map(function (hours) {
  return { id: "days_" + hours, clock: { mode: "days", per_decision: hours * 3600 } };
}));

export function presetClock(id) {
  var found = PRESETS.filter(function (p) { return p.id === id; })[0] || PRESETS[0];
  return found.clock;
}

export function clockSelect(id, selected) {
  return h("select", { id: id, name: "clock" }, PRESETS.map(function (p) {
    return h("option", { value: p.id, selected: p.id === (selected || "untimed") ? true : null },
      clockLabel(p.clock));
  }));
}

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
  var c = (clock && (clock.config || clock)) || { mode: "untimed" };
  if (c.mode === "live" && !c.bank) return t("clock.live_no_bank", { plan: span(c.plan), action: span(c.action) });
  if (c.mode === "live") {
    return t("clock.live", { plan: span(c.plan), action: span(c.action), bank: span(c.bank),
      increment: span(c.increment) });
  }
  if (c.mode === "days") return t("clock.per_move", { time: span(c.per_decision) });
  return t("clock.untimed");
}

// Which preset a stored clock is (the created table's select shows it).
export function presetOf(clock) {
  var c = (clock && (clock.config || clock)) || { mode: "untimed" };
  var found = PRESETS.filter(function (p) {
    return Object.keys(p.clock).every(function (k) { return p.clock[k] === c[k]; });
  })[0];
  return found ? found.id : "untimed";
}

// ---- the table page: every running clock, counting down ------------------------------
// Deadlines are absolute (the server's seconds since the epoch); the page counts from the
// server's own time, learnt from the table summary's server_time, so a client clock that is
// minutes off shows the same countdown as everybody else's.

var offset = 0; // the server's time minus this browser's, in seconds
var ticker = null;
var shown = null; // {clock, seats, el}

export function learnServerTime(serverTime, sentAt, receivedAt) {
  if (typeof serverTime !== "number" || !serverTime) return;
  var middle = (sentAt + receivedAt) / 2000; // the answer was made about half-way
  offset = serverTime - middle;
}

export function serverNow() {
  return Date.now() / 1000 + offset;
}

// The server's nudge and vote thresholds (the summary's clock_rules), once known.
var rules = null;
export function clockRules() {
  return rules;
}

export function learnClockRules(known) {
  if (known && typeof known.nudge_after === "number") rules = known;
}

export function fetchServerTime(tableId) {
  var sentAt = Date.now();
  return fetch("/api/tables/" + encodeURIComponent(tableId)).then(function (res) {
    return res.ok ? res.json() : null;
  }).then(function (summary) {
    if (summary) learnServerTime(summary.server_time, sentAt, Date.now());
    if (summary) learnClockRules(summary.clock_rules);
  }).catch(function () { /* the next fetch tries again */ });
}

// "4:05", "0:09", "1 d 3 h": what is left of ``seconds``.
export function countdown(seconds) {
  seconds = Math.max(0, Math.ceil(seconds));
  if (seconds >= 86400) {
    return t("clock.left_days", { d: Math.floor(seconds / 86400), h: Math.floor(seconds % 86400 / 3600) });
  }
  var hours = Math.floor(seconds / 3600), minutes = Math.floor(seconds % 3600 / 60), secs = seconds % 60;
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  return hours ? hours + ":" + two(minutes) + ":" + two(secs) : minutes + ":" + two(secs);
}

function chips() {
  var clock = shown.clock, seats = shown.seats, now = serverNow();
  return clock.seats.map(function (entry, seat) {
    if (!entry.running) return null;
    // Named as the seat cards name it (a bot by its kind), beside the seat's shape.
    var name = seatName(seats[seat], seat);
    var left = entry.deadline - now;
    var low = clock.mode === "live" ? left <= 10 : left <= 3600;
    return h("li", { class: "clock-chip" + (low ? " low" : "") + (entry.covered ? " covered" : ""),
      "data-seat": seat },
      mark(seat), h("span", { class: "clock-name" }, name), " ",
      h("span", { class: "clock-time", "data-deadline": entry.deadline },
        entry.covered ? t("clock.bot_playing") : countdown(left)));
  }).filter(Boolean);
}

function tick() {
  if (!shown || !shown.el.isConnected) return;
  var list = shown.el.querySelector("ol");
  if (!list) return;
  list.innerHTML = "";
  chips().forEach(function (chip) { list.appendChild(chip); });
}

// Draw the clocks of ``table`` (the document's table part) into ``el``; the countdown
// then ticks by itself until the next call.
export function renderClocks(el, table) {
  var clock = table && table.clock;
  // While paused nothing runs: the pause bar (table_acts.js) shows what each clock keeps.
  if (!clock || clock.mode === "untimed" || table.status !== "playing" || clock.paused) {
    el.hidden = true;
    el.innerHTML = "";
    shown = null;
    return;
  }
  el.hidden = false;
  shown = { clock: clock, seats: table.seats || [], el: el };
  el.innerHTML = "";
  el.appendChild(h("span", { class: "clock-mode" }, clockLabel(clock)));
  el.appendChild(h("ol", { class: "clock-list", "aria-label": t("clock.running") }));
  tick();
  if (!ticker) ticker = setInterval(tick, 250);
}
