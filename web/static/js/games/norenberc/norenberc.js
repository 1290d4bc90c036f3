// Norenberc: the board, the players' areas and the status line; the prompts are in
// norenberc_prompts.js and the shared pieces in norenberc_parts.js.
import { h, t } from "../../i18n.js";
import { redraw } from "../../page.js";
import {
  SEAT_MARK,
  badge,
  boardPick,
  botOffer,
  isMyTurn,
  mark,
  offline,
  planningTag as tag,
  result,
  seatNames,
} from "../../pieces.js";
import {
  GOODS,
  LOG_FORMATS,
  describe,
  goodName,
  goodsChips,
  guildLetter,
  guildName,
  tileEl,
  tileLabel,
  scoreNow,
  windowCost,
} from "./norenberc_parts.js";
import {
  bailiffTiles,
  buyOne,
  canBuyOne,
  choiceListed,
  choose,
  draft,
  isFirstTile,
  listed,
  pickHouse,
  pickTile,
  pickVictim,
  prompt,
  sellOneMore,
} from "./norenberc_prompts.js";

// ---- board ------------------------------------------------------------------------

function board(game, ctx) {
  if (!game) return null;
  if (!ctx.readOnly) draft.sync(game);
  const houses = h(
    "div",
    { class: "houses", style: "--cols:" + houseColumns(game.guilds.length) },
    game.guilds.map((g) => {
      return house(g, game, ctx);
    }),
  );
  return [summary(game, ctx), houses];
}

// Houses in balanced rows (6 → 3 + 3, never 5 + 1), as many per row as the width allows.
function houseColumns(n) {
  const el = document.getElementById("board");
  const width = (el && el.clientWidth) || window.innerWidth;
  const fit = Math.max(1, Math.floor(width / 175));
  return Math.ceil(n / Math.ceil(n / fit));
}

function summary(game, ctx) {
  return h(
    "div",
    { class: "summary" },
    h("span", { class: "round" }, t("round.label", { round: game.round, turn: game.turn })),
    h(
      "span",
      { class: "track", role: "group", "aria-label": t("track.label") },
      h(
        "span",
        { class: "muted", "data-explain": "track", tabindex: "0" },
        t("track.label") + ": ",
      ),
      h(
        "ol",
        { class: "track-list" },
        game.play_order.map((s) => {
          return h("li", null, badge(s, game, ctx));
        }),
      ),
    ),
    h(
      "span",
      { class: "muted", "data-explain": "deck", tabindex: "0" },
      t("deck.count", { n: game.guest_deck }),
    ),
    h(
      "span",
      { class: "muted", "data-explain": "prestige", tabindex: "0" },
      t("prestige.left", { n: game.prestige_crests_left }),
    ),
  );
}

