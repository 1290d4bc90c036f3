// Norenberc: the small pieces every part of the page shares — names, goods, tiles, and
// the plain-language description of a command (confirm line, replay).
import { h, t } from "../../i18n.js";
import * as pieces from "../../pieces.js";

export const GOODS = ["beer", "pastry", "shoes", "paper", "cloth", "hats"];
const SYMBOL = { star: "★", moon: "☾", sun: "☀" };

// ---- small pieces -----------------------------------------------------------------

export function guildName(guild) {
  return t("guild." + guild);
}

// The guild's mark in the page's language (Br Ba Sh Pr Ta Ha in English): beside its colour,
// so a guild is told apart without colour, and read as its name's start in every language.
export function guildLetter(guild) {
  return t("guild_letter." + guild);
}

export function goodName(good, n) {
  return t(n === 1 ? "good." + good : "goods." + good);
}

// Goods as chips in the game's order; dress as in pieces.goodsChips (a note, a board pick).
export function goodsChips(goods, cls, dress) {
  return pieces.goodsChips(
    goods,
    GOODS,
    goodName,
    (g) => {
      return "good g-" + g;
    },
    cls,
    dress,
  );
}

export function goodsText(goods) {
  return GOODS.filter((g) => {
    return goods && goods[g];
  })
    .map((g) => {
      return goods[g] + " " + goodName(g, goods[g]);
    })
    .join(", ");
}

function citizenTitle(tile) {
  const name = t("citizen." + tile.citizen, { v: tile.value });
  return (
    name +
    " (" +
    SYMBOL[tile.symbol] +
    " " +
    t("symbol." + tile.symbol) +
    "): " +
    t("power." + tile.citizen, { v: tile.value })
  );
}

export function tileLabel(tile) {
  if (!tile) return t("window.empty");
  if (tile.kind === "craftsman") {
    // In words, as a person writes it ("Brewers craftsman 5 with an agent"): the tile itself
    // shows the agent symbol.
    return t(tile.agent ? "craftsman.label_agent" : "craftsman.label", {
      guild: guildName(tile.guild),
      v: tile.value,
    });
  }
  return t("citizen." + tile.citizen, { v: tile.value });
}

// A tile as the physical game shows it: a craftsman's value and agent symbol on its
// guild's colour; a citizen's symbol and name, with its power in the tooltip.
export function tileEl(tile, extraClass) {
  if (!tile) return h("span", { class: "tile empty " + (extraClass || "") }, "–");
  if (tile.kind === "craftsman") {
    // The guild is said by its number on the tile too (not by colour alone), and in full in
    // the tile's accessible name.
    const label = tileLabel(tile);
    // It explains itself (explain.js); the master is the one the keyboard stops at.
    const master = / master/.test(" " + (extraClass || ""));
    return h(
      "span",
      {
        class: "tile craftsman gb-" + tile.guild + " " + (extraClass || ""),
        role: "img",
        "aria-label": label,
        title: label,
        "data-tile": tile.id,
        "data-explain": "craftsman",
        tabindex: master ? "0" : null,
      },
      h("b", null, tile.value),
      tile.agent ? h("span", { class: "agent-sym" }, "♟") : null,
      h("small", { class: "tguild", "aria-hidden": "true" }, guildLetter(tile.guild)),
    );
  }
  // The power shows on hover and on keyboard focus (a title attribute would not).
  return h(
    "span",
    {
      class: "tile citizen sym-" + tile.symbol + " " + (extraClass || ""),
      role: "img",
      "aria-label": citizenTitle(tile),
      "data-tip": citizenTitle(tile),
      tabindex: "0",
      "data-tile": tile.id,
      "data-explain": "citizen",
    },
    h("span", { class: "sym", "aria-hidden": "true" }, SYMBOL[tile.symbol]),
    h("span", { class: "cname" }, t("citizen_short." + tile.citizen, { v: tile.value })),
    tile.good ? h("span", { class: "good g-" + tile.good }, goodName(tile.good, 1)) : null,
  );
}

export function windowCost(w) {
  return t("window.cost." + w);
}

// ---- the game log ------------------------------------------------------------------

// "a, b and c" in the page's language.
export function andList(parts) {
  if (!parts.length) return t("none");
  if (parts.length === 1) return parts[0];
  return parts.slice(0, -1).join(", ") + t("log.and") + parts[parts.length - 1];
}

function goodsList(goods) {
  return andList(
    GOODS.filter((g) => {
      return goods && goods[g];
    }).map((g) => {
      return goods[g] + " " + goodName(g, goods[g]);
    }),
  );
}

// Formatters of the log templates (log.<type>): {name:format} in a template.
export const LOG_FORMATS = {
  guild(value) {
    return guildName(value);
  },
  guilds(value) {
    return value.map(guildName).join(", ");
  },
  good(value) {
    return goodName(value, 1);
  },
  good_kind(value) {
    return goodName(value, 2);
  },
  goods(value) {
    return goodsList(value);
  },
  tile(value) {
    return tileLabel(value);
  },
  tiles(value) {
    return andList(value.map(tileLabel));
  },
  guests(value) {
    return value.map(tileLabel).join(", ");
  },
  citizen(value) {
    return t("citizen." + value, { v: "" }).trim();
  },
  talers(value) {
    return t(value === 1 ? "unit.taler" : "unit.talers", { n: value });
  },
  cards(value) {
    return t(value === 1 ? "unit.card" : "unit.cards", { n: value });
  },
  amounts(value, params, seatName) {
    return value
      .map((a) => {
        return seatName(a.seat) + ": " + a.n;
      })
      .join("; ");
  },
};

// ---- describing a command (confirm line, replay) ----------------------------------

