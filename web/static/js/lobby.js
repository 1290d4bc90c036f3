// Lobby: create a table, share the invite link, watch who joins, start; this browser's
// tables ("your tables", mine.js) and public tables to join or watch.
import { errorText, h, t, translatePage } from "./i18n.js";
import { api, rememberTable } from "./conn.js";
import { clockLabel } from "./clocks.js";
import { clockSelect, presetClock, presetOf } from "./clock_choice.js";
import { refreshMine, startMine } from "./mine.js";
import { $ } from "./page.js";

var games = [];
var created = null; // {id, token, seat}
var poller = null;

function list(data, key) {
  return Array.isArray(data) ? data : (data && data[key]) || [];
}

function currentGame() {
  var name = $("game").value;
  return games.filter(function (g) { return g.name === name; })[0] || { min_seats: 2, max_seats: 5, schema: [] };
}

// The chosen game's own options, drawn from its manifest (GET /api/games, "schema"): a
// choice is a row of radio buttons, a yes/no a checkbox, a number a number field. Choices go
// where planning always was, the rest below the clock. A value the player set stays when
// the next game offers the same option.
function optionInput(opt, value) {
  var id = "option-" + opt.key;
  if (opt.type === "choice") {
    return h("fieldset", { id: id, "data-option": opt.key, "data-type": "choice" },
      h("legend", null, t(opt.label)),
      opt.choices.map(function (c) {
        return h("label", { class: "inline" },
          h("input", { type: "radio", name: opt.key, value: c.value, checked: c.value === value ? true : null }),
          " ", h("span", null, t(c.label)));
      }));
  }
  var attrs = { id: id, name: opt.key, "data-option": opt.key, "data-type": opt.type };
  if (opt.type === "bool") {
    attrs.type = "checkbox";
    attrs.checked = value === true ? true : null;
    return h("label", { class: "inline" }, h("input", attrs), " ", h("span", null, t(opt.label)));
  }
  attrs.type = "number";
  attrs.value = value;
  if (opt.minimum != null) attrs.min = opt.minimum;
  if (opt.maximum != null) attrs.max = opt.maximum;
  return h("label", null, h("span", null, t(opt.label)), h("input", attrs));
}

function chosenOptions() {
  var out = {};
  document.querySelectorAll("#create-form [data-option]").forEach(function (el) {
    var key = el.getAttribute("data-option"), type = el.getAttribute("data-type");
    if (type === "choice") {
      var on = el.querySelector("input:checked");
      if (on) out[key] = on.value;
    } else if (type === "bool") out[key] = el.checked;
    else out[key] = Number(el.value);
  });
  return out;
}

function fillOptions() {
  var kept = chosenOptions(), choices = $("game-choices"), rest = $("game-flags");
  choices.innerHTML = "";
  rest.innerHTML = "";
  (currentGame().schema || []).forEach(function (opt) {
    var value = opt.key in kept ? kept[opt.key] : opt.default;
    if (opt.type === "choice" && !opt.choices.some(function (c) { return c.value === value; })) value = opt.default;
    if (opt.type === "bool" && typeof value !== "boolean") value = opt.default;
    (opt.type === "choice" ? choices : rest).appendChild(optionInput(opt, value));
  });
}

// Two lines on what the chosen game is, its seats and length, and its how-to-play link.
function showAbout() {
  var name = $("game").value;
  document.querySelectorAll("[data-about]").forEach(function (el) {
    el.hidden = el.getAttribute("data-about") !== name;
  });
}

function fillSeatCounts() {
  fillOptions();
  showAbout();
  var g = currentGame(), select = $("seat-count"), keep = Number(select.value) || 3;
  select.innerHTML = "";
  for (var n = g.min_seats; n <= g.max_seats; n++) {
    select.appendChild(h("option", { value: n, selected: n === keep }, n));
  }
  fillSeatKinds();
}

function seatKindSelect(seat) {
  var kinds = ["human", "random", "greedy", "mcts"];
  return h("select", { id: "seat-kind-" + seat, "aria-label": t("lobby.seat_n", { n: seat + 1 }) },
    kinds.map(function (k) {
      return h("option", { value: k, selected: k === "greedy" && seat > 0 ? true : null }, t("bot." + k));
    }));
}

function fillSeatKinds() {
  var n = Number($("seat-count").value), ol = $("seat-list");
  ol.innerHTML = "";
  ol.appendChild(h("li", null, h("span", { class: "seat-you" }, t("lobby.you"))));
  for (var seat = 1; seat < n; seat++) ol.appendChild(h("li", null, seatKindSelect(seat)));
}

function createBody() {
  var n = Number($("seat-count").value), bots = [null];
  for (var seat = 1; seat < n; seat++) {
    var kind = $("seat-kind-" + seat).value;
    bots.push(kind === "human" ? null : kind);
  }
  return {
    game: $("game").value,
    seats: n,
    options: chosenOptions(),
    bots: bots,
    name: $("player-name").value.trim(),
    public: $("public").checked,
    clock: presetClock($("clock").value),
    // A table-level option, like the clock: every game offers it.
    learning: $("learning").checked,
  };
}

function showError(id, err) {
  var el = $(id);
  el.textContent = t("error.prefix") + " " + errorText(err);
  el.hidden = false;
}

