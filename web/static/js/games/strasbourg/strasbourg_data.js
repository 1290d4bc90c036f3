// Strasbourg's own data and small pieces, shared by the page's modules: the guilds and
// council seats, names of guilds, goods, cells, chapel sites, edifices and steps, the draft
// the player is assembling with its Confirm row, the log's formatters and a command in plain
// words. No rule lives here.
import { LANG, h, has, t } from "../../i18n.js";
import * as pieces from "../../pieces.js";
import { Draft } from "../../pieces.js";

export const GUILDS = ["smiths", "vintners", "shoemakers", "butchers", "bakers"];
export const COUNCIL = ["nobility", "church", "merchants"].concat(GUILDS);
export const STEP_LETTERS = "ABCDEFGHI";

// ---- small pieces -----------------------------------------------------------------

export function guildName(g) {
  return t("sb.guild." + g);
}
// The guild's mark in the page's language, from the dictionary: the data file's letters
// (M V S B K) only encode the grid, and "M" or "K" would not say Smiths or Bakers to a reader.
export function guildLetter(g) {
  return t("sb.guild_letter." + g);
}
export function goodName(g, n) {
  return t(n === 1 ? "sb.good." + g : "sb.goods." + g);
}
export function guildOfLetter(game, letter) {
  let found = null;
  Object.keys(game.board.guilds).forEach((g) => {
    if (game.board.guilds[g].letter === letter) found = g;
  });
  return found;
}
// Cells are named as the game log names them: row and column counted from 0, top left;
// the board shows these numbers along its edges.
export function cellName(cell) {
  return t("sb.cell", { r: cell[0], c: cell[1] });
}
// The guild whose space a cell is, by name (a member is placed on a guild's space); the
// board is the shown game's, or the last one shown.
function spaceGuild(game, cell) {
  const board = (game && game.board) || cityBoard;
  const g = board ? guildOfLetter({ board }, board.grid[cell[0]].charAt(cell[1])) : null;
  return g ? guildName(g) : t("sb.building_space");
}
// A chapel site is the corner below-right of its cell, named as the city is read: the two
// rows and two columns that meet there (the numbers along the board's edges) and the guilds
// whose spaces touch it ("rows 2–3, columns 0–1 (Smiths and Bakers)"). The board is the
// shown game's, or the last one shown (the log names chapels too).
let cityBoard = null;
export function cornerName(site, board) {
  const r = site[0],
    c = site[1];
  const corner = t("sb.corner", { r1: r, r2: r + 1, c1: c, c2: c + 1 });
  board = board || cityBoard;
  if (!board) return corner;
  const guilds = [];
  [
    [r, c],
    [r, c + 1],
    [r + 1, c],
    [r + 1, c + 1],
  ].forEach((cell) => {
    const row = board.grid[cell[0]];
    const letter = row ? row.charAt(cell[1]) : "";
    Object.keys(board.guilds).forEach((g) => {
      if (letter && board.guilds[g].letter === letter && guilds.indexOf(g) < 0) guilds.push(g);
    });
  });
  if (!guilds.length) return corner;
  return t("sb.corner_guilds", { corner, guilds: listText(guilds.map(guildName)) });
}
function listText(items) {
  try {
    return new Intl.ListFormat(LANG, { type: "conjunction" }).format(items);
  } catch (e) {
    return items.join(", ");
  }
}
export function sum(a) {
  return a.reduce((x, y) => {
    return x + y;
  }, 0);
}
export function guildTag(g, game) {
  return h(
    "span",
    { class: "sb-gtag sb-g-" + g },
    h("b", { class: "sb-mark", "aria-hidden": "true" }, guildLetter(g)),
    " ",
    guildName(g),
  );
}
export function cardChip(v, extra) {
  return h(
    "span",
    {
      class: "sb-card" + (extra ? " " + extra : ""),
      title: t("sb.card_value", { v }),
      "data-explain": "influence",
    },
    v,
  );
}
// Edifices are named by the dictionary when it knows the key, else by the data file's
// name (the view sends it; the last game shown remembers the names for the log).
export const edificeNames = {};
export function edificeName(e) {
  return has("sb.edifice." + e.key) ? t("sb.edifice." + e.key) : e.name;
}
export function rememberGame(game, ctx) {
  if (game && game.board) cityBoard = game.board;
  if (game && game.round_cards)
    game.round_cards.forEach((rc) => {
      edificeNames[rc.edifice.key] = rc.edifice.name;
    });
}
function brackets(list) {
  return "[" + list.join(", ") + "]";
}

