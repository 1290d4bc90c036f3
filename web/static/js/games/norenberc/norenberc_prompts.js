// Norenberc prompts, built only from the view's "legal" list: the page narrows that list
// down with the player's picks and sends the one command left on Confirm. No rule lives here.
import { h, t } from "../../i18n.js";
import {
  Draft,
  confirmRow as sharedConfirmRow,
  distinct,
  isMyTurn,
  ofType,
  optionButton,
  orderedNote as sharedOrderedNote,
  ruleLink,
  same,
  seatNames,
  waitChangesSomething,
} from "../../pieces.js";
import {
  GOODS,
  describe,
  goodName,
  goodsChips,
  goodsText,
  guildLetter,
  guildName,
  placeOf,
  tileById,
  tileLabel,
  windowCost,
} from "./norenberc_parts.js";

// The draft the player is assembling: a kind of command (type) and its picks so far.
export const draft = new Draft(() => {
  return {};
});

export function choose(ctx, type, picks) {
  draft.type = type;
  draft.picks = picks || {};
  ctx.rerender();
}

// ---- picks made on the board (norenberc.js marks the places; these start the same drafts)

// The listed commands of ``type`` while this seat answers the action (not a citizen's choice).
export function listed(game, ctx, type) {
  if (!game || ctx.readOnly || ctx.mySeat === null || !game.action || !isMyTurn(game, ctx.mySeat))
    return [];
  return ofType(game.legal || [], type);
}

// Whether some listed "buy" holds every good of ``basket``.
function basketFits(buys, basket) {
  return buys.some((c) => {
    return Object.keys(basket).every((k) => {
      return (basket[k] || 0) <= (c.goods[k] || 0);
    });
  });
}

function basketPlus(kind) {
  const basket = Object.assign({}, draft.type === "buy" ? draft.picks.goods || {} : {});
  basket[kind] = (basket[kind] || 0) + 1;
  return basket;
}

// A good in the called guild's store that one more of fits a listed purchase.
export function canBuyOne(game, ctx, kind) {
  const buys = listed(game, ctx, "buy");
  return buys.length > 0 && !game.action.choice && basketFits(buys, basketPlus(kind));
}

export function buyOne(ctx, kind) {
  choose(ctx, "buy", { goods: basketPlus(kind) });
}

// Tapping one's own goods of the called guild sells one more of them (listed counts only;
// after the most it starts again at the fewest).
export function sellOneMore(ctx, game) {
  const counts = listed(game, ctx, "sell")
    .map((c) => {
      return c.count;
    })
    .sort((a, b) => {
      return a - b;
    });
  if (!counts.length) return;
  const now = draft.type === "sell" ? draft.picks.count || 0 : 0;
  const next = counts.filter((n) => {
    return n > now;
  })[0];
  choose(ctx, "sell", { count: next === undefined ? counts[0] : next });
}

// The citizen choice's listed commands of ``type`` (thief, bailiff, judge, duchess).
export function choiceListed(game, ctx, type) {
  if (!game || ctx.readOnly || ctx.mySeat === null || !game.action || !game.action.choice)
    return [];
  if (game.action.choice.seat !== ctx.mySeat) return [];
  return ofType(game.legal || [], type);
}

function pickChoice(ctx, extra) {
  const p = draft.type === "choice" ? draft.picks : {};
  choose(ctx, "choice", Object.assign({}, p, { decline: undefined }, extra));
}

export function pickVictim(ctx, victim) {
  pickChoice(ctx, { victim, goods: undefined });
}

export function pickHouse(ctx, guild) {
  pickChoice(ctx, { guild });
}

// Bailiff on the board: the first tile, then a second one that a listed swap pairs with it.
// Tapping the first again lets it go.
export function bailiffTiles(game, ctx) {
  const swaps = choiceListed(game, ctx, "bailiff");
  const first = draft.type === "choice" && !draft.picks.tiles ? draft.picks.first : undefined;
  const out = {};
  swaps.forEach((c) => {
    if (first === undefined) {
      out[c.tiles[0]] = true;
      out[c.tiles[1]] = true;
    } else if (c.tiles.indexOf(first) >= 0)
      out[c.tiles[0] === first ? c.tiles[1] : c.tiles[0]] = true;
  });
  if (first !== undefined) out[first] = true;
  return out;
}

export function isFirstTile(id) {
  return draft.type === "choice" && !draft.picks.tiles && draft.picks.first === id;
}