// Where a tile of the workshops or guest rooms lies now: {tile, guild, window (null in a
// workshop)}, or null.
function locate(game, id) {
  let found = null;
  (game ? game.guilds : []).forEach((g) => {
    g.queue.forEach((stack) => {
      stack.forEach((tl) => {
        if (tl.id === id) found = { tile: tl, guild: g.guild, window: null };
      });
    });
    g.guests.forEach((tl, i) => {
      if (tl && tl.id === id) found = { tile: tl, guild: g.guild, window: i + 1 };
    });
  });
  return found;
}

function placeText(at, label) {
  return at.window === null
    ? t("where.workshop", { tile: label, guild: guildName(at.guild) })
    : t("where.window", { tile: label, guild: guildName(at.guild), n: at.window });
}

// "Brewers craftsman 3 (Bakers, window 2)": a tile and where it lies now.
function tileWhere(game, id) {
  const at = locate(game, id);
  return at ? placeText(at, tileLabel(at.tile)) : id;
}

// "3 (Bakers, window 2)", "2 with an agent (Bakers workshop)": a craftsman's value (and
// its agent) and where it lies.
export function placeOf(game, id) {
  const at = locate(game, id);
  return at
    ? placeText(
        at,
        at.tile.agent ? t("craftsman.value_agent", { v: at.tile.value }) : String(at.tile.value),
      )
    : id;
}

export function tileById(game, id) {
  const at = locate(game, id);
  return at ? at.tile : { id };
}

export function describe(cmd, ctx, game) {
  game = game || ctx.game;
  switch (cmd.type) {
    case "plan":
      return t("cmd.plan", { guilds: cmd.guilds.map(guildName).join(", ") });
    case "pass":
      return t("cmd.pass");
    case "wait":
      return t("cmd.wait");
    case "retract":
      return t("cmd.retract");
    case "sell":
      return t("cmd.sell", { n: cmd.count, total: cmd.total });
    case "buy":
      return t("cmd.buy", { goods: goodsText(cmd.goods), total: cmd.total });
    case "hire":
      return (
        t("cmd.hire", { n: cmd.window, goods: goodsText(cmd.payment) }) +
        (cmd.to_front ? " " + t("cmd.to_front") : "")
      );
    case "nothing":
      return t("cmd.nothing");
    case "steal":
      return t("cmd.steal", {
        goods: goodsText(cmd.goods),
        name: ctx.seatName(cmd.victim),
        paid: cmd.paid,
      });
    case "bailiff":
      return t("cmd.bailiff", {
        a: tileWhere(game, cmd.tiles[0]),
        b: tileWhere(game, cmd.tiles[1]),
      });
    case "decline":
      return t("cmd.decline");
    case "peddler_good":
      return t("cmd.peddler", { good: goodName(cmd.good, 1) });
    case "judge_house":
      return t("cmd.judge", { guild: guildName(cmd.guild) });
    case "historian":
      return t("cmd.historian", { give: guildName(cmd.give), take: guildName(cmd.take) });
    case "duchess":
      return t("cmd.duchess", { guild: guildName(cmd.guild) });
    default:
      return JSON.stringify(cmd);
  }
}

// "If the game ended now" on a seat's card (docs/ui.md): the view's score_now holds every
// seat's part of the final scoring that everyone can see, and in one's own view what one's
// own hidden money adds ("own"); score_rules names each category's clause. The total is a
// <summary>: a tap, a click or Enter opens the breakdown, each category with its rule link.

// Which seats' breakdowns are open: the cards are drawn anew at every change of the game.
const opened = {};

function pointsOf(parts) {
  return Object.keys(parts || {}).reduce((a, c) => {
    return a + parts[c];
  }, 0);
}

function categoryLine(c, vp, own, clause) {
  return h(
    "li",
    { "data-category": c },
    h(
      "span",
      { class: "now-name" },
      t("score." + c),
      " ",
      h("b", { class: "now-vp" }, vp),
      own ? h("span", { class: "now-own" }, " ", t("now.own_part", { n: own })) : null,
    ),
    " ",
    pieces.ruleLink(clause),
  );
}

// The line under ``seat``'s card (its own row, so that the card's list of holdings keeps its
// columns), or null when the view has no score_now: the game is over, the final scores say it.
export function scoreNow(game, seat, mySeat) {
  const now = game.score_now;
  if (!now) return null;
  const rules = game.score_rules || {};
  const parts = now.seats[seat] || {};
  const own = seat === mySeat && now.own ? now.own : null;
  const ownTotal = pointsOf(own);
  const total = pointsOf(parts);
  const lines = Object.keys(rules)
    .filter((c) => {
      return now.hidden.indexOf(c) < 0;
    })
    .map((c) => {
      return categoryLine(c, parts[c] || 0, own && own[c], rules[c]);
    });
  const hidden = now.hidden.map((c) => {
    return h(
      "li",
      { class: "now-hidden", "data-category": c },
      h(
        "span",
        { class: "now-name" },
        t("score." + c),
        h("span", { class: "now-why" }, " ", t("now.hidden_part")),
      ),
      " ",
      pieces.ruleLink(rules[c]),
    );
  });
  const details = h(
    "details",
    {
      class: "score-now",
      id: "score-now-" + seat,
      open: !!opened[seat],
      ontoggle() {
        opened[seat] = details.open;
      },
    },
    h(
      "summary",
      { "data-watch": "score-now-" + seat },
      h("span", { class: "now-title" }, t("now.title")),
      " ",
      h("b", { class: "now-total" }, t("now.total", { n: total })),
      ownTotal ? h("span", { class: "now-own" }, " ", t("now.own_total", { n: ownTotal })) : null,
    ),
    h("ul", { class: "now-lines" }, lines, hidden),
    own ? h("p", { class: "now-own-note" }, t("now.own_note")) : null,
  );
  return details;
}
