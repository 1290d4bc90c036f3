// What the people at a table do to its clock (docs/clocks.md): each seat card's acts:
// propose a pause and "away until" on one's own seat, nudge and vote on another's silent
// seat (untimed tables), add time (the creator, timed tables); the pause bar they lead to is
// pause_bar.js. The server decides again; this only offers what it would accept now.
import { LANG, h, t } from "./i18n.js";
import { clockRules, serverNow, span } from "./clocks.js";

let open = null; // the one inline form open: {seat, kind}
const drafts = {}; // what was typed into a form, kept across redraws (patches arrive often)

// "Fri 5 Dec, 14:00" in the page's language.
export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(LANG, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
}

// A wait for people, to the minute: "50 min", "1 h" (59 min 59 s is "1 h", not "3599 s").
function roughly(seconds) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes >= 60) return t("clock.hours", { n: Math.round(minutes / 6) / 10 });
  return t("clock.minutes", { n: minutes });
}

// A person at the table plays their seat now (no bot standing in).
export function isPerson(table, seat) {
  const s = seat === null || seat === undefined ? null : (table.seats || [])[seat];
  return !!(s && !s.bot && s.name);
}

// A table whose clock people act on: one being played.
export function live(table) {
  return table && table.status === "playing" && table.clock;
}

// A date and time the browser's picker gives ("2026-12-05T14:00", local time) in seconds.
function pickedTime(value) {
  const ms = value ? new Date(value).getTime() : NaN;
  return isNaN(ms) ? null : ms / 1000;
}

function dateField(id, label) {
  return h(
    "label",
    { class: "acts-date" },
    label,
    " ",
    h("input", {
      type: "datetime-local",
      id,
      "data-focus": id,
      value: drafts[id] || "",
      oninput(ev) {
        drafts[id] = ev.target.value;
      },
    }),
  );
}

function closeForm(rerender) {
  return () => {
    open = null;
    rerender();
  };
}

// ---- when the offers change by themselves -------------------------------------------

// The next moment (the server's seconds) at which what this module offers ``me`` changes
// with time alone, no document arriving: a silent seat becomes one to nudge or to vote on, a
// nudge may be sent again (until then "again in 50 min" counts down by the minute), an
// "away until" or a proposed resume date passes. Null: none coming. The page draws again
// then (table.js), so no control waits for a reload.
export function nextChange(table, me) {
  if (!live(table)) return null;
  const clock = table.clock,
    rules = clockRules(),
    now = serverNow();
  const moments = [];
  if (clock.proposal && clock.proposal.until) moments.push(clock.proposal.until);
  clock.seats.forEach((entry, seat) => {
    if (entry.away_until) moments.push(entry.away_until);
    if (clock.mode !== "untimed" || clock.paused || !entry.asked || !rules || seat === me) return;
    moments.push(entry.asked + rules.nudge_after, entry.asked + rules.vote_after);
    const last = (entry.nudged || {})[String(me)];
    if (last) moments.push(last + rules.nudge_every);
    const left = last + rules.nudge_every - now;
    if (last && left > 0 && now - entry.asked >= rules.nudge_after)
      moments.push(now + (left % 60 || 60));
  });
  const coming = moments.filter((at) => {
    return at > now;
  });
  return coming.length ? Math.min.apply(null, coming) : null;
}

// ---- a seat card's acts --------------------------------------------------------------

// The acts ``me`` may take on ``seat``'s card (and what everyone may read there: "away
// until"), or null. ``act(path, body)`` posts to /api/tables/{id}{path} with the seat token.
export function seatActs(seat, table, me, act, seatName, rerender) {
  if (!live(table)) return null;
  const clock = table.clock;
  const entry = clock.seats[seat] || {};
  let parts = [awayNote(entry)];
  if (isPerson(table, me) && seat === me)
    parts = parts.concat(timeoutNote(entry, clock), ownActs(seat, clock, act, rerender));
  else if (isPerson(table, me) && isPerson(table, seat))
    parts = parts.concat(othersActs(seat, clock, me, act, seatName, rerender));
  if (
    me === 0 &&
    isPerson(table, 0) &&
    clock.mode !== "untimed" &&
    table.seats[seat] &&
    table.seats[seat].name
  ) {
    parts.push(addTime(seat, clock, act, rerender));
  }
  parts = parts.filter(Boolean);
  return parts.length ? h("div", { class: "seat-acts", id: "seat-acts-" + seat }, parts) : null;
}

function awayNote(entry) {
  if (!entry.away_until || entry.away_until <= serverNow()) return null;
  return h("span", { class: "away-note" }, t("away.until", { when: when(entry.away_until) }));
}

// On the player's own card of a live table, after a timeout (until their own next move):
// what happened and what the next one does. The server hands the seat to a bot after two
// timeouts in a row on a live clock (docs/clocks.md); over days the first one does, and the
// page then offers "take my seat back" instead.
function timeoutNote(entry, clock) {
  if (clock.mode !== "live" || !entry.timeouts) return null;
  return h(
    "p",
    { class: "timeout-note", id: "timeout-note", role: "status" },
    h("strong", null, t("clock.timed_out_you")),
    " ",
    t("clock.next_timeout"),
  );
}

