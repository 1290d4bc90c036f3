// Norenberc prompts, built only from the view's "legal" list: the page narrows that list
// down with the player's picks and sends the one command left on Confirm. No rule lives here.
// The planning prompt is here; the action's (norenberc_action.js) and the citizens' choices
// (norenberc_choice.js) come when one is first needed, the draft in norenberc_draft.js.
import { h, t } from "../../i18n.js";
import { redraw } from "../../page.js";
import {
  isMyTurn,
  ofType,
  orderedNote as sharedOrderedNote,
  ruleLink,
  same,
  seatNames,
  waitChangesSomething,
} from "../../pieces.js";
import { choose, confirmRow, draft, option } from "./norenberc_draft.js";
import { describe, goodsChips, guildLetter, guildName } from "./norenberc_parts.js";

// The action's and the citizens' prompts are imported with the first one a seat answers:
// until then the prompt area is empty, and the page is drawn again when the module comes.
// They are asked for as soon as they are likely to be needed: the action's once the seat
// picks a guild card or has planned some, the citizens' once it starts a hire.
const later = {};
function loaded(name) {
  if (!later[name]) {
    later[name] = {};
    const ready = (m) => {
      later[name].module = m;
      redraw();
    };
    if (name === "action") import("./norenberc_action.js").then(ready);
    else import("./norenberc_choice.js").then(ready);
  }
  return later[name].module;
}

export function prompt(game, ctx) {
  if (!game || ctx.readOnly || ctx.mySeat === null) return null;
  draft.sync(game);
  if (draft.type === "plan" || (game.my_plan && game.my_plan.length)) loaded("action");
  if (draft.type === "hire") loaded("choice");
  const legal = game.legal || [];
  if (!legal.length) return waitingNote(game, ctx);
  let body;
  if (game.phase === "planning") body = planningPrompt(game, legal, ctx);
  else if (game.action && game.action.choice) {
    const m = loaded("choice");
    if (!m) return null;
    body = m.choicePrompt(game, legal, ctx);
  } else {
    const m = loaded("action");
    if (!m) return null;
    body = m.actionPrompt(game, legal, ctx);
  }
  const mine = isMyTurn(game, ctx.mySeat) ? " mine" : "";
  return h(
    "div",
    { class: "card prompt-card" + mine, id: "prompt-card" },
    holdings(game, ctx),
    body,
  );
}

// What the player holds, beside the choice (on a phone the player areas are far below).
function holdings(game, ctx) {
  const me = game.players[ctx.mySeat];
  return h(
    "p",
    { class: "holdings" },
    h("span", null, t("player.talers") + ": ", h("b", { id: "prompt-talers" }, me.talers)),
    " · ",
    h("span", null, t("player.agents_in_hand", { n: me.agents.hand })),
    " · ",
    h("span", null, t("player.goods") + ": ", goodsChips(me.goods)),
    ruleLink(game.rule),
  );
}

function waitingNote(game, ctx) {
  if (game.phase === "planning" && game.my_plan) {
    return h(
      "div",
      { class: "card prompt-card" },
      h("p", { id: "my-plan" }, myPlanText(game)),
      orderedNote(game, ctx),
      ruleLink(game.rule),
    );
  }
  const before = game.planning ? waitingFor(game.planning, ctx.mySeat) : [];
  if (before.length) {
    return h(
      "div",
      { class: "card prompt-card" },
      h("p", { id: "plan-after" }, t("plan.after", { names: seatNames(before, ctx.seatName) })),
      orderedNote(game, ctx),
      ruleLink(game.rule),
    );
  }
  return null;
}

function orderedNote(game, ctx) {
  return sharedOrderedNote(game, (by) => {
    return by === null ? t("plan.ordered_table") : t("plan.ordered_by", { name: ctx.seatName(by) });
  });
}

// The seats before mine in planning order that have not committed yet (I wait for them).
function waitingFor(planning, seat) {
  if (planning.status[seat] !== "waiting") return [];
  const order = planning.order;
  return order.slice(0, order.indexOf(seat)).filter((s) => {
    return planning.status[s] === "planning" || planning.status[s] === "waiting";
  });
}

