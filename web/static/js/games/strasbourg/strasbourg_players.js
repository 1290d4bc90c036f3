// Strasbourg's players: each seat's screen (prestige, coins, goods, privileges, members,
// influence cards, stacks, tasks), one's own in full and the others' hidden parts hidden.
import { h, has, t } from "../../i18n.js";
import * as pieces from "../../pieces.js";
import { badge, botOffer, offline, ofType, same } from "../../pieces.js";
import {
  GUILDS,
  cardChip,
  describe,
  draft,
  edificeName,
  edificeNames,
  goodName,
  guildName,
  pick,
  sum,
} from "./strasbourg_data.js";

// ---- players' screens -------------------------------------------------------------

export function players(game, ctx) {
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
export function taskText(task) {
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

export function goodsChips(goods) {
  return pieces.goodsChips(goods, GUILDS, goodName, (g) => {
    return "sb-good sb-g-" + g;
  });
}
