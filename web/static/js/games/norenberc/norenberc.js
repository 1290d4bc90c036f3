// Norenberc: the players' areas and the status line; the board is in norenberc_board.js, the
// prompts in norenberc_prompts.js, the draft in norenberc_draft.js and the shared pieces in
// norenberc_parts.js.
import { h, t } from "../../i18n.js";
import { redraw } from "../../page.js";
import {
  badge,
  boardPick,
  botOffer,
  isMyTurn,
  offline,
  planningTag as tag,
  result,
  seatNames,
} from "../../pieces.js";
import { board } from "./norenberc_board.js";
import { choiceListed, draft, listed, pickVictim, sellOneMore } from "./norenberc_draft.js";
import {
  LOG_FORMATS,
  describe,
  goodName,
  goodsChips,
  guildName,
  scoreNow,
  tileEl,
} from "./norenberc_parts.js";
import { prompt } from "./norenberc_prompts.js";

// One's own goods: while selling, the called guild's good is tapped to sell one more.
function ownGoods(p, game, ctx) {
  const sells = p.seat === ctx.mySeat ? listed(game, ctx, "sell") : [];
  const good = sells.length
    ? game.guilds.filter((g) => {
        return g.guild === game.action.guild;
      })[0].good
    : null;
  if (!good || !p.goods[good]) return goodsChips(p.goods);
  const count = draft.type === "sell" ? draft.picks.count : 0;
  return goodsChips(p.goods, null, (k, chip) => {
    if (k !== good) return chip;
    const note = count ? " (" + t("sell.picked", { n: count }) + ")" : "";
    if (note) chip.appendChild(h("span", { class: "in-basket" }, note));
    const shown = p.goods[k] + " " + goodName(k, p.goods[k]) + note;
    return boardPick(
      "span",
      {
        class: "good-pick",
        id: "board-sell-" + k,
        "aria-label": shown + " — " + t("sell.tap", { good: goodName(k, 1) }),
        title: t("sell.tap", { good: goodName(k, 1) }),
      },
      !!count,
      () => {
        sellOneMore(ctx, game);
      },
      chip,
    );
  });
}

// ---- players ----------------------------------------------------------------------

function players(game, ctx) {
  if (!game) return null;
  return game.play_order.map((seat) => {
    return playerCard(game.players[seat], game, ctx);
  });
}

function craftsmenByGuild(p, game) {
  return game.guilds.map((g) => {
    const tiles = p.craftsmen.filter((c) => {
      return c.guild === g.guild;
    });
    if (!tiles.length) return null;
    const total = tiles.reduce((a, c) => {
      return a + c.value;
    }, 0);
    return h(
      "div",
      { class: "cgroup" },
      h("span", { class: "cguild" }, guildName(g.guild)),
      tiles.map((c) => {
        return tileEl(c, "small");
      }),
      h("span", { class: "ctotal", title: t("player.total") }, "= " + total),
    );
  });
}

function hasCrests(p) {
  return p.prestige_crests > 0 || Object.keys(p.guild_crests).length > 0;
}

function crestsText(p) {
  const parts = Object.keys(p.guild_crests)
    .sort()
    .map((g) => {
      return guildName(Number(g)) + (p.guild_crests[g] > 1 ? " ×" + p.guild_crests[g] : "");
    });
  if (p.prestige_crests) parts.push(t("player.prestige_crests", { n: p.prestige_crests }));
  return parts.length ? parts.join(", ") : t("none");
}

function planningTag(p, game) {
  if (game.phase !== "planning" || !p.planning) return null;
  const text =
    p.planning === "committed"
      ? p.cards === 0
        ? t("plan.status.passed")
        : t("plan.status.cards", { n: p.cards })
      : t("plan.status." + p.planning);
  return tag(p.planning, text);
}