function onCreate(ev) {
  ev.preventDefault();
  $("create-error").hidden = true;
  var body = createBody();
  localStorage.setItem("gh_name", body.name);
  $("create-button").disabled = true;
  api("POST", "/api/tables", body).then(function (res) {
    created = { id: res.table_id || res.id || (res.table && res.table.id), token: res.token, seat: res.seat || 0,
      invite: res.invite };
    var title = $("game").selectedOptions[0].textContent;
    rememberTable({ id: created.id, seat: created.seat, token: created.token, title: title });
    showCreated();
  }).catch(function (err) {
    showError("create-error", err);
  }).then(function () {
    $("create-button").disabled = false;
  });
}

function showCreated() {
  $("created-card").hidden = false;
  $("create-card").hidden = true;
  $("created-clock").innerHTML = "";
  // The invite secret rides in the fragment, which browsers never send to a server.
  $("invite-link").value = location.origin + "/t/" + created.id + (created.invite ? "#invite=" + created.invite : "");
  $("open-table").href = "/t/" + created.id + "#seat=" + created.token;
  refreshMine();
  refreshCreated();
  clearInterval(poller);
  poller = setInterval(refreshCreated, 2000);
  $("created-card").scrollIntoView({ block: "start" });
}

function seatLine(s) {
  var who = s.bot ? t("bot." + s.bot) : s.name ? s.name : t("lobby.free_seat");
  return h("li", { class: s.name || s.bot ? "taken" : "free" },
    h("span", { class: "seat-no" }, t("lobby.seat_n", { n: s.seat + 1 })), " ", who);
}

function refreshCreated() {
  api("GET", "/api/tables/" + created.id).then(function (table) {
    table = table.table || table;
    var ol = $("joined-list");
    ol.innerHTML = "";
    (table.seats || []).forEach(function (s) { ol.appendChild(seatLine(s)); });
    var open = table.status === "open" || table.status === "waiting" || table.status === "lobby";
    $("start-button").hidden = !open;
    showCreatedClock(table.clock, open);
    if (!open) {
      clearInterval(poller);
      $("open-table").classList.add("primary");
    }
  }).catch(function () { /* the next poll tries again */ });
}

// The creator may change the clock until the start; afterwards it is only shown.
function showCreatedClock(clock, open) {
  var holder = $("created-clock"), select = $("created-clock-select");
  if (!open) {
    holder.textContent = clockLabel(clock);
    return;
  }
  if (!select) {
    holder.innerHTML = "";
    select = clockSelect("created-clock-select", presetOf(clock));
    select.addEventListener("change", function () {
      api("POST", "/api/tables/" + created.id + "/clock", presetClock(select.value), created.token)
        .catch(function (err) { showError("start-error", err); });
    });
    holder.appendChild(select);
  }
}

function onStart() {
  $("start-error").hidden = true;
  api("POST", "/api/tables/" + created.id + "/start", {}, created.token).then(function () {
    location.href = $("open-table").href;
  }).catch(function (err) { showError("start-error", err); });
}

function onCopy() {
  var input = $("invite-link");
  input.select();
  var done = function () { $("copy-invite").textContent = t("lobby.copied"); };
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, done);
  else done();
}

// Tables still taking players (join) and games under way (watch as a spectator).
function renderOpen(data) {
  var ul = $("open-list"), items = list(data, "tables").filter(function (tb) {
    return tb.status === "open" || tb.status === "playing";
  });
  ul.innerHTML = "";
  items.forEach(function (tb) {
    var seats = tb.seats || [];
    var people = seats.filter(function (s) { return s.name && !s.bot; }).map(function (s) { return s.name; });
    var taken = seats.filter(function (s) { return s.name || s.bot; }).length;
    var open = tb.status === "open";
    ul.appendChild(h("li", null,
      h("a", { href: "/t/" + tb.id, class: "button small-btn" }, t(open ? "lobby.join" : "lobby.watch")), " ",
      h("b", null, tb.title || tb.game), " · ", people.join(", "), " · ", clockLabel(tb.clock), " ",
      tb.learning ? h("span", { class: "badge learning-badge" }, t("lobby.learning_badge")) : null, tb.learning ? " " : null,
      h("span", { class: "muted" }, open ? t("lobby.taken", { n: taken, of: seats.length }) : t("lobby.playing"))));
  });
  $("open-empty").hidden = items.length > 0;
}

function refreshOpen() {
  api("GET", "/api/tables").then(renderOpen).catch(function () { /* next time */ });
}

function init() {
  translatePage();
  $("player-name").value = localStorage.getItem("gh_name") || "";
  $("create-form").addEventListener("submit", onCreate);
  $("game").addEventListener("change", fillSeatCounts);
  $("seat-count").addEventListener("change", fillSeatKinds);
  $("start-button").addEventListener("click", onStart);
  $("copy-invite").addEventListener("click", onCopy);
  $("another").addEventListener("click", function () {
    clearInterval(poller);
    $("created-card").hidden = true;
    $("create-card").hidden = false;
  });
  $("clock-choice").appendChild(clockSelect("clock"));
  startMine();
  // Without the list (the server is away) the form stays empty: creating needs it anyway.
  api("GET", "/api/games").then(function (data) {
    games = list(data, "games");
  }).catch(function () {
    games = [];
  }).then(function () {
    $("game").innerHTML = "";
    games.forEach(function (g) {
      $("game").appendChild(h("option", { value: g.name }, g.title || g.name));
    });
    fillSeatCounts();
  });
  refreshOpen();
  setInterval(refreshOpen, 5000);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
