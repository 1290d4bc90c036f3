// Lobby: create a table, share the invite link, watch who joins, start; this browser's
// tables ("your tables", mine.js) and public tables to join or watch.
import { errorText, h, t, translatePage } from "./i18n.js";
import { api, rememberTable } from "./conn.js";
import { clockLabel } from "./clocks.js";
import { clockSelect, presetClock, presetOf } from "./clock_choice.js";
import { refreshMine, startMine } from "./mine.js";
import { $, deferWhilePressed, watchPresses } from "./page.js";

let games = [];
let created = null; // {id, token, seat}
let poller = null;

function list(data, key) {
  return Array.isArray(data) ? data : (data && data[key]) || [];
}

function currentGame() {
  const name = $("game").value;
  return (
    games.filter((g) => {
      return g.name === name;
    })[0] || { min_seats: 2, max_seats: 5, schema: [] }
  );
}

// The chosen game's own options, drawn from its manifest (GET /api/games, "schema"): a
// choice is a row of radio buttons, a yes/no a checkbox, a number a number field. Choices go
// where planning always was, the rest below the clock. A value the player set stays when
// the next game offers the same option.
function optionInput(opt, value) {
  const id = "option-" + opt.key;
  if (opt.type === "choice") {
    return h(
      "fieldset",
      { id, "data-option": opt.key, "data-type": "choice" },
      h("legend", null, t(opt.label)),
      opt.choices.map((c) => {
        return h(
          "label",
          { class: "inline" },
          h("input", {
            type: "radio",
            name: opt.key,
            value: c.value,
            checked: c.value === value ? true : null,
          }),
          " ",
          h("span", null, t(c.label)),
        );
      }),
    );
  }
  const attrs = { id, name: opt.key, "data-option": opt.key, "data-type": opt.type };
  if (opt.type === "bool") {
    attrs.type = "checkbox";
    attrs.checked = value === true ? true : null;
    return h("label", { class: "inline" }, h("input", attrs), " ", h("span", null, t(opt.label)));
  }
  attrs.type = "number";
  attrs.value = value;
  if (opt.minimum !== null && opt.minimum !== undefined) attrs.min = opt.minimum;
  if (opt.maximum !== null && opt.maximum !== undefined) attrs.max = opt.maximum;
  return h("label", null, h("span", null, t(opt.label)), h("input", attrs));
}

function chosenOptions() {
  const out = {};
  document.querySelectorAll("#create-form [data-option]").forEach((el) => {
    const key = el.getAttribute("data-option"),
      type = el.getAttribute("data-type");
    if (type === "choice") {
      const on = el.querySelector("input:checked");
      if (on) out[key] = on.value;
    } else if (type === "bool") out[key] = el.checked;
    else out[key] = Number(el.value);
  });
  return out;
}

function fillOptions() {
  const kept = chosenOptions(),
    choices = $("game-choices"),
    rest = $("game-flags");
  choices.innerHTML = "";
  rest.innerHTML = "";
  (currentGame().schema || []).forEach((opt) => {
    let value = opt.key in kept ? kept[opt.key] : opt.default;
    if (
      opt.type === "choice" &&
      !opt.choices.some((c) => {
        return c.value === value;
      })
    )
      value = opt.default;
    if (opt.type === "bool" && typeof value !== "boolean") value = opt.default;
    (opt.type === "choice" ? choices : rest).appendChild(optionInput(opt, value));
  });
}

// Two lines on what the chosen game is, its seats and length, and its how-to-play link.
function showAbout() {
  const name = $("game").value;
  document.querySelectorAll("[data-about]").forEach((el) => {
    el.hidden = el.getAttribute("data-about") !== name;
  });
}

function fillSeatCounts() {
  fillOptions();
  showAbout();
  const g = currentGame(),
    select = $("seat-count"),
    keep = Number(select.value) || 3;
  select.innerHTML = "";
  for (let n = g.min_seats; n <= g.max_seats; n++) {
    select.appendChild(h("option", { value: n, selected: n === keep }, n));
  }
  fillSeatKinds();
}

