// The lobby's clock choice (docs/clocks.md): the presets it offers and their select.
import { h } from "./i18n.js";
import { clockLabel } from "./clocks.js";

// What the lobby offers; each preset is the body of the clock settings it sends.
export const PRESETS = [
  { id: "untimed", clock: { mode: "untimed" } },
  { id: "live_fast", clock: { mode: "live", plan: 30, action: 10, bank: 120, increment: 5 } },
  { id: "live", clock: { mode: "live", plan: 60, action: 20, bank: 300, increment: 5 } },
  { id: "live_slow", clock: { mode: "live", plan: 120, action: 40, bank: 600, increment: 10 } },
].concat(
  [12, 24, 48, 72, 120, 168].map((hours) => {
    return { id: "days_" + hours, clock: { mode: "days", per_decision: hours * 3600 } };
  }),
);

export function presetClock(id) {
  const found =
    PRESETS.filter((p) => {
      return p.id === id;
    })[0] || PRESETS[0];
  return found.clock;
}

export function clockSelect(id, selected) {
  return h(
    "select",
    { id, name: "clock" },
    PRESETS.map((p) => {
      return h(
        "option",
        { value: p.id, selected: p.id === (selected || "untimed") ? true : null },
        clockLabel(p.clock),
      );
    }),
  );
}

// Which preset a stored clock is (the created table's select shows it).
export function presetOf(clock) {
  const c = (clock && (clock.config || clock)) || { mode: "untimed" };
  const found = PRESETS.filter((p) => {
    return Object.keys(p.clock).every((k) => {
      return p.clock[k] === c[k];
    });
  })[0];
  return found ? found.id : "untimed";
}
