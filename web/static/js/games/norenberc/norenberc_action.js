// The prompt of the action at the called guild (sell, buy, hire, nothing), loaded with the
// first action phase a seat answers (norenberc_prompts.js).
import { h, t } from "../../i18n.js";
import { distinct, ofType, same } from "../../pieces.js";
import { choose, confirmRow, draft, option } from "./norenberc_draft.js";
import {
  GOODS,
  describe,
  goodName,
  goodsText,
  guildName,
  tileLabel,
  windowCost,
} from "./norenberc_parts.js";

// The action at the called guild: sell, buy, hire (window → payment → front?), nothing.
export function actionPrompt(game, legal, ctx) {
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