// Planning: toggle guild cards; the set must equal one legal "plan" to be confirmed.
function planningPrompt(game, legal, ctx) {
  const plans = ofType(legal, "plan");
  const offered = [];
  plans.forEach((c) => {
    c.guilds.forEach((g) => {
      if (offered.indexOf(g) < 0) offered.push(g);
    });
  });
  offered.sort((a, b) => {
    return a - b;
  });
  const picked = draft.type === "plan" ? draft.picks.guilds : [];
  const me = game.players[ctx.mySeat];
  let cmd = null;
  if (draft.type === "plan")
    cmd =
      plans.filter((c) => {
        return same(c.guilds, picked);
      })[0] || null;
  else if (draft.type) cmd = ofType(legal, draft.type)[0] || null;
  const toggle = (g) => {
    return () => {
      const next =
        picked.indexOf(g) >= 0
          ? picked.filter((x) => {
              return x !== g;
            })
          : picked.concat([g]).sort((a, b) => {
              return a - b;
            });
      choose(ctx, next.length ? "plan" : null, { guilds: next });
    };
  };
  const retract = ofType(legal, "retract")[0];
  if (retract && !plans.length) return sealedPlan(game, retract, ctx);
  return [
    h("h2", null, t("plan.title")),
    plans.length ? h("p", { class: "hint" }, t("plan.hint", { n: me.agents.hand })) : null,
    orderedNote(game, ctx),
    plans.length
      ? h(
          "div",
          { class: "options guild-cards", role: "group", "aria-label": t("plan.cards") },
          offered.map((g) => {
            const on = picked.indexOf(g) >= 0;
            const el = option(
              h(
                "span",
                null,
                h("span", { class: "gnum gb-" + g, "aria-hidden": "true" }, guildLetter(g)),
                " ",
                guildName(g),
              ),
              on,
              toggle(g),
              "plan-" + g,
            );
            el.dataset.explain = "card"; // what an action card is: on hover, focus or a long press
            // A card that no listed plan adds to the picked ones (no agent left for it) is off.
            if (!on && !extendsTo(plans, picked.concat([g]))) el.disabled = true;
            return el;
          }),
        )
      : null,
    h(
      "div",
      { class: "options" },
      ofType(legal, "pass").length
        ? option(
            t("plan.pass"),
            draft.type === "pass",
            () => {
              choose(ctx, "pass");
            },
            "pass",
            t("plan.pass_hint"),
          )
        : null,
      ofType(legal, "wait").length && waitChangesSomething(game, ctx.mySeat)
        ? option(
            t("plan.wait"),
            draft.type === "wait",
            () => {
              choose(ctx, "wait");
            },
            "wait",
            t("plan.wait_hint"),
          )
        : null,
    ),
    confirmRow(ctx, cmd, cmd ? describe(cmd, ctx) : ""),
  ];
}

// True when some listed plan holds every guild of ``guilds``.
function extendsTo(plans, guilds) {
  return plans.some((c) => {
    return guilds.every((g) => {
      return c.guilds.indexOf(g) >= 0;
    });
  });
}

// A committed plan that may still be taken back (nobody waiting has planned after it).
function sealedPlan(game, retract, ctx) {
  return [
    h("h2", null, t("plan.sealed_title")),
    h("p", { id: "my-plan" }, myPlanText(game)),
    h("p", { class: "hint" }, t("plan.retract_hint")),
    h(
      "button",
      {
        type: "button",
        id: "retract",
        "data-focus": "retract",
        disabled: ctx.busy,
        onclick() {
          ctx.send(retract);
        },
      },
      t("plan.retract"),
    ),
  ];
}

function myPlanText(game) {
  return game.my_plan && game.my_plan.length
    ? t("plan.mine", { guilds: game.my_plan.map(guildName).join(", ") })
    : t("plan.mine_pass");
}
