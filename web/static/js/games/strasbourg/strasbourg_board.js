// Strasbourg's board: the round and its steps, the round cards, the city with its chapel
// sites, and the council. A legal place on the city is a button that picks its command.
import { h, t } from "../../i18n.js";
import * as pieces from "../../pieces.js";
import { SEAT_MARK, badge, ofType, same } from "../../pieces.js";
import {
  COUNCIL,
  GUILDS,
  STEP_LETTERS,
  cellName,
  cornerName,
  describe,
  draft,
  edificeName,
  goodName,
  guildLetter,
  guildName,
  guildOfLetter,
  guildTag,
  pick,
  rememberGame,
  stepText,
} from "./strasbourg_data.js";

// ---- board ------------------------------------------------------------------------

export function board(game, ctx) {
  rememberGame(game, ctx);
  if (!game) return null;
  if (!ctx.readOnly) draft.sync(game);
  return [
    summary(game, ctx),
    roundCards(game),
    h("div", { class: "sb-main" }, city(game, ctx), council(game, ctx)),
  ];
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
