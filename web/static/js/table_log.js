// The game's log (lines in the page's language, the seat changes among them, fresh lines
// glowing), what changed since this player's last move, and the fairness box (the seed's hash
// and, at the end, the game's record).
import * as acts from "./table_acts.js";
import * as follow from "./follow.js";
import { h, has, t } from "./i18n.js";
import { $ } from "./page.js";
import { mark, seatNames } from "./pieces.js";
import { fillNames, mySeat, replaceChildren, seatName, seats, state } from "./table_state.js";

// A log line in the page's language: the template "log.<type>" (or the game's own
// prefix), with ".<variant>" when the event names one, filled from the event's params.
// {name} inserts a value as it is; {name:format} passes it through a formatter: the
// shared ones below or the game renderer's logFormats, called (value, params, seatName). An event without params, a
// missing template, a missing value or an unknown formatter falls back to the
// engine's English text, so a line is never lost.
const sharedLogFormats = {
  seat(seat) {
    return seatName(seat);
  },
  seats(list) {
    return seatNames(list, seatName);
  },
  list(list) {
    return list.join(", ");
  },
};

export function logText(e) {
  const renderer = state.doc && state.doc.table ? state.renderers[state.doc.table.game] : null;
  let params = e.params;
  const prefix = (renderer && renderer.logPrefix) || "log.";
  let key = prefix + e.type + (params && params.variant ? "." + params.variant : "");
  // The engine's own events (sealed planning) read alike in every game: one shared template
  // "log.<type>" when the game has none, with the game's order of planning as {order}.
  if (params && !has(key)) key = "log." + e.type + (params.variant ? "." + params.variant : "");
  if (params && has(prefix + "order") && !("order" in params)) {
    params = { order: t(prefix + "order"), ...params };
  }
  if (!params || !has(key)) return fillNames(e.text);
  const formats = (renderer && renderer.logFormats) || {};
  let complete = true;
  const text = t(key).replace(/\{(\w+)(?::(\w+))?\}/g, (whole, name, format) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) {
      complete = false;
      return whole;
    }
    const value = params[name];
    if (!format) return String(value);
    const fn = formats[format] || sharedLogFormats[format];
    if (!fn) {
      complete = false;
      return whole;
    }
    return String(fn(value, params, seatName));
  });
  return complete ? text : fillNames(e.text);
}

// Entries that arrived lately glow briefly, so others' moves are noticed; a redraw in
// the meantime continues the glow where it was (negative animation delay).
const FRESH_MS = 2500;

let logSeen = null;

let fresh = { from: Infinity, at: 0 };

// What the log shows, so a redraw only appends the lines that came: a whole game's log is
// hundreds of lines, and building it again (and laying it out) at every move cost more than
// the rest of the page. It is built again when anything but its end changed: a replay, the
// language, where a seat change stands among the lines (or its text), a summary's button.
function nothingShown() {
  return { key: null, count: 0, heading: null, glowing: [], last: null };
}

let logShown = nothingShown();

export function showLogEnd() {
  const log = $("log");
  log.scrollTop = log.scrollHeight;
}

// Draws the log (with the summaries' panel, once here, for their buttons); true when it
// changed, so that the caller shows its end.
export function renderLog(sums, panel) {
  const ol = $("log");
  const all = (state.replay && state.replay.log) || withSeatChanges(state.doc.log || []);
  const raw = (state.replay && state.replay.log) || state.doc.log || [];
  const startsAt = new Map();
  sums.forEach((s) => {
    if (raw[s.from]) startsAt.set(raw[s.from], s);
  });
  if (!state.replay) {
    if (logSeen !== null && all.length > logSeen) fresh = { from: logSeen, at: Date.now() };
    logSeen = all.length;
  }
  const key = [
    state.replay ? "replay:" + state.replay.step : "live",
    document.documentElement.lang,
    seatChangePlaces(raw.length),
    sums
      .map((s) => {
        return s.from + ":" + s.key;
      })
      .join(","),
  ].join("|");
  let from = key === logShown.key && all.length >= logShown.count ? logShown.count : 0;
  // An entry that came in among the lines shown (not after them) moves the last one shown.
  if (from > 0 && !sameLine(all[from - 1], logShown.last)) from = 0;
  const elapsed = Date.now() - fresh.at;
  if (from === 0) {
    ol.innerHTML = "";
    logShown = nothingShown();
  }
  // A line glows only while it is fresh, as if the log were drawn anew at every redraw.
  logShown.glowing = logShown.glowing.filter((line) => {
    if (line.at >= fresh.from && elapsed < FRESH_MS) return true;
    line.li.classList.remove("fresh");
    line.li.style.animationDelay = "";
    return false;
  });
  if (from === all.length && from > 0) return false;
  let heading = logShown.heading; // the round whose header was put last
  const lines = document.createDocumentFragment();
  for (let i = from; i < all.length; i++) {
    const e = all[i];
    const glow = !state.replay && i >= fresh.from && elapsed < FRESH_MS;
    const round =
      e.type === "RoundStarted" && e.params && e.params.round
        ? e.params.round
        : i === 0
          ? 1
          : heading;
    if (round !== heading) {
      heading = round;
      lines.appendChild(
        h("li", { class: "log-head" }, h("h3", null, t("log.round_head", { round }))),
      );
    }
    const starts = startsAt.get(e);
    const li = h(
      "li",
      {
        class: "log-" + e.type + (glow ? " fresh" : ""),
        style: glow ? "animation-delay: -" + elapsed + "ms" : null,
      },
      seatMark(e),
      logText(e),
      starts ? [" ", panel.logButton(starts)] : null,
    );
    if (glow) logShown.glowing.push({ li, at: i });
    lines.appendChild(li);
  }
  ol.appendChild(lines);
  logShown.key = key;
  logShown.count = all.length;
  logShown.heading = heading;
  logShown.last = all[all.length - 1];
  return true; // lines came (or the log was drawn anew): the caller scrolls to its end
}