function playerCard(p, game, ctx) {
  const me = ctx.mySeat === p.seat;
  const acting = game.to_act.indexOf(p.seat) >= 0;
  const seatInfo = (ctx.table && ctx.table.seats && ctx.table.seats[p.seat]) || {};
  const victim = choiceListed(game, ctx, "steal").some((c) => {
    return c.victim === p.seat;
  });
  return h(
    "article",
    {
      class:
        "player p" +
        p.seat +
        (me ? " me" : "") +
        (acting ? " acting" : "") +
        (victim ? " can" : ""),
      id: "player-" + p.seat,
    },
    victim
      ? boardPick(
          "button",
          {
            class: "player-pick",
            id: "board-victim-" + p.seat,
            "aria-hidden": "true",
            title: t("thief.tap", { name: ctx.seatName(p.seat) }),
          },
          draft.type === "choice" && draft.picks.victim === p.seat,
          () => {
            pickVictim(ctx, p.seat);
          },
        )
      : null,
    h(
      "header",
      null,
      badge(p.seat, game, ctx),
      me ? h("span", { class: "you" }, t("player.you")) : null,
      offline(p.seat, seatInfo, ctx)
        ? h("span", { class: "offline-tag" }, t("player.offline"))
        : null,
      botOffer(p.seat, seatInfo, game, ctx),
      acting ? h("span", { class: "ptag acting-tag" }, t("player.acting")) : null,
      planningTag(p, game),
    ),
    ctx.seatActs && game.phase !== "over" ? ctx.seatActs(p.seat) : null, // docs/clocks.md
    h(
      "dl",
      null,
      h("dt", { "data-explain": "talers", tabindex: "0" }, t("player.talers")),
      h(
        "dd",
        { class: "talers", id: me ? "my-talers" : null, "data-watch": "talers-" + p.seat },
        p.talers === null
          ? h("span", { class: "muted", title: t("player.hidden") }, t("player.hidden"))
          : p.talers,
      ),
      h("dt", { "data-explain": "agents", tabindex: "0" }, t("player.agents")),
      h(
        "dd",
        null,
        t("player.agents_detail", {
          hand: p.agents.hand,
          roof: p.agents.roof,
          supply: p.agents.supply,
        }),
        " ",
        h(
          "span",
          {
            class: "disc disc-" + p.disc,
            title: t("disc." + p.disc),
            "data-explain": "disc",
            tabindex: "0",
          },
          p.disc === "moon" ? "☾ " + t("disc.moon") : "♟ " + t("disc.agent"),
        ),
      ),
      h("dt", { "data-explain": "goods", tabindex: "0" }, t("player.goods")),
      h("dd", { class: "pgoods", "data-watch": "goods-" + p.seat }, ownGoods(p, game, ctx)),
      // Empty holdings take no room: five players' areas must fit beside the board.
      p.craftsmen.length
        ? [
            h("dt", { "data-explain": "craftsman", tabindex: "0" }, t("player.craftsmen")),
            h("dd", { "data-watch": "craftsmen-" + p.seat }, craftsmenByGuild(p, game)),
          ]
        : null,
      p.citizens.length
        ? [
            h("dt", { "data-explain": "citizen", tabindex: "0" }, t("player.citizens")),
            h(
              "dd",
              { "data-watch": "citizens-" + p.seat },
              p.citizens.map((c) => {
                return tileEl(c, "small");
              }),
            ),
          ]
        : null,
      hasCrests(p)
        ? [
            h("dt", { "data-explain": "player_crests", tabindex: "0" }, t("player.crests")),
            h("dd", { "data-watch": "pcrests-" + p.seat }, crestsText(p)),
          ]
        : null,
      game.phase === "action" && p.cards !== null
        ? [
            h("dt", { "data-explain": "card", tabindex: "0" }, t("player.cards")),
            h("dd", null, cardsText(p)),
          ]
        : null,
      p.plan && p.plan.length
        ? [
            h("dt", { "data-explain": "card", tabindex: "0" }, t("player.plan")),
            h("dd", { class: "plan" }, p.plan.map(guildName).join(", ")),
          ]
        : null,
    ),
    scoreNow(game, p.seat, ctx.mySeat),
  );
}

function cardsText(p) {
  if (!p.cards) return t("plan.status.passed");
  const shown = p.revealed.length
    ? t("player.revealed", { guilds: p.revealed.map(guildName).join(", ") })
    : "";
  return t("plan.status.cards", { n: p.cards }) + (shown ? " · " + shown : "");
}

// ---- status line ------------------------------------------------------------------

function status(game, ctx) {
  if (!game) return { text: t("table.starting"), mine: false };
  const mine = isMyTurn(game, ctx.mySeat);
  if (game.phase === "over") {
    const won = (game.result && game.result.winners) || [];
    return { text: t("status.over_winner", { names: seatNames(won, ctx.seatName) }), mine: false };
  }
  const where = t("round.label", { round: game.round, turn: game.turn }) + " · ";
  if (game.phase === "planning") {
    if (mine) return { text: where + t("status.plan_you"), mine: true };
    if (ctx.mySeat !== null && game.my_plan !== null) {
      return {
        text: where + t("status.plan_done", { names: seatNames(game.to_act, ctx.seatName) }),
        mine: false,
      };
    }
    return {
      text: where + t("status.plan_wait", { names: seatNames(game.to_act, ctx.seatName) }),
      mine: false,
    };
  }
  const a = game.action;
  const guild = guildName(a.guild);
  if (a.choice) {
    const citizen = t("citizen." + a.choice.citizen, { v: "" }).trim();
    const chooser =
      a.choice.seat === ctx.mySeat
        ? t("status.choice_you", { citizen })
        : t("status.choice", { who: ctx.seatName(a.choice.seat), citizen });
    return { text: where + chooser, mine };
  }
  if (mine) return { text: where + t("status.act_you", { guild }), mine: true };
  return {
    text: where + t("status.act_wait", { name: ctx.seatName(a.actor), guild }),
    mine: false,
  };
}

// A finished game's replay: each seat's talers and sealed plan from that seat's own view.
function reveal(view, seatViews) {
  const out = Object.assign({}, view, {
    players: view.players.map((p, s) => {
      const own = seatViews[s] && seatViews[s].players[s];
      return Object.assign({}, p, {
        talers: own ? own.talers : p.talers,
        plan: seatViews[s] ? seatViews[s].my_plan : null,
      });
    }),
  });
  return out;
}

// The round ends' summaries (norenberc_summary.js) are loaded with the first round end a log
// holds; until they are here the answer is null (not known yet), and the page is drawn again
// when they come.
let summaryModule = null;
let summaryLoading = false;
function roundEnds(log) {
  if (summaryModule) return summaryModule.summaries(log);
  if (
    !log.some((e) => {
      return e.type === "RoundEnded";
    })
  )
    return [];
  if (!summaryLoading) {
    summaryLoading = true;
    import("./norenberc_summary.js").then((m) => {
      summaryModule = m;
      redraw();
    });
  }
  return null;
}

// The renderer table.js draws a Norenberc table with (docs/ui.md).
export default {
  board,
  players,
  prompt,
  status,
  result,
  isMyTurn,
  playerBadge: badge,
  describe,
  logPrefix: "log.",
  logFormats: LOG_FORMATS,
  summaries: roundEnds,
  reveal,
  footnote(game) {
    return { text: t("table.reconstruction"), title: game.data_note || "" };
  },
};