function button(id, label, onclick, primary) {
  return h(
    "button",
    {
      type: "button",
      class: "small-btn" + (primary ? " primary" : ""),
      id,
      "data-focus": id,
      onclick,
    },
    label,
  );
}

function opener(seat, kind, rerender) {
  return () => {
    open = { seat, kind };
    rerender();
  };
}

function isOpen(seat, kind) {
  return open && open.seat === seat && open.kind === kind;
}

function ownActs(seat, clock, act, rerender) {
  const out = [];
  if (!clock.paused && !clock.proposal) {
    if (isOpen(seat, "pause")) {
      out.push(
        h(
          "form",
          {
            class: "acts-form",
            id: "pause-form",
            onsubmit(ev) {
              ev.preventDefault();
              const until = pickedTime(drafts["pause-until"]);
              open = null;
              act("/pause", { until });
            },
          },
          dateField("pause-until", t("pause.until_label")),
          h(
            "button",
            {
              type: "submit",
              class: "small-btn primary",
              id: "pause-propose",
              "data-focus": "pause-propose",
            },
            t("pause.propose"),
          ),
          button("pause-cancel", t("prompt.cancel"), closeForm(rerender)),
        ),
      );
    } else {
      out.push(button("pause-open", t("pause.open"), opener(seat, "pause", rerender)));
    }
  }
  if (clock.mode !== "days") return out;
  const away = clock.seats[seat].away_until;
  if (isOpen(seat, "away")) {
    out.push(
      h(
        "form",
        {
          class: "acts-form",
          id: "away-form",
          onsubmit(ev) {
            ev.preventDefault();
            const until = pickedTime(drafts["away-until"]);
            if (until === null) return;
            open = null;
            act("/seats/" + seat + "/away", { until });
          },
        },
        dateField("away-until", t("away.label")),
        h(
          "button",
          {
            type: "submit",
            class: "small-btn primary",
            id: "away-save",
            "data-focus": "away-save",
          },
          t("away.save"),
        ),
        button("away-cancel", t("prompt.cancel"), closeForm(rerender)),
      ),
    );
  } else {
    out.push(button("away-open", t("away.open"), opener(seat, "away", rerender)));
  }
  if (away && away > serverNow()) {
    out.push(
      button("away-clear", t("away.back"), () => {
        act("/seats/" + seat + "/away", { until: null });
      }),
    );
  }
  return out;
}

// Nudge and vote, on an untimed table, for a seat whose person has had to act long enough.
function othersActs(seat, clock, me, act, seatName, rerender) {
  const entry = clock.seats[seat];
  const rules = clockRules();
  if (clock.mode !== "untimed" || clock.paused || !entry.asked || !rules) return [];
  const now = serverNow(),
    waited = now - entry.asked,
    out = [];
  const last = (entry.nudged || {})[String(me)];
  if (waited >= rules.nudge_after) {
    if (last && now - last < rules.nudge_every) {
      out.push(
        h(
          "span",
          { class: "muted nudged" },
          t("nudge.done", { left: roughly(last + rules.nudge_every - now) }),
        ),
      );
    } else {
      out.push(
        button("nudge-" + seat, t("nudge.button", { name: seatName(seat) }), () => {
          act("/seats/" + seat + "/nudge", {});
        }),
      );
    }
  }
  if (waited < rules.vote_after) return out;
  const votes = entry.votes || [];
  const tally = t("vote.tally", { n: votes.length });
  if (votes.indexOf(me) >= 0) {
    out.push(h("span", { class: "muted voted" }, t("vote.done"), " (", tally, ")"));
  } else if (isOpen(seat, "vote")) {
    out.push(
      h(
        "span",
        { class: "bot-offer" },
        t("vote.sure", { name: seatName(seat) }),
        " ",
        button(
          "vote-yes-" + seat,
          t("vote.yes"),
          () => {
            open = null;
            act("/seats/" + seat + "/vote", {});
          },
          true,
        ),
        button("vote-no-" + seat, t("prompt.cancel"), closeForm(rerender)),
      ),
    );
  } else {
    out.push(
      button("vote-" + seat, t("vote.button"), opener(seat, "vote", rerender)),
      votes.length ? h("span", { class: "muted" }, tally) : null,
    );
  }
  return out;
}

const GIFTS = { live: [30, 60, 300], days: [43200, 86400, 172800] };

function addTime(seat, clock, act, rerender) {
  if (!isOpen(seat, "time"))
    return button("time-" + seat, t("time.add"), opener(seat, "time", rerender));
  return h(
    "span",
    { class: "bot-offer", id: "time-choices-" + seat },
    t("time.how_much"),
    " ",
    GIFTS[clock.mode].map((seconds) => {
      return button("time-" + seat + "-" + seconds, "+" + span(seconds), () => {
        open = null;
        act("/seats/" + seat + "/time", { seconds });
      });
    }),
    button("time-cancel-" + seat, t("prompt.cancel"), closeForm(rerender)),
  );
}