function house(g, game, ctx) {
  const swapTiles = bailiffTiles(game, ctx);
  const called = game.action && game.action.guild === g.guild;
  const prestige = game.prestige_guild === g.guild;
  const houseCmd = houseChoice(g, game, ctx);
  // A house's places (windows, store goods, tiles) are read under its name: on a phone the
  // page brings the name into view with them (sheet.js, data-pick-named).
  return h(
    "article",
    {
      class: "house gh-" + g.guild + (called ? " called" : "") + (houseCmd ? " can" : ""),
      id: "house-" + g.guild,
      "aria-label": guildName(g.guild),
      "data-pick-named": "",
    },
    houseCmd
      ? boardPick(
          "button",
          {
            class: "house-pick",
            id: "board-house-" + g.guild,
            "aria-hidden": "true",
            "data-explain": "house",
            title: describe(houseCmd, ctx, game),
          },
          draft.type === "choice" && draft.picks.guild === g.guild,
          () => {
            pickHouse(ctx, g.guild);
          },
        )
      : null,
    h(
      "header",
      null,
      h("span", { class: "gnum", "aria-hidden": "true" }, guildLetter(g.guild)),
      " ",
      h("span", { class: "gname", "data-explain": "house", tabindex: "0" }, guildName(g.guild)),
      prestige
        ? h(
            "span",
            {
              class: "prestige",
              title: t("prestige.here"),
              "data-explain": "prestige",
              tabindex: "0",
            },
            "♛",
          )
        : null,
      called ? h("span", { class: "called-tag" }, t("house.called")) : null,
    ),
    called ? actorsHere(game.action, ctx) : null,
    h(
      "div",
      { class: "roof", title: t("house.roof"), "data-watch": "roof-" + g.guild },
      h("span", { class: "label", "data-explain": "roof", tabindex: "0" }, t("house.roof")),
      g.roof.map((n, seat) => {
        return n
          ? h(
              "span",
              { class: "roof-agents p" + seat, title: ctx.seatName(seat) + ": " + n },
              SEAT_MARK[seat] + "×" + n,
            )
          : null;
      }),
    ),
    h(
      "div",
      { class: "master-row", "data-watch": "master-" + g.guild },
      h("span", { class: "label", "data-explain": "master", tabindex: "0" }, t("house.master")),
      g.master.length
        ? g.master.map((tl) => {
            return tileEl(tl, "master");
          })
        : h("span", { class: "muted" }, t("none")),
      h(
        "span",
        { class: "price", title: t("house.price_hint"), "data-explain": "price", tabindex: "0" },
        g.price === null ? "—" : t("house.price", { p: g.price }),
      ),
    ),
    h(
      "div",
      { class: "queue", "data-watch": "queue-" + g.guild },
      h("span", { class: "label", "data-explain": "queue", tabindex: "0" }, t("house.queue")),
      g.queue.map((stack) => {
        return h(
          "span",
          {
            class: "stack" + (stack.length > 1 ? " double" : ""),
            title: stack.length > 1 ? t("house.stack") : null,
          },
          stack.map((tl) => {
            return boardTile(tl, "small", swapTiles, game, ctx);
          }),
        );
      }),
    ),
    h(
      "ol",
      { class: "guests", "aria-label": t("house.guests") },
      g.guests.map((tl, i) => {
        const pickable = !!hireShortcut(g, i + 1, game, ctx);
        return h(
          "li",
          {
            class:
              "window" +
              (isDraftWindow(g, i + 1, game) ? " picked" : "") +
              (pickable ? " can" : ""),
            "data-watch": "window-" + g.guild + "-" + i,
          },
          h("span", { class: "wcost", "data-explain": "window", tabindex: "0" }, windowCost(i + 1)),
          boardTile(tl, "", swapTiles, game, ctx),
          hireShortcut(g, i + 1, game, ctx),
        );
      }),
    ),
    h(
      "div",
      { class: "store", "data-watch": "store-" + g.guild },
      h("span", { class: "label", "data-explain": "store", tabindex: "0" }, t("house.storehouse")),
      storeChips(g, game, ctx),
    ),
    h(
      "div",
      { class: "crests", "data-watch": "crests-" + g.guild },
      h(
        "span",
        { title: t("house.crests_left"), "data-explain": "crest", tabindex: "0" },
        t("house.crests", { n: g.crests_left }),
      ),
      g.judges
        ? h(
            "span",
            { class: "judge", title: t("power.chief_judge") },
            t("house.judges", { n: g.judges }),
          )
        : null,
    ),
  );
}

// A window that a listed "hire" can take is picked on the board: a pointer target over the
// whole window that starts that hire's draft. It lies over the tiles (a citizen is focusable
// itself, and a button may hold nothing interactive), so it is hidden from screen readers
// and out of the tab order: the prompt's window options are their way to the same hire.
function hireShortcut(g, w, game, ctx) {
  if (ctx.readOnly || !game.action || game.action.guild !== g.guild || game.action.choice)
    return null;
  const can = (game.legal || []).some((c) => {
    return c.type === "hire" && c.window === w;
  });
  if (!can) return null;
  return boardPick(
    "button",
    {
      class: "window-pick",
      id: "board-win-" + g.guild + "-" + w,
      "data-focus": "board-win-" + w,
      "aria-hidden": "true",
      title: t("hire.here") + " — " + t("hire.window_n", { n: w }),
      "data-explain": "window",
    },
    isDraftWindow(g, w, game),
    () => {
      choose(ctx, "hire", { window: w });
    },
  );
}