// A line about one seat starts with that seat's shape in its colour, as on the board.
function seatMark(e) {
  const seat = e.params && e.params.seat;
  return typeof seat === "number" && seat >= 0 && seat < seats().length ? mark(seat) : null;
}

// Places another player's move changed glow (follow.js); a replay jumps, so nothing glows.
let drawnLog = null;

export function markChanges() {
  if (state.replay) {
    follow.reset();
    drawnLog = null;
    return;
  }
  const log = state.doc.log || [];
  const me = mySeat();
  const others =
    drawnLog !== null &&
    log.slice(drawnLog).some((e) => {
      return !(e.params && e.params.seat === me);
    });
  drawnLog = log.length;
  follow.mark($("layout"), others);
}

// "Since your last move": the others' moves since the player's own last one. When their time
// ran out (once or more in a row: the clock's ``timeouts``) a bot's moves for them are not
// theirs: the digest counts from the player's own move before the first of those timeouts,
// and says first that a bot played for them.
export function sinceMyMove() {
  const me = mySeat(),
    log = state.doc.log || [];
  const clock = state.doc.table && state.doc.table.clock;
  const timeouts = clock && clock.seats[me] ? clock.seats[me].timeouts : 0;
  const ran = ((state.doc.table && state.doc.table.seat_log) || []).filter((c) => {
    return c.type === "timed_out" && c.seat === me;
  });
  const first = timeouts ? ran[ran.length - timeouts] : null;
  if (!first) return follow.digest(log, me);
  return [{ type: "timed_out", text: t("clock.timed_out_you"), pinned: true }].concat(
    follow.digest(log, me, first.at),
  );
}

// The table's seat changes (a bot standing in, a player back) placed among the game's lines.
function withSeatChanges(log) {
  const changes = (state.doc.table && state.doc.table.seat_log) || [];
  if (!changes.length) return log;
  const out = [];
  let k = 0;
  for (let i = 0; i <= log.length; i++) {
    for (; k < changes.length && changes[k].at <= i; k++) out.push(seatChangeLine(changes[k]));
    if (i < log.length) out.push(log[i]);
  }
  return out;
}

// The same log line: the same entry of the document, or a seat change saying the same (those
// are made anew at each redraw).
function sameLine(a, b) {
  return (
    a === b ||
    (!!a && !!b && a.type === "seat_change" && b.type === "seat_change" && a.text === b.text)
  );
}

// Where each seat change stands among the log's first ``length`` entries, and what it says:
// part of the log's key, so a change placed or reworded redraws the log.
function seatChangePlaces(length) {
  if (state.replay) return "";
  const changes = (state.doc.table && state.doc.table.seat_log) || [];
  return changes
    .map((c) => {
      return c.at <= length ? [c.at, c.type, c.until || ""].join(":") : "-";
    })
    .join(",");
}

export function seatChangeLine(change) {
  const name = change.name || (change.seat === null ? "" : t("seat.n", { n: change.seat + 1 }));
  const kind = change.bot ? t("bot." + change.bot) : "";
  const params = {
    name,
    kind,
    by: change.by_name || "",
    when: change.until ? acts.when(change.until) : "",
  };
  const key = "seatlog." + change.type + (change.until ? ".until" : "");
  return { type: "seat_change", text: t(has(key) ? key : "seatlog." + change.type, params) };
}

export function renderFairness(table) {
  const el = $("fairness");
  const hash = table.seed_sha256;
  el.hidden = !hash;
  if (!hash) return;
  const key = JSON.stringify([hash, table.status]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const file = "guildhall-" + state.tableId + ".json";
  replaceChildren(el, [
    h("h2", { id: "fairness-title" }, t("fair.title")),
    h("p", null, t("fair.seed"), " ", h("code", { class: "hash", id: "seed-hash" }, hash)),
    h("p", { class: "muted" }, t(table.status === "finished" ? "fair.revealed" : "fair.hidden")),
    table.status === "finished"
      ? h(
          "p",
          null,
          h(
            "a",
            {
              id: "record-download",
              href: "/api/tables/" + state.tableId + "/record",
              download: file,
            },
            t("fair.download"),
          ),
        )
      : null,
    table.status === "finished"
      ? h(
          "p",
          null,
          t("fair.verify"),
          " ",
          h("code", { id: "verify-command" }, "guildhall verify " + file),
        )
      : null,
  ]);
}
