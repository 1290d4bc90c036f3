// A learning table (docs/ui.md, "Learning table"): the badge everyone sees, and for the seat
// whose decision it is a "What would the bot do?" button under the prompt that asks
// POST /api/tables/{id}/seats/{seat}/suggest and lists the strong bot's three best moves, each
// in the game's own words with the search's reason. Loaded by table.js only on a learning
// table; its strings (web/i18n/learning/) come with it.

import { t, h, errorText, loadStrings } from "./i18n.js";
import { api } from "./conn.js";
import { context } from "./table_conn.js";
import { mySeat, state } from "./table_state.js";

const words = loadStrings("learning");
// The answer for the decision on screen (its legal list), kept across redraws of it.
let held = { key: null, answer: null, error: null, asking: false };

// Called by table.js after every draw of a learning table: `s` is {table, game, seat, token,
// tableId, renderer, ctx} (game: the seat's view; seat null for a spectator).
// The table page's hook (table_draw.js): the badge and the button for this page's seat.
export function mountOnPage(table) {
  const game = state.doc.game;
  const seat = state.replay ? null : mySeat();
  const renderer = state.renderers[table.game];
  const { token, tableId } = state;
  mountLearning({ table, game, seat, token, tableId, renderer, ctx: context(game) });
}

export function mountLearning(s) {
  words.then(() => {
    placeLearning(s);
  });
}

function placeLearning(s) {
  let badge = document.getElementById("learning-badge");
  if (!badge) {
    badge = h(
      "p",
      { id: "learning-badge", class: "learning-badge", role: "note" },
      t("learn.badge"),
    );
    const banner = document.getElementById("banner");
    banner.parentNode.insertBefore(badge, banner.nextSibling);
  }
  const old = document.getElementById("learn");
  if (old) old.remove();
  const prompt = document.getElementById("prompt");
  if (s.seat === null || s.table.status !== "playing" || !s.game || !s.renderer || !prompt) return;
  const legal = s.game.legal || [];
  const key = s.table.id + ":" + JSON.stringify(legal);
  if (held.key !== key) held = { key, answer: null, error: null, asking: false };
  const mine = legal.length > 0 && s.renderer.isMyTurn(s.game, s.seat);
  const button = h(
    "button",
    { type: "button", id: "learn-ask", class: "small-btn", disabled: !mine || held.asking },
    held.asking ? t("learn.asking") : t("learn.ask"),
  );
  button.addEventListener("click", () => {
    askBot(s, key);
  });
  prompt.appendChild(
    h(
      "div",
      { id: "learn", class: "learn", "aria-live": "polite" },
      button,
      mine ? null : h("span", { class: "muted" }, " " + t("learn.not_now")),
      held.error ? h("p", { class: "error" }, held.error) : null,
      mine && held.answer ? botChoices(held.answer, s) : null,
    ),
  );
}

function askBot(s, key) {
  held.asking = true;
  held.error = null;
  placeLearning(s);
  api("POST", "/api/tables/" + s.tableId + "/seats/" + s.seat + "/suggest", {}, s.token)
    .then((res) => {
      if (held.key === key) held.answer = res.suggestions;
    })
    .catch((err) => {
      if (held.key === key) held.error = errorText(err);
    })
    .then(() => {
      if (held.key !== key) return;
      held.asking = false;
      placeLearning(s);
    });
}

function botChoices(list, s) {
  return h(
    "div",
    { class: "learn-list" },
    h("p", { class: "muted" }, t("learn.title")),
    h(
      "ol",
      { id: "learn-choices" },
      list.map((c) => {
        const move = s.renderer.describe
          ? s.renderer.describe(c.cmd, s.ctx)
          : JSON.stringify(c.cmd);
        return h("li", null, h("b", null, move), " — ", botReason(c, list.length));
      }),
    ),
  );
}

// The search's own figures, nothing more: how its simulated games went with the move, and
// what the game's heuristic says the move adds, where it prices one.
function botReason(c, shown) {
  if (c.total === 0 && shown === 1) return t("learn.only");
  const parts =
    c.visits > 0
      ? [t("learn.win", { p: Math.round(c.win * 100), n: c.visits })]
      : [t("learn.untried")];
  if (c.points !== null && c.points !== undefined) {
    parts.push(t("learn.points", { v: (c.points > 0 ? "+" : "") + c.points.toFixed(1) }));
  }
  return parts.join("; ");
}
