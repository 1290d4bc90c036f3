// The post-game analysis on a finished table's page (GET /api/tables/{id}/analysis): each
// seat's win chance after every step as a graph (one line per seat in its colour, the rounds
// marked; a click jumps the replay to that step) with a data table as its text alternative,
// the game's biggest swings and each person's costliest decisions in plain words. Loaded by
// table.js once the game is over; it polls while the server still analyses, and the graph
// fills as positions are done.
import { h, loadStrings, t } from "./i18n.js";
import { api } from "./conn.js";
import { $, deferWhilePressed, loadStyle } from "./page.js";
import { context } from "./table_conn.js";
import { seatName, state } from "./table_state.js";
import { SEAT_MARK } from "./pieces.js";
import { bandNote, dataTable, noiseNote, percent } from "./analysis_table.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 200;
const POLL_MS = 3000;

let host = null; // {el, tableId, seatName(seat), describe(cmd), jump(step)}
let figures = null;
let pollTimer = null;

// The table page's hook (table_draw.js): started once, when a finished game is first drawn;
// a point of the graph or a listed decision jumps the replay (table_replay.js) there.
let shown = false;
export function showOnPage(renderer) {
  if (shown) return;
  shown = true;
  const describe = (cmd) =>
    renderer.describe ? renderer.describe(cmd, context(state.doc.game, true)) : JSON.stringify(cmd);
  const jump = (step) => import("./table_replay.js").then((m) => m.showStep(step));
  showAnalysis($("analysis"), { tableId: state.tableId, seatName, describe, jump });
}

// Draw the analysis into ``el`` and keep it fresh until the analysis is done. Its style sheet
// comes with it (a game under way never needs it, so the table page does not carry it).
export function showAnalysis(el, page) {
  loadStyle("analysis.css");
  host = Object.assign({ el }, page);
  fetchAnalysis();
}

function fetchAnalysis() {
  clearTimeout(pollTimer);
  // Its words are a folder of their own (web/i18n/analysis/), loaded with it.
  Promise.all([api("GET", "/api/tables/" + host.tableId + "/analysis"), loadStrings("analysis")])
    .then(([res]) => {
      figures = res;
      drawAnalysis();
      if (res.status === "queued" || res.status === "running")
        pollTimer = setTimeout(fetchAnalysis, POLL_MS);
    })
    .catch(() => {
      pollTimer = setTimeout(fetchAnalysis, POLL_MS * 5);
    });
}

function svgNode(tag, attrs, children) {
  const el = document.createElementNS(SVG, tag);
  Object.keys(attrs).forEach((k) => {
    el.setAttribute(k, attrs[k]);
  });
  (children || []).forEach((c) => {
    el.appendChild(c);
  });
  return el;
}

function xOf(step) {
  return figures.steps > 1 ? (step / (figures.steps - 1)) * WIDTH : 0;
}

function yOf(p) {
  return 4 + (1 - p) * (HEIGHT - 8);
}

