// The lobby's "your tables": every seat link this browser keeps (localStorage only), with
// what the server says of each (POST /api/tables/mine, one request for all): the round,
// whose turn it is, your move and the time left, the result, a rematch.
import { h, t } from "./i18n.js";
import { api, askRematch, forgetTable, keptSeat, recentTables } from "./conn.js";
import { countdown } from "./clocks.js";
import { $, deferWhilePressed } from "./page.js";
import { seatName, seatNames } from "./pieces.js";

const POLL_MS = 20000;
let answers = {}; // "id seat-token" -> the server's answer for that link
let offset = 0; // the server's time minus this browser's, in seconds
let asking = false;

function key(entry) {
  return entry.id + " " + entry.token;
}

function links() {
  return recentTables().filter((e) => {
    return e.id && e.token;
  });
}

// Draw the list now (from what this browser knows), ask the server, and keep asking.
export function startMine() {
  renderMine();
  refreshMine();
  setInterval(() => {
    if (!document.hidden) refreshMine();
  }, POLL_MS);
  setInterval(tick, 1000);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshMine();
  });
}

export function refreshMine() {
  const asked = links();
  renderMine();
  if (!asked.length || asking) return;
  asking = true;
  const sentAt = Date.now();
  const body = {
    seats: asked.map((e) => {
      return { table_id: e.id, token: e.token };
    }),
  };
  api("POST", "/api/tables/mine", body)
    .then((res) => {
      offset = res.server_time - (sentAt + Date.now()) / 2000;
      answers = {};
      res.tables.forEach((answer, i) => {
        answers[key(asked[i])] = answer;
      });
      $("mine-error").hidden = true;
      renderMine();
    })
    .catch(() => {
      $("mine-error").textContent = t("mine.unreachable");
      $("mine-error").hidden = false;
    })
    .then(() => {
      asking = false;
    });
}

// Your move first, then games under way, tables still filling up, finished games, and
// links that no longer work; newest first within each.
function rank(answer) {
  if (!answer) return 2;
  if (answer.error) return 4;
  if (answer.your_move) return 0;
  return { playing: 1, open: 2, finished: 3 }[answer.status];
}

export function renderMine() {
  if (deferWhilePressed(renderMine)) return; // a tap on a link must not fall between two lists
  const entries = links();
  $("mine-card").hidden = !entries.length;
  const ranked = entries.map((e, i) => {
    return { e, i, r: rank(answers[key(e)]) };
  });
  ranked.sort((a, b) => {
    return a.r - b.r || a.i - b.i;
  });
  const ul = $("mine-list");
  ul.innerHTML = "";
  ranked.forEach((x) => {
    ul.appendChild(item(x.e, answers[key(x.e)]));
  });
}

// The seats of one answer by their names, as the table names them.
function namesIn(answer, seats) {
  return seatNames(seats, (seat) => {
    const s = answer.seats[seat];
    return seatName(s, s.seat);
  });
}

function item(entry, answer) {
  const yours = !!(answer && answer.your_move);
  const gone = !!(answer && answer.error);
  const people =
    answer && answer.seats
      ? namesIn(
          answer,
          answer.seats.map((s) => {
            return s.seat;
          }),
        )
      : "";
  return h(
    "li",
    {
      class: "mine-item" + (yours ? " your-move" : "") + (gone ? " gone" : ""),
      "data-table": entry.id,
    },
    h(
      "div",
      { class: "mine-text" },
      h(
        "div",
        { class: "mine-head" },
        h("b", null, (answer && answer.title) || entry.title || entry.id),
        people ? h("span", { class: "mine-people" }, " · " + people) : null,
        answer && answer.learning
          ? [" ", h("span", { class: "learning-badge" }, t("lobby.learning_badge"))]
          : null,
      ),
      h("div", { class: "mine-status" }, status(answer)),
    ),
    h("div", { class: "mine-actions" }, actions(entry, answer, yours)),
  );
}

