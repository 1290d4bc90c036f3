// Norenberc: what a round end did, guild by guild, read from the public log entries between
// "RoundEnded" and the next round's (or the game's) end. The page (summary.js) shows it as a
// panel when it happens and again from the log. Nothing here is not already in the log.
import { h, t } from "../../i18n.js";
import { badge } from "../../pieces.js";
import { andList, goodName, guildLetter, guildName, tileLabel } from "./norenberc_parts.js";

// "Ada: 3": the colon keeps a count apart from a name that ends in a number ("Bot 3: 3").
function amounts(list, ctx) {
  return list.map((a) => {
    return h("span", { class: "sum-amount" }, badge(a.seat, null, ctx), ": " + a.n);
  });
}

// [{from, to, key, round, title, body(ctx)}], oldest first; the last one may still be
// growing when the log is cut mid-round-end (it never is: one command writes all of it).
export function summaries(log) {
  const out = [];
  for (let i = 0; i < log.length; i++) {
    if (log[i].type !== "RoundEnded" || !log[i].params) continue;
    let j = i + 1;
    while (j < log.length && log[j].type !== "RoundStarted" && log[j].type !== "GameEnded") j++;
    const round = log[i].params.round;
    out.push({
      from: i,
      to: Math.min(j + 1, log.length),
      key: "round-" + round,
      round,
      title: t("summary.round_title", { round }),
      body: bodyOf(log.slice(i, j)),
    });
  }
  return out;
}

function bodyOf(entries) {
  return (ctx) => {
    const byGuild = {},
      order = [];
    const guildOf = (g) => {
      if (!byGuild[g]) {
        byGuild[g] = { guild: g };
        order.push(g);
      }
      return byGuild[g];
    };
    const peddlers = [];
    let income = null,
      prestige = null,
      last = null,
      prestigeLost = false;
    entries.forEach((e) => {
      const p = e.params || {};
      switch (e.type) {
        case "MoneyRevealed":
          guildOf(p.guild).tie = p.talers;
          break;
        case "FavouriteChosen":
          last = guildOf(p.guild);
          Object.assign(last, {
            fav: p.seat,
            counts: p.counts || [],
            tiles: p.tiles,
            crest: p.variant === "crest",
            good: p.good,
          });
          break;
        case "MasterLeft":
          last = guildOf(p.guild);
          Object.assign(last, { left: true, good: p.good });
          break;
        case "PrestigeAwarded":
          if (last) last.prestigeCrest = true;
          break;
        case "PrestigeLost":
          prestigeLost = true;
          break;
        case "MasterRevealed":
          guildOf(p.guild).master = p.tile;
          break;
        case "GuestsRefilled":
          guildOf(p.guild).guests = p.guests;
          break;
        case "IncomePaid":
          income = p.talers;
          break;
        case "PeddlerReturned":
          peddlers.push(e);
          break;
        case "PrestigeMoved":
          prestige = p.guild;
          break;
        default:
          break;
      }
    });
    return [
      h(
        "ul",
        { class: "sum-guilds" },
        order.map((g) => {
          return guildCard(byGuild[g], ctx);
        }),
      ),
      income
        ? h(
            "p",
            { class: "sum-income" },
            h("b", null, t("summary.income") + " "),
            amounts(income, ctx),
          )
        : null,
      peddlers.length
        ? h(
            "p",
            null,
            h("b", null, t("summary.peddlers") + " "),
            andList(
              peddlers.map((e) => {
                return (
                  ctx.seatName(e.params.seat) +
                  ": " +
                  (e.params.good ? "1 " + goodName(e.params.good, 1) : t("none"))
                );
              }),
            ),
          )
        : null,
      prestigeLost ? h("p", null, t("log.PrestigeLost")) : null,
      prestige !== null
        ? h(
            "p",
            { class: "sum-prestige" },
            "♛ ",
            t("summary.prestige", { guild: guildName(prestige) }),
          )
        : null,
    ];
  };
}

function guildCard(g, ctx) {
  const lines = [];
  if (g.fav !== undefined) {
    lines.push(h("p", { class: "sum-fav" }, t("summary.favourite") + " ", badge(g.fav, null, ctx)));
    const counts = g.counts.slice().sort((a, b) => {
      return b.n - a.n;
    });
    lines.push(
      h(
        "p",
        { class: "sum-why" },
        t("summary.goods_of", { good: goodName(g.good, 2) }) + " ",
        amounts(counts, ctx),
      ),
    );
    if (g.tie)
      lines.push(h("p", { class: "sum-tie" }, t("summary.tie") + " ", amounts(g.tie, ctx)));
    const took = andList(g.tiles.map(tileLabel));
    lines.push(
      h(
        "p",
        { class: "sum-took" },
        t("summary.took", { tiles: took }) +
          (g.crest ? " · " + t("summary.crest") : " · " + t("summary.no_crest")) +
          (g.prestigeCrest ? " · ♛ " + t("summary.prestige_crest") : ""),
      ),
    );
  } else if (g.left) {
    lines.push(h("p", { class: "sum-fav" }, t("summary.nobody", { good: goodName(g.good, 2) })));
  }
  if (g.master)
    lines.push(
      h("p", { class: "sum-master" }, t("summary.new_master", { tile: tileLabel(g.master) })),
    );
  return h(
    "li",
    { class: "sum-guild gh-" + g.guild, id: "sum-guild-" + g.guild },
    h(
      "h3",
      null,
      h("span", { class: "gnum", "aria-hidden": "true" }, guildLetter(g.guild)),
      " ",
      guildName(g.guild),
    ),
    lines,
  );
}
