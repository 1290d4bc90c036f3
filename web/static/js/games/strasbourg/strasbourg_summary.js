// Strasbourg: what a council phase did, read from the public log (the council as it stood,
// the prestige each seat scored, privileges, discarded cards). The page (summary.js) shows it
// as a panel when it happens and again from the log; strasbourg.js loads this module with
// the first council scored.
import { h, t } from "../../i18n.js";
import { badge } from "../../pieces.js";
import { COUNCIL, GUILDS } from "./strasbourg_data.js";

// One summary per council phase: from its first "CouncilScored" to the next round's start
// (or the game's end), with the council as it stood then: the log's seat changes played
// forward from the seats at setup. Those are not in the log; they are read back from a
// seat's first change (who was returned, or for the nobility and church, the only seats held
// at setup, its taker keeping it), and a seat that never changed is as the view shows it.
function initialCouncil(log, game) {
  const holders = {};
  COUNCIL.forEach((k) => {
    holders[k] = game && game.council ? game.council[k] : null;
  });
  const seen = {};
  log.forEach((e) => {
    const p = e.params || {};
    if (e.type !== "CouncilSeatTaken" || seen[p.council]) return;
    seen[p.council] = true;
    if (p.variant === "back") holders[p.council] = p.returned;
    else holders[p.council] = p.council === "nobility" || p.council === "church" ? p.seat : null;
  });
  return holders;
}

export function summaries(log, game) {
  const out = [];
  const holders = initialCouncil(log, game);
  let round = 1;
  for (let i = 0; i < log.length; i++) {
    const e = log[i],
      p = e.params || {};
    if (e.type === "RoundStarted" && p.round) round = p.round;
    if (e.type === "CouncilSeatTaken") holders[p.council] = p.seat;
    if (e.type !== "CouncilScored" || (i > 0 && log[i - 1].type === "CouncilScored")) continue;
    let j = i;
    while (j < log.length && log[j].type !== "RoundStarted" && log[j].type !== "GameEnded") j++;
    out.push({
      from: i,
      to: Math.min(j + 1, log.length),
      key: "council-" + round,
      round,
      title: t("sb.summary.title", { round }),
      body: councilBody(log.slice(i, j), Object.assign({}, holders)),
    });
  }
  return out;
}

function councilBody(entries, holders) {
  return (ctx) => {
    const scored = [],
      privileges = [],
      discarded = [];
    entries.forEach((e) => {
      const p = e.params || {};
      if (e.type === "CouncilScored") scored.push(p);
      if (e.type === "PrivilegeGained") privileges.push(p.seat);
      if (e.type === "StacksDiscarded") discarded.push(p);
    });
    return [
      h("h3", null, t("sb.council")),
      h(
        "ul",
        { class: "sb-sum-seats" },
        COUNCIL.map((key) => {
          const who = holders[key];
          return h(
            "li",
            { class: "sb-seat" + (GUILDS.indexOf(key) >= 0 ? " sb-g-" + key : " sb-seat-" + key) },
            h("span", { class: "sb-seat-name" }, t("sb.council." + key)),
            who === null ? h("span", { class: "muted" }, t("sb.empty")) : badge(who, null, ctx),
          );
        }),
      ),
      h("h3", null, t("sb.summary.points")),
      h(
        "ul",
        { class: "sb-sum-points" },
        scored.map((p) => {
          return h(
            "li",
            { id: "sb-sum-points-" + p.seat },
            badge(p.seat, null, ctx),
            " ",
            t("sb.summary.scored", { n: p.count }),
            privileges.indexOf(p.seat) >= 0 ? " · " + t("sb.summary.privilege") : "",
          );
        }),
      ),
      discarded.length
        ? h(
            "p",
            null,
            h("b", null, t("sb.summary.discarded") + " "),
            discarded
              .map((p) => {
                return ctx.seatName(p.seat) + " " + t("sb.cards_n", { n: p.count });
              })
              .join(", "),
          )
        : null,
    ];
  };
}
