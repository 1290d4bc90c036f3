// Stepping through a finished game (GET …/replay/{k}): the controls, the steps, the keys.
// Loaded by table_draw.js once a table is finished.
import { api } from "./conn.js";
import { h, t } from "./i18n.js";
import { $ } from "./page.js";
import { context } from "./table_conn.js";
import { render } from "./table_draw.js";
import { replaceChildren, seatName, showNotice, state } from "./table_state.js";

// ---- replay of a finished game ----------------------------------------------------
function replayLength() {
  return state.replay ? state.replay.steps : 0;
}

export function renderReplayControls(table) {
  const el = $("replay");
  const finished = table.status === "finished";
  el.hidden = !finished;
  if (!finished) return;
  if (!state.replay) {
    replaceChildren(el, [
      h("h2", null, t("replay.title")),
      h(
        "button",
        { type: "button", id: "replay-start", "data-focus": "replay-next", onclick: startReplay },
        t("replay.start"),
      ),
    ]);
    return;
  }
  const n = replayLength();
  const go = (k) => {
    return () => {
      showStep(Math.max(0, Math.min(n, k)));
    };
  };
  replaceChildren(el, [
    h("h2", null, t("replay.title")),
    h(
      "div",
      { class: "button-row replay-buttons" },
      h(
        "button",
        {
          type: "button",
          "data-focus": "replay-first",
          onclick: go(0),
          "aria-label": t("replay.first"),
        },
        "«",
      ),
      h(
        "button",
        {
          type: "button",
          id: "replay-prev",
          "data-focus": "replay-prev",
          onclick: go(state.replay.step - 1),
          "aria-label": t("replay.prev"),
        },
        "◀",
      ),
      h(
        "span",
        { class: "replay-step", id: "replay-step" },
        t("replay.step", { step: state.replay.step, of: n }),
      ),
      h(
        "button",
        {
          type: "button",
          id: "replay-next",
          "data-focus": "replay-next",
          onclick: go(state.replay.step + 1),
          "aria-label": t("replay.next"),
        },
        "▶",
      ),
      h(
        "button",
        {
          type: "button",
          "data-focus": "replay-last",
          onclick: go(n),
          "aria-label": t("replay.last"),
        },
        "»",
      ),
      h(
        "button",
        { type: "button", id: "replay-stop", "data-focus": "replay-stop", onclick: stopReplay },
        t("replay.stop"),
      ),
    ),
    state.replay.rounds.length ? jumpControls(n) : null,
    state.replay.command
      ? h("p", { class: "muted", id: "replay-command" }, state.replay.command)
      : null,
  ]);
}

function startReplay() {
  showStep(0);
}

// One step of the finished game as a spectator saw it (GET …/replay/{k}, see pages.py).
export function showStep(k) {
  api("GET", "/api/tables/" + state.tableId + "/replay/" + k)
    .then((res) => {
      state.replay = {
        step: res.step,
        steps: res.steps,
        view: revealed(res),
        log: res.log,
        command: null,
        rounds: res.rounds || [],
      };
      if (res.command) {
        const made = seatName(res.command.seat) + ": " + describeCommand(res.command.cmd);
        const by = madeBy(res.command);
        state.replay.command = by ? made + " (" + by + ")" : made;
      }
      render();
    })
    .catch(showNotice);
}

// Who made a person's move when it was not the person (the record's ``by``): a bot standing
// in for them, or the clock's bot covering a decision whose time ran out. A bot seat's own
// moves need no such word, nor does a value this page does not know.
function madeBy(command) {
  const seat = (state.doc.table.seats || [])[command.seat];
  if (command.by === "clock") return t("replay.by_clock");
  if (command.by === "bot" && seat && seat.name) return t("replay.by_bot");
  return null;
}

// The game is over: the replay shows every seat's own holdings (money, plans, stacks,
// tasks), merged into the spectator's view by the game's renderer.
function revealed(res) {
  const renderer = state.renderers[state.doc.table.game];
  return renderer.reveal && res.seat_views ? renderer.reveal(res.view, res.seat_views) : res.view;
}

// The round being shown: the last round that began at or before the step.
function roundAt(step) {
  let found = null;
  state.replay.rounds.forEach((r) => {
    if (r.step <= step) found = r;
  });
  return found;
}

function jumpControls(n) {
  const current = roundAt(state.replay.step);
  const select = h(
    "select",
    {
      id: "replay-round",
      "data-focus": "replay-round",
      onchange() {
        showStep(Number(select.value));
      },
    },
    state.replay.rounds.map((r) => {
      return h(
        "option",
        { value: String(r.step), selected: current && current.step === r.step },
        t("replay.round", { round: r.round }),
      );
    }),
  );
  const input = h("input", {
    type: "number",
    id: "replay-goto",
    min: "0",
    max: String(n),
    value: String(state.replay.step),
    "data-focus": "replay-goto",
    inputmode: "numeric",
  });
  return h(
    "form",
    {
      class: "button-row replay-jump",
      onsubmit(ev) {
        ev.preventDefault();
        const k = Math.max(0, Math.min(n, Math.round(Number(input.value) || 0)));
        showStep(k);
      },
    },
    h("label", null, t("replay.jump_round"), " ", select),
    h("label", null, t("replay.jump_step"), " ", input),
    h("button", { type: "submit", id: "replay-go" }, t("replay.go")),
  );
}

function describeCommand(cmd) {
  const renderer = state.renderers[state.doc.table.game];
  return renderer.describe
    ? renderer.describe(cmd, context(state.replay.view, true))
    : JSON.stringify(cmd);
}

// In a replay, ← and → step back and forth (unless a text field has the focus).
function replayKeys(ev) {
  if (!state.replay || /INPUT|TEXTAREA|SELECT/.test(document.activeElement.tagName)) return;
  if (document.activeElement.closest && document.activeElement.closest("#prompt")) return;
  const delta = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
  if (!delta) return;
  const k = state.replay.step + delta;
  if (k >= 0 && k <= replayLength()) showStep(k);
}

// Its keys are heard from the moment this module is here: a replay is started only by it.
document.addEventListener("keydown", replayKeys);

function stopReplay() {
  state.replay = null;
  render();
}
