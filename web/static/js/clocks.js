// Turn clocks: the lobby's clock choice and its one-line label (docs/clocks.md).
import { h, t } from "./i18n.js";

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
