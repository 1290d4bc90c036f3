// Norenberc's board: the round and the play order, and each guild's house with the places a
// listed command may be picked at (windows, store goods, tiles, houses).
import { h, t } from "../../i18n.js";
import { SEAT_MARK, badge, boardPick, mark } from "../../pieces.js";
import {
  bailiffTiles,
  buyOne,
  canBuyOne,
  choiceListed,
  choose,
  draft,
  isFirstTile,
  pickHouse,
  pickTile,
} from "./norenberc_draft.js";
import {
  GOODS,
  describe,
  goodName,
  goodsChips,
  guildLetter,
  guildName,
  tileEl,
  tileLabel,
  windowCost,
} from "./norenberc_parts.js";

export function board(game, ctx) {
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

function isDraftWindow(g, w, game) {
  return (
    draft.type === "hire" &&
    game.action &&
    game.action.guild === g.guild &&
    draft.picks.window === w
  );
}
