// The table page's running clocks: one chip per seat whose clock runs, counting down from
// the server's time (clocks.js). table.js loads this module with the first timed table it
// draws: most tables have no clock.
import { h, t } from "./i18n.js";
import { clockLabel, countdown, serverNow } from "./clocks.js";
import { mark, seatName } from "./pieces.js";

let ticker = null;
let shown = null; // {clock, seats, el}

function chips() {
  const clock = shown.clock,
    seats = shown.seats,
    now = serverNow();
  return clock.seats
    .map((entry, seat) => {
      if (!entry.running) return null;
      // Named as the seat cards name it (a bot by its kind), beside the seat's shape.
      const name = seatName(seats[seat], seat);
      const left = entry.deadline - now;
      const low = clock.mode === "live" ? left <= 10 : left <= 3600;
      return h(
        "li",
        {
          class: "clock-chip" + (low ? " low" : "") + (entry.covered ? " covered" : ""),
          "data-seat": seat,
        },
        mark(seat),
        h("span", { class: "clock-name" }, name),
        " ",
        h(
          "span",
          { class: "clock-time", "data-deadline": entry.deadline },
          entry.covered ? t("clock.bot_playing") : countdown(left),
        ),
      );
    })
    .filter(Boolean);
}

function tick() {
  if (!shown || !shown.el.isConnected) return;
  const list = shown.el.querySelector("ol");
  if (!list) return;
  list.innerHTML = "";
  chips().forEach((chip) => {
    list.appendChild(chip);
  });
}

// Draw the clocks of ``table`` (the document's table part) into ``el``; the countdown
// then ticks by itself until the next call.
export function renderClocks(el, table) {
  const clock = table && table.clock;
  // While paused nothing runs: the pause bar (table_acts.js) shows what each clock keeps.
  if (!clock || clock.mode === "untimed" || table.status !== "playing" || clock.paused) {
    el.hidden = true;
    el.innerHTML = "";
    shown = null;
    return;
  }
  el.hidden = false;
  shown = { clock, seats: table.seats || [], el };
  el.innerHTML = "";
  el.appendChild(h("span", { class: "clock-mode" }, clockLabel(clock)));
  el.appendChild(h("ol", { class: "clock-list", "aria-label": t("clock.running") }));
  tick();
  if (!ticker) ticker = setInterval(tick, 250);
}