// The runs of consecutive steps done so far (a gap where a step is not done yet).
function doneRuns() {
  const runs = [];
  let run = [];
  figures.chances.forEach((c, k) => {
    if (c) run.push(k);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length) runs.push(run);
  return runs;
}

function pointAt(k, p) {
  return xOf(k).toFixed(1) + "," + yOf(Math.max(0, Math.min(1, p))).toFixed(1);
}

// One line per seat through the steps done so far.
function seatLines(seat) {
  return doneRuns().map((run) => {
    return svgNode("polyline", {
      points: run.map((k) => pointAt(k, figures.chances[k][seat])).join(" "),
      class: "analysis-line p" + seat,
      fill: "none",
    });
  });
}

// Around each line, a band as wide as its play-outs' noise (95%: ``margins``).
function seatBands(seat) {
  if (!figures.margins) return [];
  const edge = (k, sign) => {
    return pointAt(k, figures.chances[k][seat] + sign * figures.margins[k][seat]);
  };
  return doneRuns().map((run) => {
    const upper = run.map((k) => edge(k, 1));
    const lower = run.map((k) => edge(k, -1)).reverse();
    return svgNode("polygon", {
      points: upper.concat(lower).join(" "),
      class: "analysis-band p" + seat,
    });
  });
}

function roundMarks() {
  const marks = [];
  figures.rounds.forEach((r, k) => {
    if (r === null || (k > 0 && figures.rounds[k - 1] === r)) return;
    const x = xOf(k);
    marks.push(svgNode("line", { x1: x, x2: x, y1: 0, y2: HEIGHT, class: "analysis-round" }));
    const label = svgNode("text", { x: x + 3, y: 14, class: "analysis-round-label" });
    label.textContent = t("analysis.round_mark", { round: r });
    marks.push(label);
  });
  return marks;
}

// The step nearest to where the graph was clicked.
function clickedStep(ev, svg) {
  const box = svg.getBoundingClientRect();
  const x = ((ev.clientX - box.left) / box.width) * WIDTH;
  return Math.max(0, Math.min(figures.steps - 1, Math.round((x / WIDTH) * (figures.steps - 1))));
}

function graph() {
  const seats = [];
  for (let s = 0; s < figures.seats; s++) seats.push(s);
  const grid = [0, 0.5, 1].map((p) => {
    return svgNode("line", { x1: 0, x2: WIDTH, y1: yOf(p), y2: yOf(p), class: "analysis-grid" });
  });
  const svg = svgNode(
    "svg",
    {
      viewBox: "0 0 " + WIDTH + " " + HEIGHT,
      class: "analysis-graph",
      id: "analysis-graph",
      role: "img",
      "aria-label": t("analysis.graph_label"),
    },
    grid.concat(roundMarks(), ...seats.map(seatBands), ...seats.map(seatLines)),
  );
  svg.addEventListener("click", (ev) => {
    host.jump(clickedStep(ev, svg));
  });
  const legend = h(
    "ul",
    { class: "analysis-legend" },
    seats.map((s) => {
      return h(
        "li",
        { class: "p" + s },
        h("span", { class: "pmark", "aria-hidden": "true" }, SEAT_MARK[s]),
        " ",
        host.seatName(s),
      );
    }),
  );
  return [svg, legend, bandNote(figures)];
}

function jumpButton(step) {
  return h(
    "button",
    {
      type: "button",
      class: "link",
      onclick() {
        host.jump(step);
      },
    },
    t("analysis.goto", { step }),
  );
}

function swingList() {
  if (!figures.swings.length) {
    if (figures.status !== "done") return null;
    return [
      h("h3", null, t("analysis.swings")),
      h("p", { class: "muted" }, t("analysis.no_swings")),
    ];
  }
  return [
    h("h3", null, t("analysis.swings")),
    h(
      "ol",
      { id: "analysis-swings" },
      figures.swings.map((s) => {
        return h(
          "li",
          null,
          t("analysis.swing", {
            round: s.round,
            by: host.seatName(s.by),
            move: host.describe(s.cmd),
            name: host.seatName(s.seat),
            before: percent(s.before),
            after: percent(s.after),
          }),
          noiseNote(s.margin),
          " ",
          jumpButton(s.step),
        );
      }),
    ),
  ];
}

function decisionLists() {
  return Object.keys(figures.costliest).map((key) => {
    const seat = Number(key);
    const name = host.seatName(seat);
    const found = figures.costliest[key];
    return h(
      "section",
      { class: "analysis-person" },
      h("h3", null, t("analysis.decisions", { name })),
      found.length
        ? h(
            "ol",
            null,
            found.map((d) => {
              return h(
                "li",
                null,
                t("analysis.decision", {
                  round: d.round,
                  name,
                  made: host.describe(d.made),
                  best: host.describe(d.best),
                  best_chance: percent(d.best_chance),
                  chance: percent(d.chance),
                }),
                noiseNote(d.margin),
                " ",
                jumpButton(d.step),
              );
            }),
          )
        : h(
            "p",
            { class: "muted" },
            t(figures.status === "done" ? "analysis.no_decisions" : "analysis.none_yet", { name }),
          ),
    );
  });
}

function progressLine() {
  if (figures.status === "done") return h("p", { class: "muted" }, t("analysis.note"));
  if (figures.status === "failed") return h("p", { class: "muted" }, t("analysis.failed"));
  const text =
    figures.status === "queued" && !figures.done
      ? t("analysis.queued")
      : t("analysis.progress", { done: figures.done, steps: figures.steps });
  return [
    h("p", { id: "analysis-progress", role: "status" }, text),
    h("progress", { max: String(figures.steps), value: String(figures.done), "aria-label": text }),
  ];
}

// Drawn anew at each poll while the server analyses: never under a press (page.js), which
// would swallow a tap on a point of the graph or a step's button.
function drawAnalysis() {
  if (deferWhilePressed(drawAnalysis)) return;
  const el = host.el;
  const parts = [h("h2", { id: "analysis-title" }, t("analysis.title")), progressLine()];
  if (figures.done) parts.push(graph(), dataTable(figures, host), swingList(), decisionLists());
  el.replaceChildren(...parts.flat(2).filter(Boolean));
  el.hidden = false;
}
