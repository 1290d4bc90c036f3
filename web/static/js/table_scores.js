// The final scores, and the rematch below them (docs/seats.md, "Rematch"). Loaded by
// table_draw.js with the first result a game shows.
import { askRematch, keptSeat } from "./conn.js";
import { h, has, t } from "./i18n.js";
import { $ } from "./page.js";
import { ruleLink, seatNames } from "./pieces.js";
import { context } from "./table_conn.js";
import { replaceChildren, seatName, showNotice, state } from "./table_state.js";

export function renderScores(game, renderer) {
  const el = $("scores");
  const result = renderer.result(game);
  el.hidden = !result;
  if (!result) return;
  const n = result.scores.length;
  const categories = [];
  result.breakdown.forEach((b) => {
    Object.keys(b).forEach((c) => {
      if (categories.indexOf(c) < 0) categories.push(c);
    });
  });
  const head = h(
    "tr",
    null,
    h("th", { scope: "col" }, t("scores.category")),
    range(n).map((s) => {
      return h("th", { scope: "col" }, renderer.playerBadge(s, game, context(game)));
    }),
  );
  const rows = categories.map((c) => {
    return h(
      "tr",
      null,
      h(
        "th",
        { scope: "row" },
        has("score." + c) ? t("score." + c) : c,
        " ",
        ruleLink((game.score_rules || {})[c]),
      ),
      range(n).map((s) => {
        return h("td", null, result.breakdown[s][c] || 0);
      }),
    );
  });
  const total = h(
    "tr",
    { class: "total" },
    h("th", { scope: "row" }, t("scores.total")),
    range(n).map((s) => {
      const win = result.winners.indexOf(s) >= 0;
      return h("td", { class: win ? "winner" : null }, result.scores[s], win ? " ♛" : "");
    }),
  );
  const winners = seatNames(result.winners, seatName);
  replaceChildren(el, [
    h("h2", { id: "scores-title" }, t("scores.title")),
    h(
      "p",
      { class: "winner-line", id: "winner-line" },
      t(result.winners.length > 1 ? "scores.winners" : "scores.winner", { names: winners }),
    ),
    h(
      "div",
      { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "scores-title" },
      h("table", { id: "score-table" }, h("thead", null, head), h("tbody", null, rows, total)),
    ),
  ]);
}

// At the end, a seated person asks for a rematch, or joins the one another asked for
// (docs/seats.md, "Rematch"): below the final scores.
export function renderRematch(table) {
  const mine = state.token || (state.lost && state.lost.token);
  if (table.status !== "finished" || !mine || $("scores").hidden) return;
  const joining = !!table.rematch;
  const joined = joining ? keptSeat(table.rematch) : null;
  if (joined) {
    // Already seated there (this browser keeps its link): open it, nothing left to join.
    $("scores").appendChild(
      h(
        "div",
        { class: "rematch", id: "rematch" },
        h(
          "a",
          {
            class: "button primary",
            id: "rematch-open",
            href: "/t/" + joined.id + "#seat=" + joined.token,
          },
          t("rematch.open"),
        ),
      ),
    );
    return;
  }
  $("scores").appendChild(
    h(
      "div",
      { class: "rematch", id: "rematch" },
      joining ? h("p", { class: "rematch-waiting" }, t("rematch.waiting")) : null,
      h(
        "button",
        {
          type: "button",
          id: "rematch-button",
          class: joining ? "primary" : null,
          "data-focus": "rematch",
          onclick(ev) {
            ev.target.disabled = true;
            askRematch(state.tableId, mine, table.title || table.game).catch((err) => {
              ev.target.disabled = false;
              showNotice(err);
            });
          },
        },
        t(joining ? "rematch.join" : "rematch.button"),
      ),
      h("p", { class: "muted" }, t("rematch.hint")),
    ),
  );
}

function range(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(i);
  return out;
}
