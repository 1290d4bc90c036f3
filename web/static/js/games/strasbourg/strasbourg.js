// Strasbourg's renderer (the default export): the board (strasbourg_board.js), the screens
// (strasbourg_players.js), the prompt with the tasks (the later phases' prompts are
// strasbourg_prompts.js, loaded when first needed), the status line and the summaries.
// Prompts are built only from the view's "legal" list: the player picks one of the listed
// commands and sends it on Confirm. No rule lives here.
import { h, t } from "../../i18n.js";
import { redraw } from "../../page.js";
import { badge, isMyTurn, result, ruleLink, same, seatNames } from "../../pieces.js";
import {
  LOG_FORMATS,
  confirmRow,
  describe,
  draft,
  orderedNote,
  stepText,
} from "./strasbourg_data.js";
import { board } from "./strasbourg_board.js";
import { goodsChips, players, taskText } from "./strasbourg_players.js";

// The page footnote names the data file of the game being shown.
function footnote(game) {
  return game.data_note
    ? { text: t("sb.data_note", { file: game.data_file }), title: game.data_note }
    : null;
}

// ---- the council phase, as a summary (summary.js shows it) ---------------------------

// The council phases' summaries (strasbourg_summary.js) are loaded with the first council
// scored in a log; until they are here the answer is null (not known yet), and the page is
// drawn again when they come.
let summaryModule = null;
let summaryLoading = false;
function councils(log, game) {
  if (summaryModule) return summaryModule.summaries(log, game);
  if (
    !log.some((e) => {
      return e.type === "CouncilScored";
    })
  )
    return [];
  if (!summaryLoading) {
    summaryLoading = true;
    import("./strasbourg_summary.js").then((m) => {
      summaryModule = m;
      redraw();
    });
  }
  return null;
}

// ---- prompts ----------------------------------------------------------------------

// The prompts of a round's later phases (planning, influence, the council's choices:
// strasbourg_prompts.js) are loaded at the first task picked, while this seat waits for the
// others' tasks, or when the table is past the tasks phase (a game's first, which needs none
// of them). Until they are here the prompt card holds the holdings alone, so that the focus
// stays in the prompt, and the page is drawn again when they come (its heading then).
let laterPrompts = null;
let laterLoading = false;
function loadLaterPrompts() {
  if (laterLoading) return;
  laterLoading = true;
  import("./strasbourg_prompts.js").then((m) => {
    laterPrompts = m;
    redraw();
  });
}

function prompt(game, ctx) {
  if (!game || ctx.readOnly || ctx.mySeat === null || game.phase === "over") return null;
  draft.sync(game);
  const legal = game.legal || [];
  if (game.phase !== "tasks" || !legal.length) loadLaterPrompts();
  if (!legal.length) return waitingNote(game, ctx);
  let body;
  if (game.phase === "tasks") body = tasksPrompt(game, legal, ctx);
  else if (!laterPrompts) body = null;
  else if (game.phase === "planning") body = laterPrompts.planningPrompt(game, legal, ctx);
  else if (game.phase === "influence") body = laterPrompts.influencePrompt(game, legal, ctx);
  else body = laterPrompts.choicePrompt(game, legal, ctx);
  return h(
    "div",
    {
      class: "card prompt-card sb-prompt" + (isMyTurn(game, ctx.mySeat) ? " mine" : ""),
      id: "prompt-card",
    },
    holdings(game),
    body,
  );
}

function holdings(game) {
  const me = game.me;
  return h(
    "p",
    { class: "holdings" },
    h("span", null, t("sb.coins") + ": ", h("b", { id: "prompt-coins" }, me.coins)),
    " · ",
    h("span", null, t("sb.privileges") + ": ", h("b", null, me.privileges)),
    " · ",
    goodsChips(me.goods),
    ruleLink(game.rule),
  );
}

function waitingNote(game, ctx) {
  let text;
  if (game.phase === "tasks") text = t("sb.wait.tasks");
  else if (game.phase === "planning") {
    const p = game.players[ctx.mySeat].planning;
    text =
      p === "waiting"
        ? t("sb.wait.after", { names: seatNames(game.to_act, ctx.seatName) })
        : t("sb.wait.sealed");
  } else return null;
  return h(
    "div",
    { class: "card prompt-card" },
    h("p", { id: "sb-waiting" }, text),
    orderedNote(game, ctx),
    ruleLink(game.rule),
  );
}

function tasksPrompt(game, legal, ctx) {
  const chosen = draft.picks;
  let cmd = chosen.length
    ? {
        type: "keep",
        tasks: chosen.slice().sort((a, b) => {
          return a - b;
        }),
      }
    : null;
  if (
    cmd &&
    !legal.some((c) => {
      return same(c, cmd);
    })
  )
    cmd = null;
  return h(
    "div",
    null,
    h("h2", null, t("sb.tasks.title")),
    h("p", { class: "muted" }, t("sb.tasks.hint")),
    h(
      "ul",
      { class: "sb-offer", "data-sheet-whole": "" },
      game.me.offer.map((task) => {
        const on = chosen.indexOf(task.id) >= 0;
        return h(
          "li",
          null,
          h(
            "label",
            { class: "sb-task-pick" + (on ? " selected" : "") },
            h("input", {
              type: "checkbox",
              id: "task-" + task.id,
              "data-focus": "task-" + task.id,
              checked: on,
              onchange() {
                loadLaterPrompts();
                if (on) chosen.splice(chosen.indexOf(task.id), 1);
                else chosen.push(task.id);
                ctx.rerender();
              },
            }),
            " ",
            h("b", null, "+" + task.value),
            " ",
            taskText(task),
          ),
        );
      }),
    ),
    confirmRow(ctx, cmd),
  );
}

// ---- status line ------------------------------------------------------------------

function status(game, ctx) {
  if (!game) return { text: t("table.starting"), mine: false };
  const mine = isMyTurn(game, ctx.mySeat);
  const names = (seats) => {
    return seatNames(seats, ctx.seatName);
  };
  if (game.phase === "over") {
    return {
      text: t("status.over_winner", { names: names((game.result && game.result.winners) || []) }),
      mine: false,
    };
  }
  const where = t("sb.round", { round: game.round, rounds: game.rounds }) + " · ";
  if (game.phase === "tasks")
    return {
      text:
        where +
        (mine ? t("sb.status.tasks_you") : t("sb.status.wait", { names: names(game.to_act) })),
      mine,
    };
  if (game.phase === "planning")
    return {
      text:
        where +
        (mine ? t("sb.status.plan_you") : t("sb.status.plan_wait", { names: names(game.to_act) })),
      mine,
    };
  const head = where + stepText(game) + " · ";
  if (mine) return { text: head + t("sb.status.you"), mine: true };
  return { text: head + t("sb.status.wait", { names: names(game.to_act) }), mine: false };
}

// A finished game's replay: each seat's own screen (coins, goods, privileges, tasks, deck,
// stacks) from that seat's own view.
function reveal(view, seatViews) {
  return Object.assign({}, view, {
    players: view.players.map((p, s) => {
      return Object.assign({}, p, { screen: seatViews[s] ? seatViews[s].me : null });
    }),
  });
}

// The renderer table.js draws a Strasbourg table with (docs/ui.md).
export default {
  board,
  players,
  prompt,
  status,
  result,
  isMyTurn,
  playerBadge: badge,
  describe(cmd, ctx) {
    return describe(cmd, ctx, ctx.game);
  },
  logPrefix: "sb.log.",
  logFormats: LOG_FORMATS,
  footnote,
  summaries: councils,
  reveal,
};
