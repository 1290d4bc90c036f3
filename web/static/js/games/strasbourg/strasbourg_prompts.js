// Strasbourg's prompts after the tasks: planning (draw cards, split them into stacks, seal
// them or take them back), the influence steps and the council's choices. strasbourg.js loads
// this module when the table first leaves the tasks phase. Prompts are built only from the
// view's "legal" list: the player picks one of the listed commands (or assembles a stack from
// drawn cards) and sends it on Confirm. No rule lives here.
import { h, t } from "../../i18n.js";
import * as pieces from "../../pieces.js";
import { badge, ofType, same } from "../../pieces.js";
import {
  cardChip,
  confirmRow,
  describe,
  draft,
  guildName,
  orderedNote,
  pick,
  stepText,
  sum,
} from "./strasbourg_data.js";

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

export function planningPrompt(game, legal, ctx) {
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

export function influencePrompt(game, legal, ctx) {
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

export function choicePrompt(game, legal, ctx) {
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
