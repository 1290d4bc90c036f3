// The lobby's "your tables": every seat link this browser keeps (localStorage only), with
// what the server says of each (POST /api/tables/mine, one request for all): the round,
// whose turn it is, your move and the time left, the result, a rematch.
import { h, t } from "./i18n.js";
import { api, askRematch, forgetTable, keptSeat, recentTables } from "./conn.js";
import { countdown } from "./clocks.js";
import { $ } from "./page.js";
import { seatName, seatNames } from "./pieces.js";

var POLL_MS = 20000;
var answers = {}; // "id seat-token" -> the server's answer for that link
var offset = 0; // the server's time minus this browser's, in seconds
var asking = false;

function key(entry) {
  return entry.id + " " + entry.token;
}

function links() {
  return recentTables().filter(function (e) { return e.id && e.token; });
}

// Draw the list now (from what this browser knows), ask the server, and keep asking.
export function startMine() {
  renderMine();
  refreshMine();
  setInterval(function () { if (!document.hidden) refreshMine(); }, POLL_MS);
  setInterval(tick, 1000);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) refreshMine();
  });
}

export function refreshMine() {
  var asked = links();
  renderMine();
  if (!asked.length || asking) return;
  asking = true;
  var sentAt = Date.now();
  var body = { seats: asked.map(function (e) { return { table_id: e.id, token: e.token }; }) };
  api("POST", "/api/tables/mine", body).then(function (res) {
    offset = res.server_time - (sentAt + Date.now()) / 2000;
    answers = {};
    res.tables.forEach(function (answer, i) { answers[key(asked[i])] = answer; });
    $("mine-error").hidden = true;
    renderMine();
  }).catch(function () {
    $("mine-error").textContent = t("mine.unreachable");
    $("mine-error").hidden = false;
  }).then(function () { asking = false; });
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
  var entries = links();
  $("mine-card").hidden = !entries.length;
  var ranked = entries.map(function (e, i) { return { e: e, i: i, r: rank(answers[key(e)]) }; });
  ranked.sort(function (a, b) { return a.r - b.r || a.i - b.i; });
  var ul = $("mine-list");
  ul.innerHTML = "";
  ranked.forEach(function (x) { ul.appendChild(item(x.e, answers[key(x.e)])); });
}

// The seats of one answer by their names, as the table names them.
function namesIn(answer, seats) {
  return seatNames(seats, function (seat) { var s = answer.seats[seat]; return seatName(s, s.seat); });
}

function item(entry, answer) {
  var yours = !!(answer && answer.your_move);
  var gone = !!(answer && answer.error);
  var people = answer && answer.seats ? namesIn(answer, answer.seats.map(function (s) { return s.seat; })) : "";
  return h("li", { class: "mine-item" + (yours ? " your-move" : "") + (gone ? " gone" : ""), "data-table": entry.id },
    h("div", { class: "mine-text" },
      h("div", { class: "mine-head" },
        h("b", null, (answer && answer.title) || entry.title || entry.id),
        people ? h("span", { class: "mine-people" }, " · " + people) : null,
        answer && answer.learning ? [" ", h("span", { class: "learning-badge" }, t("lobby.learning_badge"))] : null),
      h("div", { class: "mine-status" }, status(answer))),
    h("div", { class: "mine-actions" }, actions(entry, answer, yours)));
}

// Messages someone else wrote since this browser last showed the table's chat (chat.js).
function unread(answer) {
  var read = Number(localStorage.getItem("gh_chat_read:" + answer.table_id) || 0);
  return answer.chat > read ? h("span", { class: "mine-chat" }, t("mine.chat_unread")) : null;
}

function status(answer) {
  if (!answer) return "\u00a0";
  if (answer.error) return t(answer.error === "bad_token" ? "mine.bad_token" : "mine.unknown");
  if (answer.status === "open") {
    var taken = answer.seats.filter(function (s) { return s.name || s.bot; }).length;
    return t("mine.open_table", { n: taken, of: answer.seats.length });
  }
  if (answer.status === "finished") return [finished(answer), unread(answer) ? " · " : null, unread(answer)];
  var round = answer.round === null || answer.round === undefined ? null
    : answer.rounds ? t("mine.round_of", { n: answer.round, of: answer.rounds }) : t("mine.round", { n: answer.round });
  var parts = [round ? h("span", null, round) : null];
  if (answer.your_move) {
    parts.push(h("strong", { class: "mine-move" }, t("mine.your_move")));
    if (answer.deadline) parts.push(h("span", { class: "mine-left", "data-deadline": answer.deadline }, left(answer.deadline)));
  } else if (!answer.plays) {
    parts.push(h("span", null, t("mine.stand_in")));
  } else if (answer.to_act.length) {
    parts.push(h("span", null, t("mine.waiting_for", { names: namesIn(answer, answer.to_act) })));
  }
  parts.push(unread(answer));
  return parts.filter(Boolean).reduce(function (all, part) {
    return all.length ? all.concat([" · ", part]) : [part];
  }, []);
}

function finished(answer) {
  var result = answer.result;
  if (!result || !result.winners) return t("mine.finished");
  var winners = namesIn(answer, result.winners);
  return t("mine.finished") + " · " + t(result.winners.length > 1 ? "scores.winners" : "scores.winner", { names: winners });
}

function left(deadline) {
  return t("mine.time_left", { time: countdown(deadline - (Date.now() / 1000 + offset)) });
}

function tick() {
  document.querySelectorAll("#mine-list .mine-left").forEach(function (el) {
    el.textContent = left(Number(el.getAttribute("data-deadline")));
  });
}

function actions(entry, answer, yours) {
  var out = [];
  if (!answer || !answer.error) {
    out.push(h("a", { class: "button" + (yours ? " primary" : ""), href: "/t/" + entry.id + "#seat=" + entry.token },
      t("mine.open")));
  }
  var joined = answer && answer.rematch ? keptSeat(answer.rematch) : null;
  if (joined) {
    // Already seated at the rematch (its own line is in the list too): open it.
    out.push(h("a", { class: "button", href: "/t/" + joined.id + "#seat=" + joined.token }, t("rematch.open")));
  } else if (answer && answer.status === "finished") {
    out.push(h("button", { type: "button", class: answer.rematch ? "primary" : null, onclick: function (ev) {
      ev.target.disabled = true;
      askRematch(entry.id, entry.token, answer.title).catch(function () {
        ev.target.disabled = false;
        refreshMine();
      });
    } }, t(answer.rematch ? "rematch.join" : "rematch.button")));
  }
  out.push(h("button", { type: "button", class: "forget", title: t("mine.forget_label"),
    "aria-label": t("mine.forget_label"), onclick: function () {
      forgetTable(entry.id, entry.token);
      delete answers[key(entry)];
      renderMine();
    } }, t("mine.forget")));
  return out;
}