export function pickTile(ctx, game, id) {
  const swaps = choiceListed(game, ctx, "bailiff");
  const first = draft.type === "choice" && !draft.picks.tiles ? draft.picks.first : undefined;
  if (first === id) return pickChoice(ctx, { first: undefined, tiles: undefined });
  if (first === undefined) return pickChoice(ctx, { first: id, tiles: undefined });
  const swap = swaps.filter((c) => {
    return c.tiles.indexOf(first) >= 0 && c.tiles.indexOf(id) >= 0;
  })[0];
  if (swap) pickChoice(ctx, { first: undefined, tiles: swap.tiles });
}

function confirmRow(ctx, cmd, summaryText) {
  return sharedConfirmRow(
    ctx,
    cmd,
    summaryText,
    draft.type
      ? () => {
          choose(ctx, null);
        }
      : null,
  );
}

function option(label, selected, onclick, focusKey, title) {
  return optionButton(label, selected, onclick, focusKey, { title });
}

export function prompt(game, ctx) {
  if (!game || ctx.readOnly || ctx.mySeat === null) return null;
  draft.sync(game);
  const legal = game.legal || [];
  if (!legal.length) return waitingNote(game, ctx);
  const body =
    game.phase === "planning"
      ? planningPrompt(game, legal, ctx)
      : game.action && game.action.choice
        ? choicePrompt(game, legal, ctx)
        : actionPrompt(game, legal, ctx);
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

// The action at the called guild: sell, buy, hire (window → payment → front?), nothing.
function actionPrompt(game, legal, ctx) {
  const g = game.guilds.filter((x) => {
    return x.guild === game.action.guild;
  })[0];
  const kinds = ["sell", "buy", "hire", "nothing"].filter((k) => {
    return ofType(legal, k).length;
  });
  let cmd = null,
    detail = null;
  if (draft.type === "sell") {
    detail = sellStep(legal, ctx);
    cmd = detail.cmd;
  }
  if (draft.type === "buy") {
    detail = buyStep(legal, g, ctx);
    cmd = detail.cmd;
  }
  if (draft.type === "hire") {
    detail = hireStep(legal, g, ctx);
    cmd = detail.cmd;
  }
  if (draft.type === "nothing") cmd = ofType(legal, "nothing")[0];
  return [
    h("h2", null, t("act.title", { guild: guildName(g.guild) })),
    h("p", { class: "hint" }, t("act.price", { p: g.price, good: goodName(g.good, 1) })),
    h(
      "div",
      { class: "options", role: "group", "aria-label": t("act.choose") },
      kinds.map((k) => {
        return option(
          t("act." + k),
          draft.type === k,
          () => {
            choose(ctx, k);
          },
          "kind-" + k,
        );
      }),
    ),
    detail ? detail.el : null,
    confirmRow(ctx, cmd, cmd ? describe(cmd, ctx) : ""),
  ];
}

function sellStep(legal, ctx) {
  const sells = ofType(legal, "sell");
  const picked = draft.picks.count;
  const cmd =
    sells.filter((c) => {
      return c.count === picked;
    })[0] || null;
  const el = h(
    "div",
    { class: "step" },
    h("h3", null, t("sell.how_many")),
    h(
      "div",
      { class: "options" },
      sells.map((c) => {
        return option(
          t("sell.option", { n: c.count, total: c.total }),
          c.count === picked,
          () => {
            choose(ctx, "sell", { count: c.count });
          },
          "sell-" + c.count,
        );
      }),
    ),
  );
  return { el, cmd };
}

// Buy: steppers per good kind; the basket must equal one legal "buy" goods dict.
function buyStep(legal, g, ctx) {
  const buys = ofType(legal, "buy");
  const basket = draft.picks.goods || {};
  const clean = {};
  GOODS.forEach((k) => {
    if (basket[k]) clean[k] = basket[k];
  });
  const cmd =
    buys.filter((c) => {
      return same(c.goods, clean);
    })[0] || null;
  const kinds = GOODS.filter((k) => {
    return buys.some((c) => {
      return c.goods[k];
    });
  });
  const fits = (next) => {
    return buys.some((c) => {
      return kinds.every((k) => {
        return (next[k] || 0) <= (c.goods[k] || 0);
      });
    });
  };
  const change = (k, d) => {
    return () => {
      const next = Object.assign({}, clean);
      next[k] = (next[k] || 0) + d;
      if (!next[k]) delete next[k];
      choose(ctx, "buy", { goods: next });
    };
  };
  const total = cmd ? cmd.total : null;
  const el = h(
    "div",
    { class: "step" },
    h("h3", null, t("buy.pick")),
    h(
      "ul",
      { class: "steppers" },
      kinds.map((k) => {
        const plus = Object.assign({}, clean);
        plus[k] = (plus[k] || 0) + 1;
        return h(
          "li",
          null,
          h("span", { class: "good g-" + k }, goodName(k, 2)),
          h("span", { class: "muted" }, t("buy.in_store", { n: g.storehouse[k] || 0 })),
          h(
            "button",
            {
              type: "button",
              class: "step-btn",
              "data-focus": "buy-minus-" + k,
              disabled: !clean[k],
              "aria-label": t("buy.less", { good: goodName(k, 1) }),
              onclick: change(k, -1),
            },
            "−",
          ),
          h("b", { class: "count", id: "buy-count-" + k }, clean[k] || 0),
          h(
            "button",
            {
              type: "button",
              class: "step-btn",
              "data-focus": "buy-plus-" + k,
              disabled: !fits(plus),
              "aria-label": t("buy.more", { good: goodName(k, 1) }),
              onclick: change(k, 1),
            },
            "+",
          ),
        );
      }),
    ),
    h("p", { class: "total" }, total === null ? t("buy.pick_hint") : t("buy.total", { total })),
  );
  return { el, cmd };
}

// Hire: window, then payment, then whether to move to the front.
function hireStep(legal, g, ctx) {
  const hires = ofType(legal, "hire");
  const p = draft.picks;
  const pick = (extra) => {
    return () => {
      choose(ctx, "hire", Object.assign({}, p, extra));
    };
  };
  const windows = distinct(
    hires.map((c) => {
      return c.window;
    }),
  ).sort((a, b) => {
    return a - b;
  });
  const parts = [
    h("h3", null, t("hire.window")),
    h(
      "div",
      { class: "options" },
      windows.map((w) => {
        return option(
          h(
            "span",
            null,
            t("hire.window_n", { n: w }),
            " — ",
            tileLabel(g.guests[w - 1]),
            " · ",
            windowCost(w),
          ),
          p.window === w,
          pick({ window: w, payment: undefined, to_front: undefined }),
          "win-" + w,
        );
      }),
    ),
  ];
  const forWindow = hires.filter((c) => {
    return c.window === p.window;
  });
  if (p.window) {
    const payments = distinct(
      forWindow.map((c) => {
        return c.payment;
      }),
    );
    if (payments.length === 1 && p.payment === undefined) p.payment = payments[0];
    parts.push(
      h("h3", null, t("hire.payment")),
      h(
        "div",
        { class: "options" },
        payments.map((pay, i) => {
          return option(
            t("hire.pay", { goods: goodsText(pay) }),
            same(p.payment, pay),
            pick({ payment: pay, to_front: undefined }),
            "pay-" + i,
          );
        }),
      ),
    );
  }
  const forPay = forWindow.filter((c) => {
    return same(c.payment, p.payment);
  });
  if (p.payment !== undefined && forPay.length) {
    const fronts = distinct(
      forPay.map((c) => {
        return c.to_front;
      }),
    );
    if (fronts.length === 1 && p.to_front === undefined) p.to_front = fronts[0];
    parts.push(
      h("h3", null, t("hire.front")),
      h(
        "div",
        { class: "options" },
        fronts.map((f) => {
          return option(
            t(f ? "hire.front_yes" : "hire.front_no"),
            p.to_front === f,
            pick({ to_front: f }),
            "front-" + f,
          );
        }),
      ),
    );
  }
  const cmd =
    forPay.filter((c) => {
      return c.to_front === p.to_front;
    })[0] || null;
  return { el: h("div", { class: "step" }, parts), cmd };
}

// Citizen choices after a hire: thief, bailiff, peddler, chief judge, and the promo's
// historian and duchess (or decline).
function choicePrompt(game, legal, ctx) {
  const citizen = game.action.choice.citizen;
  const p = draft.picks;
  const pick = (extra) => {
    return () => {
      choose(ctx, "choice", Object.assign({}, p, extra));
    };
  };
  const steps = [];
  let cmd = null;
  const declines = ofType(legal, "decline");
  const steals = ofType(legal, "steal");
  if (steals.length) {
    const victims = distinct(
      steals.map((c) => {
        return c.victim;
      }),
    );
    steps.push(
      h("h3", null, t("thief.victim")),
      h(
        "div",
        { class: "options" },
        victims.map((v) => {
          return option(
            ctx.seatName(v),
            p.victim === v,
            pick({ victim: v, goods: undefined, decline: undefined }),
            "victim-" + v,
          );
        }),
      ),
    );
    if (p.victim !== undefined) {
      const mine = steals.filter((c) => {
        return c.victim === p.victim;
      });
      steps.push(
        h("h3", null, t("thief.goods")),
        h(
          "div",
          { class: "options" },
          mine.map((c, i) => {
            return option(
              t("thief.option", { goods: goodsText(c.goods), paid: c.paid }),
              same(p.goods, c.goods),
              pick({ goods: c.goods, decline: undefined }),
              "steal-" + i,
            );
          }),
        ),
      );
      cmd =
        mine.filter((c) => {
          return same(c.goods, p.goods);
        })[0] || null;
    }
  }
  const swaps = ofType(legal, "bailiff");
  if (swaps.length) {
    // One row per guild of craftsmen; a button names only the two places ("3 (Bakers,
    // window 3) ⇄ 4 (Brewers workshop)"), the picked tiles are marked on the board.
    const byGuild = {};
    swaps.forEach((c, i) => {
      const guild = tileById(game, c.tiles[0]).guild;
      (byGuild[guild] = byGuild[guild] || []).push(
        option(
          t("bailiff.option", { a: placeOf(game, c.tiles[0]), b: placeOf(game, c.tiles[1]) }),
          same(p.tiles, c.tiles),
          pick({ tiles: c.tiles, decline: undefined }),
          "swap-" + i,
          describe(c, ctx, game),
        ),
      );
    });
    steps.push(
      h("h3", null, t("bailiff.pick")),
      Object.keys(byGuild).map((guild) => {
        return h(
          "div",
          { class: "swap-guild" },
          h("h4", null, t("bailiff.guild", { guild: guildName(Number(guild)) })),
          h("div", { class: "options swaps" }, byGuild[guild]),
        );
      }),
    );
    cmd =
      swaps.filter((c) => {
        return same(c.tiles, p.tiles);
      })[0] || cmd;
  }
  const loads = ofType(legal, "peddler_good");
  if (loads.length) {
    steps.push(
      h("h3", null, t("peddler.pick")),
      h(
        "div",
        { class: "options" },
        loads.map((c) => {
          return option(
            goodName(c.good, 1),
            p.good === c.good,
            pick({ good: c.good }),
            "ped-" + c.good,
          );
        }),
      ),
    );
    cmd =
      loads.filter((c) => {
        return c.good === p.good;
      })[0] || cmd;
  }
  const houses = ofType(legal, "judge_house");
  if (houses.length) {
    steps.push(
      h("h3", null, t("judge.pick")),
      h(
        "div",
        { class: "options" },
        houses.map((c) => {
          return option(
            guildName(c.guild),
            p.guild === c.guild,
            pick({ guild: c.guild }),
            "judge-" + c.guild,
          );
        }),
      ),
    );
    cmd =
      houses.filter((c) => {
        return c.guild === p.guild;
      })[0] || cmd;
  }
  const exchanges = ofType(legal, "historian");
  if (exchanges.length) {
    steps.push(
      h("h3", null, t("historian.pick")),
      h(
        "div",
        { class: "options" },
        exchanges.map((c) => {
          return option(
            describe(c, ctx, game),
            p.give === c.give && p.take === c.take,
            pick({ give: c.give, take: c.take, decline: undefined }),
            "historian-" + c.give + "-" + c.take,
          );
        }),
      ),
    );
    cmd =
      exchanges.filter((c) => {
        return c.give === p.give && c.take === p.take;
      })[0] || cmd;
  }
  const moves = ofType(legal, "duchess");
  if (moves.length) {
    steps.push(
      h("h3", null, t("duchess.pick")),
      h(
        "div",
        { class: "options" },
        moves.map((c) => {
          return option(
            guildName(c.guild),
            p.guild === c.guild,
            pick({ guild: c.guild, decline: undefined }),
            "duchess-" + c.guild,
          );
        }),
      ),
    );
    cmd =
      moves.filter((c) => {
        return c.guild === p.guild;
      })[0] || cmd;
  }
  if (declines.length) {
    steps.push(
      h(
        "div",
        { class: "options" },
        option(
          t("choice.decline"),
          p.decline,
          pick({
            decline: true,
            victim: undefined,
            tiles: undefined,
            first: undefined,
            give: undefined,
            take: undefined,
            guild: undefined,
          }),
          "decline",
        ),
      ),
    );
    if (p.decline) cmd = declines[0];
  }
  return [
    h("h2", null, t("choice.title", { citizen: t("citizen." + citizen, { v: "" }) })),
    h("p", { class: "hint" }, t("power." + citizen, { v: "" })),
    steps,
    confirmRow(ctx, cmd, cmd ? describe(cmd, ctx, game) : ""),
  ];
}