// Messages someone else wrote since this browser last showed the table's chat (chat.js).
function unread(answer) {
  const read = Number(localStorage.getItem("gh_chat_read:" + answer.table_id) || 0);
  return answer.chat > read ? h("span", { class: "mine-chat" }, t("mine.chat_unread")) : null;
}

function status(answer) {
  if (!answer) return "\u00a0";
  if (answer.error) return t(answer.error === "bad_token" ? "mine.bad_token" : "mine.unknown");
  if (answer.status === "open") {
    const taken = answer.seats.filter((s) => {
      return s.name || s.bot;
    }).length;
    return t("mine.open_table", { n: taken, of: answer.seats.length });
  }
  if (answer.status === "finished")
    return [finished(answer), unread(answer) ? " · " : null, unread(answer)];
  const round =
    answer.round === null || answer.round === undefined
      ? null
      : answer.rounds
        ? t("mine.round_of", { n: answer.round, of: answer.rounds })
        : t("mine.round", { n: answer.round });
  const parts = [round ? h("span", null, round) : null];
  if (answer.your_move) {
    parts.push(h("strong", { class: "mine-move" }, t("mine.your_move")));
    if (answer.deadline)
      parts.push(
        h("span", { class: "mine-left", "data-deadline": answer.deadline }, left(answer.deadline)),
      );
  } else if (!answer.plays) {
    parts.push(h("span", null, t("mine.stand_in")));
  } else if (answer.to_act.length) {
    parts.push(h("span", null, t("mine.waiting_for", { names: namesIn(answer, answer.to_act) })));
  }
  parts.push(unread(answer));
  return parts.filter(Boolean).reduce((all, part) => {
    return all.length ? all.concat([" · ", part]) : [part];
  }, []);
}

function finished(answer) {
  const result = answer.result;
  if (!result || !result.winners) return t("mine.finished");
  const winners = namesIn(answer, result.winners);
  return (
    t("mine.finished") +
    " · " +
    t(result.winners.length > 1 ? "scores.winners" : "scores.winner", { names: winners })
  );
}

function left(deadline) {
  return t("mine.time_left", { time: countdown(deadline - (Date.now() / 1000 + offset)) });
}

function tick() {
  document.querySelectorAll("#mine-list .mine-left").forEach((el) => {
    el.textContent = left(Number(el.getAttribute("data-deadline")));
  });
}

function actions(entry, answer, yours) {
  const out = [];
  if (!answer || !answer.error) {
    out.push(
      h(
        "a",
        {
          class: "button" + (yours ? " primary" : ""),
          href: "/t/" + entry.id + "#seat=" + entry.token,
        },
        t("mine.open"),
      ),
    );
  }
  const joined = answer && answer.rematch ? keptSeat(answer.rematch) : null;
  if (joined) {
    // Already seated at the rematch (its own line is in the list too): open it.
    out.push(
      h(
        "a",
        { class: "button", href: "/t/" + joined.id + "#seat=" + joined.token },
        t("rematch.open"),
      ),
    );
  } else if (answer && answer.status === "finished") {
    out.push(
      h(
        "button",
        {
          type: "button",
          class: answer.rematch ? "primary" : null,
          onclick(ev) {
            ev.target.disabled = true;
            askRematch(entry.id, entry.token, answer.title).catch(() => {
              ev.target.disabled = false;
              refreshMine();
            });
          },
        },
        t(answer.rematch ? "rematch.join" : "rematch.button"),
      ),
    );
  }
  out.push(
    h(
      "button",
      {
        type: "button",
        class: "forget",
        title: t("mine.forget_label"),
        "aria-label": t("mine.forget_label"),
        onclick() {
          forgetTable(entry.id, entry.token);
          delete answers[key(entry)];
          renderMine();
        },
      },
      t("mine.forget"),
    ),
  );
  return out;
}