// Formatters of the log templates (sb.log.<type>): {name:format} in a template.
export const LOG_FORMATS = {
  guild(value, params) {
    return guildName(value);
  },
  good(value, params) {
    return t("sb.good." + value);
  },
  council_seat(value, params) {
    return t("sb.council_of." + value);
  },
  edifice(value, params) {
    return edificeName({ key: value, name: edificeNames[value] || value });
  },
  step(value, params) {
    return STEP_LETTERS.charAt(value);
  },
  corner(value, params) {
    return cornerName([value, params.c]);
  },
  brackets(value, params) {
    return brackets(value);
  },
  ranking(value, params, seatName) {
    return value
      .map((s, i) => {
        return seatName(s) + " " + params.totals[i];
      })
      .join(", ");
  },
  stack_sizes(value, params, seatName) {
    return value
      .map((sizes, s) => {
        return seatName(s) + " " + brackets(sizes);
      })
      .join("; ");
  },
  coins(value, params) {
    return t("sb.coins_n", { n: value });
  },
  cards(value, params) {
    return t("sb.cards_n", { n: value });
  },
  stacks(value, params) {
    return t("sb.stacks_n", { n: value });
  },
  unrevealed(value, params) {
    return t("sb.unrevealed_n", { n: value });
  },
  stack_cards(value, params) {
    return value
      .map((n) => {
        return t("sb.cards_n", { n });
      })
      .join(", ");
  },
};

// ---- the draft the player is assembling: the listed command picked, or the cards of a stack

export const draft = new Draft(() => {
  return [];
});
export function pick(ctx, cmd) {
  draft.cmd = cmd;
  ctx.rerender();
}

export function stepText(game) {
  const s = game.step;
  if (!s) return game.phase === "tasks" ? t("sb.phase.tasks") : "";
  if (game.phase === "planning") return t("sb.phase.planning");
  return (
    t("sb.step", { letter: s.letter }) +
    " — " +
    t("sb.kind." + s.kind, { guild: stepGuild(game) ? guildName(stepGuild(game)) : "" })
  );
}

// The guild of a guild step (B, D, F) from the current round card.
function stepGuild(game) {
  const s = game.step;
  if (!s || s.kind !== "guild") return null;
  const card = game.round_cards.filter((c) => {
    return c.current;
  })[0];
  return card ? card.guilds[{ B: 0, D: 1, F: 2 }[s.letter]] : null;
}

export function orderedNote(game, ctx) {
  return pieces.orderedNote(game, (by) => {
    return by === null
      ? t("sb.plan.ordered_table")
      : t("sb.plan.ordered_by", { name: ctx.seatName(by) });
  });
}

// A command in plain words (confirm line, options, replay).
export function describe(cmd, ctx, game) {
  game = game || ctx.game;
  const price = (cell) => {
    return game && game.board ? game.board.prices[cell[0]][cell[1]] : null;
  };
  switch (cmd.type) {
    case "keep":
      return t("sb.cmd.keep", { n: cmd.tasks.length });
    case "draw":
      return t("sb.plan.draw");
    case "stop":
      return t("sb.plan.stop");
    case "wait":
      return t("sb.plan.wait");
    case "stack":
      return t("sb.cmd.stack", { cards: cmd.cards.join(" + ") });
    case "seal":
      return t("sb.plan.seal");
    case "retract":
      return t("sb.plan.retract");
    case "reveal":
      return t("sb.cmd.reveal", { n: cmd.stack + 1 });
    case "pass":
      return t("sb.pass");
    case "privilege":
      return t("sb.privilege");
    case "build":
      return t("sb.cmd.build", {
        guild: spaceGuild(game, cmd.cell),
        cell: cellName(cmd.cell),
        p: price(cmd.cell),
        n: price(cmd.cell),
      });
    case "decline":
      return t("sb.cmd.decline");
    case "take_good":
      return t("sb.cmd.take_good");
    case "sell": {
      const v = game && game.board ? game.board.guilds[cmd.guild].good_value : "";
      return t("sb.cmd.sell", { good: goodName(cmd.guild, 1), v, n: v });
    }
    case "done":
      return t("sb.cmd.done");
    case "return_card":
      return t("sb.cmd.return_card", { v: cmd.card });
    case "return_none":
      return t("sb.cmd.return_none");
    case "chapel": {
      const site = game && game.board ? game.board.chapel_sites[cmd.site] : null;
      return site
        ? t("sb.cmd.chapel_at", { corner: cornerName(site, game.board) })
        : t("sb.cmd.chapel", { n: cmd.site + 1 });
    }
    case "edifice":
      return t("sb.cmd.edifice", { cell: cellName(cmd.cell) });
    default:
      return JSON.stringify(cmd);
  }
}

// Confirm, and Cancel once something is picked (it drops the pick, sends nothing).
export function confirmRow(ctx, cmd) {
  const picked = draft.cmd || draft.picks.length;
  return pieces.confirmRow(
    ctx,
    cmd,
    cmd ? describe(cmd, ctx) : "",
    picked
      ? () => {
          draft.reset();
          ctx.rerender();
        }
      : null,
  );
}