function seatKindSelect(seat) {
  const kinds = ["human", "random", "greedy", "mcts"];
  return h(
    "select",
    { id: "seat-kind-" + seat, "aria-label": t("lobby.seat_n", { n: seat + 1 }) },
    kinds.map((k) => {
      return h(
        "option",
        { value: k, selected: k === "greedy" && seat > 0 ? true : null },
        t("bot." + k),
      );
    }),
  );
}

function fillSeatKinds() {
  const n = Number($("seat-count").value),
    ol = $("seat-list");
  ol.innerHTML = "";
  ol.appendChild(h("li", null, h("span", { class: "seat-you" }, t("lobby.you"))));
  for (let seat = 1; seat < n; seat++) ol.appendChild(h("li", null, seatKindSelect(seat)));
}

function createBody() {
  const n = Number($("seat-count").value),
    bots = [null];
  for (let seat = 1; seat < n; seat++) {
    const kind = $("seat-kind-" + seat).value;
    bots.push(kind === "human" ? null : kind);
  }
  return {
    game: $("game").value,
    seats: n,
    options: chosenOptions(),
    bots,
    name: $("player-name").value.trim(),
    public: $("public").checked,
    clock: presetClock($("clock").value),
    // A table-level option, like the clock: every game offers it.
    learning: $("learning").checked,
  };
}

function showError(id, err) {
  const el = $(id);
  el.textContent = t("error.prefix") + " " + errorText(err);
  el.hidden = false;
}

function onCreate(ev) {
  ev.preventDefault();
  $("create-error").hidden = true;
  const body = createBody();
  localStorage.setItem("gh_name", body.name);
  $("create-button").disabled = true;
  api("POST", "/api/tables", body)
    .then((res) => {
      created = {
        id: res.table_id || res.id || (res.table && res.table.id),
        token: res.token,
        seat: res.seat || 0,
        invite: res.invite,
      };
      const title = $("game").selectedOptions[0].textContent;
      rememberTable({ id: created.id, seat: created.seat, token: created.token, title });
      showCreated();
    })
    .catch((err) => {
      showError("create-error", err);
    })
    .then(() => {
      $("create-button").disabled = false;
    });
}

function showCreated() {
  $("created-card").hidden = false;
  $("create-card").hidden = true;
  $("created-clock").innerHTML = "";
  // The invite secret rides in the fragment, which browsers never send to a server.
  $("invite-link").value =
    location.origin + "/t/" + created.id + (created.invite ? "#invite=" + created.invite : "");
  $("open-table").href = "/t/" + created.id + "#seat=" + created.token;
  refreshMine();
  refreshCreated();
  clearInterval(poller);
  poller = setInterval(refreshCreated, 2000);
  $("created-card").scrollIntoView({ block: "start" });
}

function seatLine(s) {
  const who = s.bot ? t("bot." + s.bot) : s.name ? s.name : t("lobby.free_seat");
  return h(
    "li",
    { class: s.name || s.bot ? "taken" : "free" },
    h("span", { class: "seat-no" }, t("lobby.seat_n", { n: s.seat + 1 })),
    " ",
    who,
  );
}

function refreshCreated() {
  api("GET", "/api/tables/" + created.id)
    .then((table) => {
      table = table.table || table;
      const ol = $("joined-list");
      ol.innerHTML = "";
      (table.seats || []).forEach((s) => {
        ol.appendChild(seatLine(s));
      });
      const open =
        table.status === "open" || table.status === "waiting" || table.status === "lobby";
      $("start-button").hidden = !open;
      showCreatedClock(table.clock, open);
      if (!open) {
        clearInterval(poller);
        $("open-table").classList.add("primary");
      }
    })
    .catch(() => {
      /* the next poll tries again */
    });
}

