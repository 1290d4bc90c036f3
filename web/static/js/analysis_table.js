// The analysis's figures in words (analysis.js draws the graph): a chance with how far it may
// be off ("41% ±22"), how sure a position's chances are, and the data table that is the
// graph's text alternative. A chance rests on a few play-outs of its position, so it is an
// estimate; the server sends each position's count (``playouts``, 0 for the final result)
// and each seat's 95% half-width (``margins``).
import { h, t } from "./i18n.js";

// Above this half-width a position's chances are a rough estimate; below CLOSE a close one.
const ROUGH = 0.15;
const CLOSE = 0.05;

export function percent(p) {
  return t("analysis.percent", { n: Math.round(p * 100) });
}

// "41% ±22": the chance and its margin in points (the chance alone when it is exact).
export function giveOrTake(p, margin) {
  if (!margin) return percent(p);
  return t("analysis.give_or_take", { p: percent(p), m: Math.round(margin * 100) });
}

// How sure the chances of step ``k`` are, in words: the final result, or an estimate from
// so many play-outs (rough, fair or close by its widest margin).
export function sureness(figures, k) {
  const n = figures.playouts ? figures.playouts[k] : null;
  const widest = figures.margins && figures.margins[k] ? Math.max(...figures.margins[k]) : null;
  if (n === 0) return t("analysis.exact");
  if (n === null || widest === null) return "";
  if (widest > ROUGH) return t("analysis.rough", { n });
  return t(widest > CLOSE ? "analysis.fair" : "analysis.close", { n });
}

function stepButton(k, jump) {
  return h(
    "button",
    {
      type: "button",
      class: "link",
      onclick() {
        jump(k);
      },
    },
    String(k),
  );
}

function marginOf(figures, k, seat) {
  return figures.margins && figures.margins[k] ? figures.margins[k][seat] : 0;
}

// The text alternative: every step done, its round, each seat's chance give or take its
// noise, and how sure the step's chances are.
export function dataTable(figures, host) {
  const seats = [];
  for (let s = 0; s < figures.seats; s++) seats.push(s);
  const head = h(
    "tr",
    null,
    h("th", { scope: "col" }, t("analysis.step")),
    h("th", { scope: "col" }, t("analysis.round")),
    seats.map((s) => h("th", { scope: "col" }, host.seatName(s))),
    h("th", { scope: "col" }, t("analysis.how_sure")),
  );
  const rows = [];
  figures.chances.forEach((c, k) => {
    if (!c) return;
    rows.push(
      h(
        "tr",
        null,
        h("th", { scope: "row" }, stepButton(k, host.jump)),
        h("td", null, String(figures.rounds[k])),
        seats.map((s) => h("td", null, giveOrTake(c[s], marginOf(figures, k, s)))),
        h("td", { class: "analysis-sure" }, sureness(figures, k)),
      ),
    );
  });
  return h(
    "details",
    { class: "analysis-figures" },
    h("summary", null, t("analysis.show_table")),
    h(
      "div",
      {
        class: "table-scroll",
        tabindex: "0",
        role: "region",
        "aria-label": t("analysis.table_caption"),
      },
      h(
        "table",
        { id: "analysis-table" },
        h("caption", null, t("analysis.table_caption")),
        h("thead", null, head),
        h("tbody", null, rows),
      ),
    ),
  );
}

// Under the graph: what the shaded bands are, and on how many play-outs a position rests.
export function bandNote(figures) {
  const counts = (figures.playouts || []).filter((n) => n);
  if (!counts.length) return null;
  return h(
    "p",
    { class: "muted analysis-band-note" },
    t("analysis.band_note", { n: Math.max(...counts) }),
  );
}

// After a swing or a decision's cost: how far it may be off, in points (nothing if exact).
export function noiseNote(margin) {
  if (!margin) return null;
  return h("span", { class: "muted" }, " ", t("analysis.noise", { m: Math.round(margin * 100) }));
}
