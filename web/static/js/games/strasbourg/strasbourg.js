// Strasbourg: the city board, council, round cards, screens and stacks, and the prompts.
// Prompts are built only from the view's "legal" list: the player picks one of the listed
// commands (or assembles a stack from drawn cards) and sends it on Confirm. No rule lives here.
import { LANG, h, has, t } from "../../i18n.js";
import { redraw } from "../../page.js";
import * as pieces from "../../pieces.js";
import {
  Draft,
  SEAT_MARK,
  badge,
  botOffer,
  isMyTurn,
  ofType,
  offline,
  result,
  ruleLink,
  same,
  seatNames,
} from "../../pieces.js";

export const GUILDS = ["smiths", "vintners", "shoemakers", "butchers", "bakers"];
export const COUNCIL = ["nobility", "church", "merchants"].concat(GUILDS);
const STEP_LETTERS = "ABCDEFGHI";

// ---- small pieces -----------------------------------------------------------------

function guildName(g) {
  return t("sb.guild." + g);
}
// The guild's mark in the page's language, from the dictionary: the data file's letters
// (M V S B K) only encode the grid, and "M" or "K" would not say Smiths or Bakers to a reader.
function guildLetter(g) {
  return t("sb.guild_letter." + g);
}
function goodName(g, n) {
  return t(n === 1 ? "sb.good." + g : "sb.goods." + g);
}
function guildOfLetter(game, letter) {
  let found = null;
  Object.keys(game.board.guilds).forEach((g) => {
    if (game.board.guilds[g].letter === letter) found = g;
  });
  return found;
}
// Cells are named as the game log names them: row and column counted from 0, top left;
// the board shows these numbers along its edges.
function cellName(cell) {
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
function cornerName(site, board) {
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
function sum(a) {
  return a.reduce((x, y) => {
    return x + y;
  }, 0);
}
function guildTag(g, game) {
  return h(
    "span",
    { class: "sb-gtag sb-g-" + g },
    h("b", { class: "sb-mark", "aria-hidden": "true" }, guildLetter(g)),
    " ",
    guildName(g),
  );
}
function cardChip(v, extra) {
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
const edificeNames = {};
function edificeName(e) {
  return has("sb.edifice." + e.key) ? t("sb.edifice." + e.key) : e.name;
}
function rememberGame(game, ctx) {
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
const LOG_FORMATS = {
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

const draft = new Draft(() => {
  return [];
});
function pick(ctx, cmd) {
  draft.cmd = cmd;
  ctx.rerender();
}

// ---- board ------------------------------------------------------------------------

function board(game, ctx) {
  rememberGame(game, ctx);
  if (!game) return null;
  if (!ctx.readOnly) draft.sync(game);
  return [
    summary(game, ctx),
    roundCards(game),
    h("div", { class: "sb-main" }, city(game, ctx), council(game, ctx)),
  ];
}

// The page footnote names the data file of the game being shown.
function footnote(game) {
  return game.data_note
    ? { text: t("sb.data_note", { file: game.data_file }), title: game.data_note }
    : null;
}

function stepText(game) {
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

function summary(game, ctx) {
  return h(
    "div",
    { class: "summary sb-summary" },
    h("span", { class: "round" }, t("sb.round", { round: game.round, rounds: game.rounds })),
    h("span", { class: "sb-stepname", id: "sb-step" }, stepText(game)),
    h(
      "span",
      null,
      h(
        "span",
        { class: "muted", "data-explain": "order", tabindex: "0" },
        t("sb.start_player") + ": ",
      ),
      badge(game.start_player, game, ctx),
    ),
    h(
      "ol",
      { class: "sb-steps", "aria-label": t("sb.steps"), "data-explain": "steps", tabindex: "0" },
      STEP_LETTERS.split("").map((l) => {
        const now = game.step && game.step.letter === l && game.phase !== "planning";
        return h("li", { class: now ? "now" : null, title: t("sb.step_title." + l) }, l);
      }),
    ),
  );
}

function roundCards(game) {
  // A focusable, labelled scroller: on a phone the row scrolls sideways inside itself.
  return h(
    "ol",
    {
      class: "sb-rounds",
      "aria-label": t("sb.round_cards"),
      tabindex: "0",
      "data-explain": "round_card",
    },
    game.round_cards.map((rc, i) => {
      return h(
        "li",
        {
          class:
            "sb-roundcard" +
            (rc.current ? " current" : "") +
            (i + 1 < game.round || game.phase === "over" ? " past" : ""),
          "aria-current": rc.current ? "true" : null,
        },
        h(
          "div",
          { class: "sb-rc-head" },
          t("sb.round_n", { n: i + 1 }),
          rc.current ? h("span", { class: "called-tag" }, t("sb.now")) : null,
        ),
        h(
          "ol",
          { class: "sb-rc-guilds" },
          rc.guilds.map((g, k) => {
            return h("li", null, h("span", { class: "muted" }, "BDF"[k] + " "), guildTag(g, game));
          }),
        ),
        h(
          "div",
          { class: "sb-rc-edifice", "data-explain": "edifice", tabindex: "0" },
          "⌂ ",
          edificeName(rc.edifice),
          " ",
          h("span", { class: "muted" }, t("sb.points", { n: rc.edifice.value })),
        ),
      );
    }),
  );
}

// Cells the current decision may use, keyed "r,c" -> command.
function cellCommands(game) {
  const out = {};
  (game.legal || []).forEach((c) => {
    if ((c.type === "build" || c.type === "edifice") && c.cell) out[c.cell.join(",")] = c;
  });
  return out;
}

function city(game, ctx) {
  const grid = game.board.grid,
    members = game.city.members;
  const edifices = {};
  game.city.edifices.forEach((e) => {
    edifices[e.cell.join(",")] = e;
  });
  const clickable = ctx.readOnly ? {} : cellCommands(game);
  // A chapel site is the corner below-right of its cell: a space whose top-left corner is a
  // site moves its letter in, one whose bottom-right corner is a site its price (the CSS).
  const sited = {};
  game.board.chapel_sites.forEach((site) => {
    sited[site.join(",")] = true;
  });
  const placing =
    Object.keys(clickable).length > 0 ||
    (!ctx.readOnly && ofType(game.legal || [], "chapel").length > 0);
  const cells = [];
  grid.forEach((row, r) => {
    row.split("").forEach((letter, c) => {
      const key = r + "," + c,
        g = guildOfLetter(game, letter),
        who = members[r][c],
        ed = edifices[key];
      const cmd = clickable[key];
      const chosen = cmd && draft.cmd && same(draft.cmd, cmd);
      const price = game.board.prices[r][c];
      const label =
        (g ? guildName(g) : t("sb.building_space")) +
        ", " +
        cellName([r, c]) +
        (price !== null ? ", " + t("sb.price", { p: price }) : "") +
        (who !== null ? ", " + ctx.seatName(who) : "") +
        (ed ? ", " + edificeName(ed) : "");
      const body = [
        h("span", { class: "sb-letter", "aria-hidden": "true" }, g ? guildLetter(g) : ""),
        price !== null ? h("span", { class: "sb-price", "aria-hidden": "true" }, price) : null,
        who !== null
          ? h("span", { class: "sb-member p" + who, "aria-hidden": "true" }, SEAT_MARK[who])
          : null,
        ed
          ? h(
              "span",
              { class: "sb-edifice", "aria-hidden": "true" },
              h("span", { class: "sb-ed-name" }, edificeName(ed)),
              h("span", { class: "sb-ed-mark" }, edificeMark(ed, game)),
            )
          : null,
      ];
      // Each space explains itself on hover or a long press (explain.js); the keyboard
      // reaches the same words at the legend, not at every one of the 54 cells.
      const kind = ed ? "edifice" : g ? "space" : "building_space";
      const cls =
        "sb-cell " +
        (g ? "sb-g-" + g : "sb-space") +
        (cmd ? " can" : "") +
        (sited[r - 1 + "," + (c - 1)] ? " sb-site-tl" : "") +
        (sited[key] ? " sb-site-br" : "");
      // A legal place is a button out of the tab order: the prompt's options are the
      // keyboard's way to the same commands, so Tab does not pass every cell twice.
      cells.push(
        cmd
          ? pieces.boardPick(
              "button",
              {
                class: cls,
                id: "cell-" + r + "-" + c,
                "aria-label": label + " — " + describe(cmd, ctx, game),
                title: describe(cmd, ctx, game),
                "data-watch": "cell-" + key,
                "data-explain": kind,
              },
              chosen,
              () => {
                pick(ctx, cmd);
              },
              body,
            )
          : h(
              "div",
              {
                class: cls,
                id: "cell-" + r + "-" + c,
                role: "img",
                "aria-label": label,
                title: label,
                "data-watch": "cell-" + key,
                "data-explain": kind,
              },
              body,
            ),
      );
    });
  });
  const rows = grid.length,
    cols = grid[0].length;
  const sites = game.board.chapel_sites.map((site, i) => {
    const built = game.city.chapels.indexOf(i) >= 0;
    const cmd =
      !ctx.readOnly &&
      (game.legal || []).filter((c) => {
        return c.type === "chapel" && c.site === i;
      })[0];
    const chosen = cmd && draft.cmd && same(draft.cmd, cmd);
    const style =
      "left:" + ((site[1] + 1) / cols) * 100 + "%;top:" + ((site[0] + 1) / rows) * 100 + "%";
    const label = t(built ? "sb.chapel_built" : "sb.chapel_site", {
      corner: cornerName(site, game.board),
    });
    const cls = "sb-chapel" + (built ? " built" : "") + (cmd ? " can" : "");
    return cmd
      ? pieces.boardPick(
          "button",
          {
            class: cls,
            style,
            id: "chapel-" + i,
            "aria-label": label + " — " + describe(cmd, ctx, game),
            title: describe(cmd, ctx, game),
            "data-watch": "chapel-" + i,
            "data-explain": "chapel",
          },
          chosen,
          () => {
            pick(ctx, cmd);
          },
          "✝",
        )
      : h(
          "span",
          {
            class: cls,
            style,
            title: label,
            role: "img",
            "aria-label": label,
            "data-watch": "chapel-" + i,
            "data-explain": "chapel",
          },
          built ? "✝" : "",
        );
  });
  return h(
    "figure",
    { class: "sb-city card" },
    h("figcaption", null, t("sb.city"), h("span", { class: "muted" }, " · " + t("sb.city_hint"))),
    h(
      "div",
      { class: "sb-axes", style: "--cols:" + cols + ";--rows:" + rows, "data-pick-area": "" },
      h("span", { class: "sb-corner" }),
      h("div", { class: "sb-axis sb-cols", "aria-hidden": "true" }, numbers(cols)),
      h("div", { class: "sb-axis sb-rows", "aria-hidden": "true" }, numbers(rows)),
      h(
        "div",
        { class: "sb-grid-wrap" },
        h("div", { class: "sb-grid" + (placing ? " choosing" : ""), id: "sb-grid" }, cells),
        h("div", { class: "sb-chapels" }, sites),
      ),
    ),
    legend(game),
  );
}

// On a phone a space is too narrow for an edifice's name: it shows the mark of the round
// card that brought it ("⌂2", as the round cards show "⌂ Bathhouse"), and the city's legend
// names each built edifice by that mark.
function edificeMark(ed, game) {
  let round = 0;
  game.round_cards.forEach((rc, i) => {
    if (rc.edifice.key === ed.key) round = i + 1;
  });
  return "⌂" + (round || "");
}

function numbers(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h("span", null, i));
  return out;
}

function legend(game) {
  return h(
    "ul",
    { class: "sb-legend" },
    GUILDS.map((g) => {
      const info = game.board.guilds[g];
      return h(
        "li",
        { "data-explain": "space", tabindex: "0" },
        guildTag(g, game),
        " ",
        h(
          "span",
          { class: "muted" },
          t("sb.good_worth", { good: goodName(g, 1), v: info.good_value }),
        ),
      );
    }),
    h(
      "li",
      { "data-explain": "building_space", tabindex: "0" },
      h("span", { class: "sb-gtag sb-space" }, "⌂"),
      " ",
      t("sb.building_space"),
    ),
    h(
      "li",
      { "data-explain": "chapel", tabindex: "0" },
      h("span", { class: "sb-chapel built inline" }, "✝"),
      " ",
      t("sb.chapel_legend"),
    ),
    game.city.edifices.map((ed) => {
      return h(
        "li",
        { class: "sb-ed-legend", "data-explain": "edifice", tabindex: "0" },
        h("b", { class: "sb-ed-key" }, edificeMark(ed, game)),
        " ",
        edificeName(ed),
        " ",
        h("span", { class: "muted" }, cellName(ed.cell)),
      );
    }),
  );
}

function council(game, ctx) {
  return h(
    "section",
    { class: "sb-council card", "aria-label": t("sb.council") },
    h("h2", { "data-explain": "council", tabindex: "0" }, t("sb.council")),
    h(
      "ul",
      null,
      COUNCIL.map((key) => {
        const who = game.council[key];
        return h(
          "li",
          {
            class: "sb-seat" + (GUILDS.indexOf(key) >= 0 ? " sb-g-" + key : " sb-seat-" + key),
            id: "council-" + key,
            "data-watch": "council-" + key,
            "data-explain": "council",
          },
          h("span", { class: "sb-seat-name" }, t("sb.council." + key)),
          who === null ? h("span", { class: "muted" }, t("sb.empty")) : badge(who, game, ctx),
        );
      }),
    ),
  );
}

// ---- the council phase, as a summary (summary.js shows it) ---------------------------

// The council phases' summaries (strasbourg_summary.js) are loaded with the first council
// scored in a log; until they are here the answer is null (not known yet), and the page is
// drawn again when they come.
let summaryModule = null;
let summaryLoading = false;
function councils(log, game) {
  if (summaryModule) return summaryModule.summaries(log, game);
  if (
    !log.some((e) => {
      return e.type === "CouncilScored";
    })
  )
    return [];
  if (!summaryLoading) {
    summaryLoading = true;
    import("./strasbourg_summary.js").then((m) => {
      summaryModule = m;
      redraw();
    });
  }
  return null;
}

// ---- players' screens -------------------------------------------------------------

function players(game, ctx) {
  if (!game) return null;
  const out = [];
  for (let s = 0; s < game.seats; s++) out.push(playerCard(game.players[s], game, ctx));
  return out;
}

// The seat's status while the table plans in secret: stacks in the planning phase, task
// cards in the tasks phase (the same sealed record, but a seat that kept its tasks has put
// no stacks down, and one still choosing is not planning).
function planningTag(p, game) {
  if (!p.planning || (game.phase !== "planning" && game.phase !== "tasks")) return null;
  return pieces.planningTag(
    p.planning,
    t((game.phase === "tasks" ? "sb.tasks_tag." : "sb.plan.") + p.planning),
  );
}

function stacksText(p, mine, game, ctx) {
  if (mine && mine.stacks.length) {
    // In an influence step, one's own stack that a listed "reveal" turns over is tapped.
    const reveals =
      p.seat === ctx.mySeat && !ctx.readOnly && game.phase === "influence"
        ? ofType(game.legal || [], "reveal")
        : [];
    return mine.stacks.map((st, i) => {
      // The cards stand apart by spaces in the text too, not only by the gap between the
      // chips: the stack's spoken name starts with its text ("2 2 =4 — Turn over stack 1"),
      // which without them read "22=4" (WCAG 2.5.3, axe's label-content-name-mismatch).
      const body = [
        st.map((v) => {
          return [cardChip(v), " "];
        }),
        h("small", null, "=" + sum(st)),
      ];
      const cmd = reveals.filter((c) => {
        return c.stack === i;
      })[0];
      if (!cmd)
        return h(
          "span",
          { class: "sb-stack mine", title: t("sb.stack_n", { n: i + 1 }), "data-explain": "stack" },
          body,
        );
      return pieces.boardPick(
        "span",
        {
          class: "sb-stack mine can",
          id: "board-stack-" + i,
          title: describe(cmd, ctx, game),
          "aria-label": st.join(" ") + " =" + sum(st) + " — " + describe(cmd, ctx, game),
          "data-explain": "stack",
        },
        !!draft.cmd && same(draft.cmd, cmd),
        () => {
          pick(ctx, cmd);
        },
        body,
      );
    });
  }
  if (!p.stacks.length) return h("span", { class: "muted" }, t("none"));
  return p.stacks.map((n, i) => {
    return h(
      "span",
      { class: "sb-stack", title: t("sb.stack_n", { n: i + 1 }), "data-explain": "stack" },
      t("sb.cards_n", { n }),
    );
  });
}

function playerCard(p, game, ctx) {
  const meSeat = ctx.mySeat === p.seat;
  const me = meSeat ? game.me : p.screen || null; // p.screen: a finished game's replay shows all
  const acting = game.to_act.indexOf(p.seat) >= 0;
  const seatInfo = (ctx.table && ctx.table.seats && ctx.table.seats[p.seat]) || {};
  // A fresh element each time: a DOM node can stand in one place only.
  const hidden = () => {
    return h("span", { class: "muted sb-hidden", title: t("sb.hidden_hint") }, t("player.hidden"));
  };
  return h(
    "article",
    {
      class: "player p" + p.seat + (meSeat ? " me" : "") + (acting ? " acting" : ""),
      id: "player-" + p.seat,
    },
    h(
      "header",
      null,
      badge(p.seat, game, ctx),
      meSeat ? h("span", { class: "you" }, t("player.you")) : null,
      offline(p.seat, seatInfo, ctx)
        ? h("span", { class: "offline-tag" }, t("player.offline"))
        : null,
      ctx.table ? botOffer(p.seat, seatInfo, game, ctx) : null,
      game.start_player === p.seat
        ? h("span", { class: "ptag", title: t("sb.start_player") }, "★")
        : null,
      acting ? h("span", { class: "ptag acting-tag" }, t("player.acting")) : null,
      planningTag(p, game),
    ),
    ctx.seatActs && game.phase !== "over" ? ctx.seatActs(p.seat) : null, // docs/clocks.md
    h(
      "dl",
      null,
      h("dt", { "data-explain": "prestige", tabindex: "0" }, t("sb.prestige")),
      h("dd", { class: "sb-prestige", "data-watch": "prestige-" + p.seat }, p.prestige),
      h("dt", { "data-explain": "coins", tabindex: "0" }, t("sb.coins")),
      h("dd", { id: meSeat ? "my-coins" : null }, me ? me.coins : hidden()),
      h("dt", { "data-explain": "goods", tabindex: "0" }, t("sb.goods")),
      h("dd", null, me ? goodsChips(me.goods) : hidden()),
      h("dt", { "data-explain": "privilege", tabindex: "0" }, t("sb.privileges")),
      h("dd", null, me ? me.privileges : hidden()),
      h("dt", { "data-explain": "members", tabindex: "0" }, t("sb.members")),
      h(
        "dd",
        { "data-watch": "members-" + p.seat },
        t("sb.members_detail", { city: p.city_members, council: p.council_members }),
      ),
      h("dt", { "data-explain": "influence", tabindex: "0" }, t("sb.influence")),
      h(
        "dd",
        null,
        t("sb.cards_left", { n: p.cards_left }),
        me ? " · " + t("sb.deck_n", { n: me.deck }) : null,
        p.spent.length
          ? h(
              "span",
              { class: "muted", title: t("sb.spent_hint") },
              " · " + t("sb.spent", { cards: p.spent.join(" ") }),
            )
          : null,
      ),
      h("dt", { "data-explain": "stack", tabindex: "0" }, t("sb.stacks")),
      h(
        "dd",
        { class: "sb-stacks", "data-watch": "stacks-" + p.seat },
        stacksText(p, me, game, ctx),
      ),
      p.revealed
        ? [
            h("dt", null, t("sb.revealed")),
            h(
              "dd",
              { class: "sb-revealed", "data-watch": "revealed-" + p.seat },
              p.revealed.map((v) => {
                return cardChip(v, "up");
              }),
              " = " + sum(p.revealed),
            ),
          ]
        : null,
      p.passed ? [h("dt", null, t("sb.this_step")), h("dd", null, t("sb.passed"))] : null,
      me
        ? [
            h("dt", { "data-explain": "task", tabindex: "0" }, t("sb.tasks")),
            h(
              "dd",
              null,
              me.tasks.length
                ? h("ul", { class: "sb-tasks" }, me.tasks.map(taskItem))
                : h("span", { class: "muted" }, t("none")),
            ),
          ]
        : [
            h("dt", { "data-explain": "task", tabindex: "0" }, t("sb.tasks")),
            h("dd", null, hidden()),
          ],
    ),
  );
}

// A task card in the page's language: "sb.task.<kind>" with the edifice or guild it
// names; the data file's English text when the dictionary has no such kind.
function taskText(task) {
  const key = "sb.task." + task.kind;
  if (!has(key)) return task.text;
  const named = task.param || "";
  return t(key, {
    edifice: edificeName({ key: named, name: edificeNames[named] || named }),
    guild: guildName(named),
  });
}

function taskItem(task) {
  return h(
    "li",
    { title: task.kind, "data-explain": "task" },
    h("b", null, "+" + task.value),
    " ",
    taskText(task),
  );
}

function goodsChips(goods) {
  return pieces.goodsChips(goods, GUILDS, goodName, (g) => {
    return "sb-good sb-g-" + g;
  });
}

// ---- prompts ----------------------------------------------------------------------

function prompt(game, ctx) {
  if (!game || ctx.readOnly || ctx.mySeat === null || game.phase === "over") return null;
  draft.sync(game);
  const legal = game.legal || [];
  if (!legal.length) return waitingNote(game, ctx);
  let body;
  if (game.phase === "tasks") body = tasksPrompt(game, legal, ctx);
  else if (game.phase === "planning") body = planningPrompt(game, legal, ctx);
  else if (game.phase === "influence") body = influencePrompt(game, legal, ctx);
  else body = choicePrompt(game, legal, ctx);
  return h(
    "div",
    {
      class: "card prompt-card sb-prompt" + (isMyTurn(game, ctx.mySeat) ? " mine" : ""),
      id: "prompt-card",
    },
    holdings(game),
    body,
  );
}

function holdings(game) {
  const me = game.me;
  return h(
    "p",
    { class: "holdings" },
    h("span", null, t("sb.coins") + ": ", h("b", { id: "prompt-coins" }, me.coins)),
    " · ",
    h("span", null, t("sb.privileges") + ": ", h("b", null, me.privileges)),
    " · ",
    goodsChips(me.goods),
    ruleLink(game.rule),
  );
}

function waitingNote(game, ctx) {
  let text;
  if (game.phase === "tasks") text = t("sb.wait.tasks");
  else if (game.phase === "planning") {
    const p = game.players[ctx.mySeat].planning;
    text =
      p === "waiting"
        ? t("sb.wait.after", { names: seatNames(game.to_act, ctx.seatName) })
        : t("sb.wait.sealed");
  } else return null;
  return h(
    "div",
    { class: "card prompt-card" },
    h("p", { id: "sb-waiting" }, text),
    orderedNote(game, ctx),
    ruleLink(game.rule),
  );
}

function orderedNote(game, ctx) {
  return pieces.orderedNote(game, (by) => {
    return by === null
      ? t("sb.plan.ordered_table")
      : t("sb.plan.ordered_by", { name: ctx.seatName(by) });
  });
}

// Confirm, and Cancel once something is picked (it drops the pick, sends nothing).
function confirmRow(ctx, cmd) {
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

function option(cmd, label, ctx, id, extra) {
  const selected = draft.cmd && same(draft.cmd, cmd);
  return pieces.optionButton(
    label,
    selected,
    () => {
      pick(ctx, cmd);
    },
    id ? "opt-" + id : null,
    { id, child: extra },
  );
}

function tasksPrompt(game, legal, ctx) {
  const chosen = draft.picks;
  let cmd = chosen.length
    ? {
        type: "keep",
        tasks: chosen.slice().sort((a, b) => {
          return a - b;
        }),
      }
    : null;
  if (
    cmd &&
    !legal.some((c) => {
      return same(c, cmd);
    })
  )
    cmd = null;
  return h(
    "div",
    null,
    h("h2", null, t("sb.tasks.title")),
    h("p", { class: "muted" }, t("sb.tasks.hint")),
    h(
      "ul",
      { class: "sb-offer", "data-sheet-whole": "" },
      game.me.offer.map((task) => {
        const on = chosen.indexOf(task.id) >= 0;
        return h(
          "li",
          null,
          h(
            "label",
            { class: "sb-task-pick" + (on ? " selected" : "") },
            h("input", {
              type: "checkbox",
              id: "task-" + task.id,
              "data-focus": "task-" + task.id,
              checked: on,
              onchange() {
                if (on) chosen.splice(chosen.indexOf(task.id), 1);
                else chosen.push(task.id);
                ctx.rerender();
              },
            }),
            " ",
            h("b", null, "+" + task.value),
            " ",
            taskText(task),
          ),
        );
      }),
    ),
    confirmRow(ctx, cmd),
  );
}

function hand(cards, selectable, ctx) {
  return h(
    "div",
    { class: "sb-hand", role: "group", "data-choices": true, "aria-label": t("sb.hand") },
    cards.map((v, i) => {
      if (!selectable) return cardChip(v, "up");
      const on = draft.picks.indexOf(i) >= 0;
      return h(
        "button",
        {
          type: "button",
          class: "sb-card up pickable" + (on ? " selected" : ""),
          id: "hand-" + i,
          "aria-pressed": String(on),
          "aria-label": t("sb.card_value", { v }),
          "data-focus": "hand-" + i,
          "data-explain": "influence",
          onclick() {
            if (on) draft.picks.splice(draft.picks.indexOf(i), 1);
            else draft.picks.push(i);
            ctx.rerender();
          },
        },
        v,
      );
    }),
  );
}

function planningPrompt(game, legal, ctx) {
  const me = game.me;
  const types = ofType(legal, "retract").length
    ? "retract"
    : ofType(legal, "seal").length
      ? "seal"
      : ofType(legal, "stack").length
        ? "stack"
        : "draw";
  const built = me.building.length
    ? h(
        "p",
        null,
        t("sb.plan.built") + " ",
        me.building.map((st) => {
          return h(
            "span",
            { class: "sb-stack mine" },
            st.map((v) => {
              return cardChip(v);
            }),
            h("small", null, "=" + sum(st)),
          );
        }),
      )
    : null;
  if (types === "retract") {
    return h(
      "div",
      null,
      h("h2", null, t("sb.plan.sealed_title")),
      h(
        "p",
        null,
        t("sb.plan.sealed") + " ",
        me.stacks.map((st) => {
          return h(
            "span",
            { class: "sb-stack mine" },
            st.map((v) => {
              return cardChip(v);
            }),
            h("small", null, "=" + sum(st)),
          );
        }),
      ),
      h("p", { class: "muted" }, t("sb.plan.retract_hint")),
      h(
        "button",
        {
          type: "button",
          id: "sb-retract",
          "data-focus": "sb-retract",
          onclick() {
            ctx.send({ type: "retract" });
          },
        },
        t("sb.plan.retract"),
      ),
    );
  }
  if (types === "draw") {
    const canDraw = ofType(legal, "draw").length > 0,
      canWait = ofType(legal, "wait").length > 0 && pieces.waitChangesSomething(game, ctx.mySeat);
    // The first card is always drawn: stop is offered only once a card is in hand.
    const canStop = ofType(legal, "stop").length > 0;
    return h(
      "div",
      null,
      h("h2", null, t("sb.plan.draw_title", { round: game.round })),
      h(
        "p",
        null,
        t("sb.plan.drawn") + " ",
        me.hand.length ? hand(me.hand, false, ctx) : h("span", { class: "muted" }, t("none")),
        " ",
        h(
          "span",
          { class: "muted" },
          "· " +
            t("sb.deck_n", { n: me.deck }) +
            " · " +
            t("sb.plan.rounds_left", { n: game.rounds - game.round + 1 }),
        ),
      ),
      h("p", { class: "muted" }, t("sb.plan.draw_hint")),
      h(
        "div",
        { class: "button-row" },
        canDraw
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                id: "sb-draw",
                "data-focus": "sb-draw",
                disabled: ctx.busy,
                onclick() {
                  ctx.send({ type: "draw" });
                },
              },
              t("sb.plan.draw"),
            )
          : null,
        canStop
          ? h(
              "button",
              {
                type: "button",
                id: "sb-stop",
                "data-focus": "sb-stop",
                disabled: ctx.busy,
                onclick() {
                  ctx.send({ type: "stop" });
                },
              },
              me.hand.length ? t("sb.plan.stop") : t("sb.plan.stop_empty"),
            )
          : null,
        canWait
          ? h(
              "button",
              {
                type: "button",
                id: "sb-wait",
                "data-focus": "sb-wait",
                disabled: ctx.busy,
                title: t("sb.plan.wait_hint"),
                onclick() {
                  ctx.send({ type: "wait" });
                },
              },
              t("sb.plan.wait"),
            )
          : null,
      ),
      orderedNote(game, ctx),
    );
  }
  if (types === "seal") {
    return h(
      "div",
      null,
      h("h2", null, t("sb.plan.seal_title")),
      built,
      h(
        "button",
        {
          type: "button",
          class: "primary",
          id: "sb-seal",
          "data-focus": "sb-seal",
          disabled: ctx.busy,
          onclick() {
            ctx.send({ type: "seal" });
          },
        },
        t("sb.plan.seal"),
      ),
    );
  }
  // Splitting: pick cards from the hand, then send one "stack" command.
  const picked = draft.picks
    .map((i) => {
      return me.hand[i];
    })
    .sort((a, b) => {
      return a - b;
    });
  let cmd = picked.length ? { type: "stack", cards: picked } : null;
  if (
    cmd &&
    !legal.some((c) => {
      return same(c, cmd);
    })
  )
    cmd = null;
  const all = {
    type: "stack",
    cards: me.hand.slice().sort((a, b) => {
      return a - b;
    }),
  };
  return h(
    "div",
    null,
    h("h2", null, t("sb.plan.split_title")),
    h("p", { class: "muted" }, t("sb.plan.split_hint")),
    built,
    h("p", null, t("sb.plan.unstacked") + " "),
    hand(me.hand, true, ctx),
    pieces.sendRow(
      ctx,
      cmd,
      cmd
        ? t("sb.plan.make", { cards: picked.join(" + "), total: sum(picked) })
        : t("sb.plan.pick"),
      { id: "sb-make-stack", label: t("sb.plan.make_stack") },
      {
        id: "sb-rest-stack",
        label: t("sb.plan.rest_stack"),
        disabled: ctx.busy,
        onclick() {
          ctx.send(all);
        },
      },
    ),
  );
}

function influencePrompt(game, legal, ctx) {
  const me = game.me,
    step = game.step;
  const opts = ofType(legal, "reveal").map((c) => {
    const st = me.stacks[c.stack];
    return option(
      c,
      t("sb.reveal", { n: c.stack + 1, cards: st.join(" + "), total: sum(st) }),
      ctx,
      "reveal-" + c.stack,
    );
  });
  if (ofType(legal, "pass").length)
    opts.push(option({ type: "pass" }, t("sb.pass"), ctx, "sb-pass"));
  if (ofType(legal, "privilege").length)
    opts.push(option({ type: "privilege" }, t("sb.privilege"), ctx, "sb-privilege"));
  const shown = game.players
    .filter((p) => {
      return p.revealed;
    })
    .map((p) => {
      return h(
        "li",
        null,
        badge(p.seat, game, ctx),
        " ",
        p.revealed.map((v) => {
          return cardChip(v, "up");
        }),
        " = " + sum(p.revealed),
      );
    });
  return h(
    "div",
    null,
    h("h2", null, stepText(game)),
    h("p", { class: "muted" }, t("sb.kind_hint." + step.kind)),
    shown.length
      ? h("ul", { class: "sb-shown" }, shown)
      : h("p", { class: "muted" }, t("sb.nobody_revealed")),
    h("div", { class: "options" }, opts),
    confirmRow(ctx, draft.cmd),
  );
}

function choicePrompt(game, legal, ctx) {
  const choice = game.step.choice || {};
  const kind = choice.kind;
  const opts = [];
  legal.forEach((c, i) => {
    opts.push(option(c, describe(c, ctx, game), ctx, "choice-" + i));
  });
  const hint =
    kind === "build" || kind === "apprentice"
      ? t("sb.choice_hint.build")
      : kind === "chapel"
        ? t("sb.choice_hint.chapel")
        : kind === "edifice"
          ? t("sb.choice_hint.edifice")
          : t("sb.choice_hint." + kind);
  return h(
    "div",
    null,
    h(
      "h2",
      null,
      t("sb.choice." + kind, {
        guild: choice.guild ? guildName(choice.guild) : "",
        role: choice.role ? t("sb.role." + choice.role) : "",
      }),
    ),
    h("p", { class: "muted" }, hint),
    h("div", { class: "options" + (legal.length > 8 ? " many" : "") }, opts),
    confirmRow(ctx, draft.cmd),
  );
}

// A command in plain words (confirm line, options, replay).
function describe(cmd, ctx, game) {
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

// ---- status line ------------------------------------------------------------------

function status(game, ctx) {
  if (!game) return { text: t("table.starting"), mine: false };
  const mine = isMyTurn(game, ctx.mySeat);
  const names = (seats) => {
    return seatNames(seats, ctx.seatName);
  };
  if (game.phase === "over") {
    return {
      text: t("status.over_winner", { names: names((game.result && game.result.winners) || []) }),
      mine: false,
    };
  }
  const where = t("sb.round", { round: game.round, rounds: game.rounds }) + " · ";
  if (game.phase === "tasks")
    return {
      text:
        where +
        (mine ? t("sb.status.tasks_you") : t("sb.status.wait", { names: names(game.to_act) })),
      mine,
    };
  if (game.phase === "planning")
    return {
      text:
        where +
        (mine ? t("sb.status.plan_you") : t("sb.status.plan_wait", { names: names(game.to_act) })),
      mine,
    };
  const head = where + stepText(game) + " · ";
  if (mine) return { text: head + t("sb.status.you"), mine: true };
  return { text: head + t("sb.status.wait", { names: names(game.to_act) }), mine: false };
}

// A finished game's replay: each seat's own screen (coins, goods, privileges, tasks, deck,
// stacks) from that seat's own view.
function reveal(view, seatViews) {
  return Object.assign({}, view, {
    players: view.players.map((p, s) => {
      return Object.assign({}, p, { screen: seatViews[s] ? seatViews[s].me : null });
    }),
  });
}

// The renderer table.js draws a Strasbourg table with (docs/ui.md).
export default {
  board,
  players,
  prompt,
  status,
  result,
  isMyTurn,
  playerBadge: badge,
  describe(cmd, ctx) {
    return describe(cmd, ctx, ctx.game);
  },
  logPrefix: "sb.log.",
  logFormats: LOG_FORMATS,
  footnote,
  summaries: councils,
  reveal,
};
