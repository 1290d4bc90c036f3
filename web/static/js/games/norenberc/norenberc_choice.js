// The prompt of a citizen's choice after a hire, loaded with the first such choice a seat
// answers (norenberc_prompts.js).
import { h, t } from "../../i18n.js";
import { distinct, ofType, same } from "../../pieces.js";
import { choose, confirmRow, draft, option } from "./norenberc_draft.js";
import { describe, goodName, goodsText, guildName, placeOf, tileById } from "./norenberc_parts.js";

// historian and duchess (or decline).
export function choicePrompt(game, legal, ctx) {
  const citizen = game.action.choice.citizen;
  const p = draft.picks;
  const pick = (extra) => {
    return () => {
      choose(ctx, "choice", Object.assign({}, p, extra));
    };
  };
  const steps = [];
  let cmd = null;
  const declines = ofType(legal, "decline");
  const steals = ofType(legal, "steal");
  if (steals.length) {
    const victims = distinct(
      steals.map((c) => {
        return c.victim;
      }),
    );
    steps.push(
      h("h3", null, t("thief.victim")),
      h(
        "div",
        { class: "options" },
        victims.map((v) => {
          return option(
            ctx.seatName(v),
            p.victim === v,
            pick({ victim: v, goods: undefined, decline: undefined }),
            "victim-" + v,
          );
        }),
      ),
    );
    if (p.victim !== undefined) {
      const mine = steals.filter((c) => {
        return c.victim === p.victim;
      });
      steps.push(
        h("h3", null, t("thief.goods")),
        h(
          "div",
          { class: "options" },
          mine.map((c, i) => {
            return option(
              t("thief.option", { goods: goodsText(c.goods), paid: c.paid }),
              same(p.goods, c.goods),
              pick({ goods: c.goods, decline: undefined }),
              "steal-" + i,
            );
          }),
        ),
      );
      cmd =
        mine.filter((c) => {
          return same(c.goods, p.goods);
        })[0] || null;
    }
  }
  const swaps = ofType(legal, "bailiff");
  if (swaps.length) {
    // One row per guild of craftsmen; a button names only the two places ("3 (Bakers,
    // window 3) ⇄ 4 (Brewers workshop)"), the picked tiles are marked on the board.
    const byGuild = {};
    swaps.forEach((c, i) => {
      const guild = tileById(game, c.tiles[0]).guild;
      (byGuild[guild] = byGuild[guild] || []).push(
        option(
          t("bailiff.option", { a: placeOf(game, c.tiles[0]), b: placeOf(game, c.tiles[1]) }),
          same(p.tiles, c.tiles),
          pick({ tiles: c.tiles, decline: undefined }),
          "swap-" + i,
          describe(c, ctx, game),
        ),
      );
    });
    steps.push(
      h("h3", null, t("bailiff.pick")),
      Object.keys(byGuild).map((guild) => {
        return h(
          "div",
          { class: "swap-guild" },
          h("h4", null, t("bailiff.guild", { guild: guildName(Number(guild)) })),
          h("div", { class: "options swaps" }, byGuild[guild]),
        );
      }),
    );
    cmd =
      swaps.filter((c) => {
        return same(c.tiles, p.tiles);
      })[0] || cmd;
  }
  const loads = ofType(legal, "peddler_good");
  if (loads.length) {
    steps.push(
      h("h3", null, t("peddler.pick")),
      h(
        "div",
        { class: "options" },
        loads.map((c) => {
          return option(
            goodName(c.good, 1),
            p.good === c.good,
            pick({ good: c.good }),
            "ped-" + c.good,
          );
        }),
      ),
    );
    cmd =
      loads.filter((c) => {
        return c.good === p.good;
      })[0] || cmd;
  }
  const houses = ofType(legal, "judge_house");
  if (houses.length) {
    steps.push(
      h("h3", null, t("judge.pick")),
      h(
        "div",
        { class: "options" },
        houses.map((c) => {
          return option(
            guildName(c.guild),
            p.guild === c.guild,
            pick({ guild: c.guild }),
            "judge-" + c.guild,
          );
        }),
      ),
    );
    cmd =
      houses.filter((c) => {
        return c.guild === p.guild;
      })[0] || cmd;
  }
  const exchanges = ofType(legal, "historian");
  if (exchanges.length) {
    steps.push(
      h("h3", null, t("historian.pick")),
      h(
        "div",
        { class: "options" },
        exchanges.map((c) => {
          return option(
            describe(c, ctx, game),
            p.give === c.give && p.take === c.take,
            pick({ give: c.give, take: c.take, decline: undefined }),
            "historian-" + c.give + "-" + c.take,
          );
        }),
      ),
    );
    cmd =
      exchanges.filter((c) => {
        return c.give === p.give && c.take === p.take;
      })[0] || cmd;
  }
  const moves = ofType(legal, "duchess");
  if (moves.length) {
    steps.push(
      h("h3", null, t("duchess.pick")),
      h(
        "div",
        { class: "options" },
        moves.map((c) => {
          return option(
            guildName(c.guild),
            p.guild === c.guild,
            pick({ guild: c.guild, decline: undefined }),
            "duchess-" + c.guild,
          );
        }),
      ),
    );
    cmd =
      moves.filter((c) => {
        return c.guild === p.guild;
      })[0] || cmd;
  }
  if (declines.length) {
    steps.push(
      h(
        "div",
        { class: "options" },
        option(
          t("choice.decline"),
          p.decline,
          pick({
            decline: true,
            victim: undefined,
            tiles: undefined,
            first: undefined,
            give: undefined,
            take: undefined,
            guild: undefined,
          }),
          "decline",
        ),
      ),
    );
    if (p.decline) cmd = declines[0];
  }
  return [
    h("h2", null, t("choice.title", { citizen: t("citizen." + citizen, { v: "" }) })),
    h("p", { class: "hint" }, t("power." + citizen, { v: "" })),
    steps,
    confirmRow(ctx, cmd, cmd ? describe(cmd, ctx, game) : ""),
  ];
}