// Who revealed a card at the called guild, in acting order: done, acting now, still to come.
function actorsHere(action, ctx) {
  return h(
    "ol",
    { class: "actors", "aria-label": t("house.actors") },
    action.cards.map((seat) => {
      const done = action.acted.indexOf(seat) >= 0;
      const now = action.actor === seat;
      return h(
        "li",
        { class: done ? "done" : now ? "now" : "later" },
        mark(seat),
        " ",
        ctx.seatName(seat),
        " ",
        h("span", { class: "muted" }, done ? "✓" : now ? t("house.acting") : ""),
      );
    }),
  );
}

// A tile the bailiff choice being assembled would swap (or the first one picked).
function isDraftTile(tl) {
  if (!tl || draft.type !== "choice") return false;
  return (!!draft.picks.tiles && draft.picks.tiles.indexOf(tl.id) >= 0) || isFirstTile(tl.id);
}

// A tile on the board; one that a listed bailiff swap may take is picked by tapping it
// (the first, then one it may swap with).
function boardTile(tl, cls, swapTiles, game, ctx) {
  const picked = isDraftTile(tl);
  const el = tileEl(tl, cls + (picked ? " picked" : ""));
  if (!tl || !swapTiles[tl.id]) return el;
  return boardPick(
    "span",
    {
      class: "tile-pick",
      id: "board-tile-" + tl.id,
      "aria-label": t("bailiff.tap", { tile: tileLabel(tl) }),
      title: t("bailiff.tap", { tile: tileLabel(tl) }),
    },
    picked,
    () => {
      pickTile(ctx, game, tl.id);
    },
    el,
  );
}

// The house a listed chief judge or duchess command names: picked by tapping the house.
function houseChoice(g, game, ctx) {
  return (
    choiceListed(game, ctx, "judge_house")
      .concat(choiceListed(game, ctx, "duchess"))
      .filter((c) => {
        return c.guild === g.guild;
      })[0] || null
  );
}

// The called guild's store: while buying, a good that one more of fits a listed purchase is
// tapped to add it to the basket.
function storeChips(g, game, ctx) {
  const called = game.action && game.action.guild === g.guild;
  const kinds = GOODS.filter((k) => {
    return g.storehouse && g.storehouse[k];
  });
  const basket = called && draft.type === "buy" ? draft.picks.goods || {} : {};
  const buying =
    Object.keys(basket).length > 0 ||
    kinds.some((k) => {
      return canBuyOne(game, ctx, k);
    });
  if (!called || !buying) return goodsChips(g.storehouse);
  return goodsChips(g.storehouse, null, (k, chip) => {
    const note = basket[k] ? " (" + t("buy.in_basket", { n: basket[k] }) + ")" : "";
    if (note) chip.appendChild(h("span", { class: "in-basket" }, note));
    if (!canBuyOne(game, ctx, k)) return chip;
    // The spoken name starts with what the chip shows (a voice user says what they see).
    const shown = g.storehouse[k] + " " + goodName(k, g.storehouse[k]) + note;
    return boardPick(
      "span",
      {
        class: "good-pick",
        id: "board-buy-" + k,
        "aria-label": shown + " — " + t("buy.more", { good: goodName(k, 1) }),
        title: t("buy.more", { good: goodName(k, 1) }),
      },
      !!basket[k],
      () => {
        buyOne(ctx, k);
      },
      chip,
    );
  });
}

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

function isDraftWindow(g, w, game) {
  return (
    draft.type === "hire" &&
    game.action &&
    game.action.guild === g.guild &&
    draft.picks.window === w
  );
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