// The creator may change the clock until the start; afterwards it is only shown.
function showCreatedClock(clock, open) {
  const holder = $("created-clock");
  let select = $("created-clock-select");
  if (!open) {
    holder.textContent = clockLabel(clock);
    return;
  }
  if (!select) {
    holder.innerHTML = "";
    select = clockSelect("created-clock-select", presetOf(clock));
    select.addEventListener("change", () => {
      api(
        "POST",
        "/api/tables/" + created.id + "/clock",
        presetClock(select.value),
        created.token,
      ).catch((err) => {
        showError("start-error", err);
      });
    });
    holder.appendChild(select);
  }
}

function onStart() {
  $("start-error").hidden = true;
  api("POST", "/api/tables/" + created.id + "/start", {}, created.token)
    .then(() => {
      location.href = $("open-table").href;
    })
    .catch((err) => {
      showError("start-error", err);
    });
}

function onCopy() {
  const input = $("invite-link");
  input.select();
  const done = function () {
    $("copy-invite").textContent = t("lobby.copied");
  };
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, done);
  else done();
}

// Tables still taking players (join) and games under way (watch as a spectator).
function renderOpen(data) {
  // Drawn anew each time: under a press the list is asked again once it ends, so that a tap
  // on Join never falls between the old list and the new one.
  if (deferWhilePressed(refreshOpen)) return;
  const ul = $("open-list"),
    items = list(data, "tables").filter((tb) => {
      return tb.status === "open" || tb.status === "playing";
    });
  ul.innerHTML = "";
  items.forEach((tb) => {
    const seats = tb.seats || [];
    const people = seats
      .filter((s) => {
        return s.name && !s.bot;
      })
      .map((s) => {
        return s.name;
      });
    const taken = seats.filter((s) => {
      return s.name || s.bot;
    }).length;
    const open = tb.status === "open";
    ul.appendChild(
      h(
        "li",
        null,
        h(
          "a",
          { href: "/t/" + tb.id, class: "button small-btn" },
          t(open ? "lobby.join" : "lobby.watch"),
        ),
        " ",
        h("b", null, tb.title || tb.game),
        " · ",
        people.join(", "),
        " · ",
        clockLabel(tb.clock),
        " ",
        tb.learning
          ? h("span", { class: "badge learning-badge" }, t("lobby.learning_badge"))
          : null,
        tb.learning ? " " : null,
        h(
          "span",
          { class: "muted" },
          open ? t("lobby.taken", { n: taken, of: seats.length }) : t("lobby.playing"),
        ),
      ),
    );
  });
  $("open-empty").hidden = items.length > 0;
}

function refreshOpen() {
  api("GET", "/api/tables")
    .then(renderOpen)
    .catch(() => {
      /* next time */
    });
}

function init() {
  translatePage();
  watchPresses();
  $("player-name").value = localStorage.getItem("gh_name") || "";
  $("create-form").addEventListener("submit", onCreate);
  $("game").addEventListener("change", fillSeatCounts);
  $("seat-count").addEventListener("change", fillSeatKinds);
  $("start-button").addEventListener("click", onStart);
  $("copy-invite").addEventListener("click", onCopy);
  $("another").addEventListener("click", () => {
    clearInterval(poller);
    $("created-card").hidden = true;
    $("create-card").hidden = false;
  });
  $("clock-choice").appendChild(clockSelect("clock"));
  startMine();
  // Without the list (the server is away) the form stays empty: creating needs it anyway.
  api("GET", "/api/games")
    .then((data) => {
      games = list(data, "games");
    })
    .catch(() => {
      games = [];
    })
    .then(() => {
      $("game").innerHTML = "";
      games.forEach((g) => {
        $("game").appendChild(h("option", { value: g.name }, g.title || g.name));
      });
      fillSeatCounts();
    });
  refreshOpen();
  setInterval(refreshOpen, 5000);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
