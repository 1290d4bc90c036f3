// Norenberc: the board, the players' areas, the status line and every prompt.
// Prompts are built only from the view's "legal" list: the page narrows that list down
// with the player's picks and sends the one command left on Confirm. No rule lives here.
"use strict";
(function (GH) {
  var t = GH.t, h = GH.h;
  var GOODS = ["beer", "pastry", "shoes", "paper", "cloth", "hats"];
  var SYMBOL = { star: "★", moon: "☾", sun: "☀" };
  var SEAT_MARK = ["●", "▲", "■", "◆", "✚"];

  // The draft the player is assembling; reset whenever the legal list changes.
  var draft = { key: null, type: null, picks: {} };

  // ---- small pieces -----------------------------------------------------------------

  function goodOfGuild(guild) {
    return GOODS[guild - 1];
  }

  function guildName(guild) {
    return t("guild." + guild);
  }

  function goodName(good, n) {
    return t(n === 1 ? "good." + good : "goods." + good);
  }

  function badge(seat, game, ctx) {
    return h("span", { class: "pbadge p" + seat, title: ctx.seatName(seat) },
      h("span", { class: "pmark", "aria-hidden": "true" }, SEAT_MARK[seat]), " ", ctx.seatName(seat));
  }

  function mark(seat) {
    return h("span", { class: "pmark p" + seat, "aria-hidden": "true" }, SEAT_MARK[seat]);
  }

  function goodsChips(goods, cls) {
    var keys = GOODS.filter(function (g) { return goods && goods[g]; });
    if (!keys.length) return h("span", { class: "muted" }, t("none"));
    return h("span", { class: "chips " + (cls || "") }, keys.map(function (g) {
      return h("span", { class: "good g-" + g, title: goodName(g, goods[g]) },
        h("b", null, goods[g]), " ", goodName(g, goods[g]));
    }));
  }

  function goodsText(goods) {
    return GOODS.filter(function (g) { return goods && goods[g]; }).map(function (g) {
      return goods[g] + " " + goodName(g, goods[g]);
    }).join(", ");
  }

  function citizenTitle(tile) {
    var name = t("citizen." + tile.citizen, { v: tile.value });
    return name + " (" + SYMBOL[tile.symbol] + " " + t("symbol." + tile.symbol) + "): " +
      t("power." + tile.citizen, { v: tile.value });
  }

  function tileLabel(tile) {
    if (!tile) return t("window.empty");
    if (tile.kind === "craftsman") {
      return t("craftsman.label", { guild: guildName(tile.guild), v: tile.value }) + (tile.agent ? " +♟" : "");
    }
    return t("citizen." + tile.citizen, { v: tile.value });
  }

  // A tile as the physical game shows it: a craftsman's value and agent symbol on its
  // guild's colour; a citizen's symbol and name, with its power in the tooltip.
  function tileEl(tile, extraClass) {
    if (!tile) return h("span", { class: "tile empty " + (extraClass || "") }, "–");
    if (tile.kind === "craftsman") {
      return h("span", { class: "tile craftsman gb-" + tile.guild + " " + (extraClass || ""),
        title: tileLabel(tile) + (tile.agent ? " — " + t("tile.agent_symbol") : ""), "data-tile": tile.id },
        h("b", null, tile.value), tile.agent ? h("span", { class: "agent-sym", "aria-label": t("tile.agent_symbol") }, "♟") : null);
    }
    // The power shows on hover and on keyboard focus (a title attribute would not).
    return h("span", { class: "tile citizen sym-" + tile.symbol + " " + (extraClass || ""),
      "aria-label": citizenTitle(tile), "data-tip": citizenTitle(tile), tabindex: "0", "data-tile": tile.id },
      h("span", { class: "sym", "aria-hidden": "true" }, SYMBOL[tile.symbol]),
      h("span", { class: "cname" }, t("citizen_short." + tile.citizen, { v: tile.value })),
      tile.good ? h("span", { class: "good g-" + tile.good }, goodName(tile.good, 1)) : null);
  }

  function windowCost(w) {
    return t("window.cost." + w);
  }

  // ---- board ------------------------------------------------------------------------

  function board(game, ctx) {
    if (!game) return null;
    if (!ctx.readOnly) syncDraft(game);
    var houses = h("div", { class: "houses", style: "--houses:" + game.guilds.length },
      game.guilds.map(function (g) { return house(g, game, ctx); }));
    return [summary(game, ctx), houses];
  }

  function summary(game, ctx) {
    return h("div", { class: "summary" },
      h("span", { class: "round" }, t("round.label", { round: game.round, turn: game.turn })),
      h("span", { class: "track", "aria-label": t("track.label") },
        h("span", { class: "muted" }, t("track.label") + ": "),
        h("ol", { class: "track-list" }, game.play_order.map(function (s) {
          return h("li", null, badge(s, game, ctx));
        }))),
      h("span", { class: "muted" }, t("deck.count", { n: game.guest_deck })),
      h("span", { class: "muted" }, t("prestige.left", { n: game.prestige_crests_left })));
  }

  function house(g, game, ctx) {
    var called = game.action && game.action.guild === g.guild;
    var prestige = game.prestige_guild === g.guild;
    return h("article", { class: "house gh-" + g.guild + (called ? " called" : ""), id: "house-" + g.guild,
      "aria-label": guildName(g.guild) },
      h("header", null,
        h("span", { class: "gnum" }, g.guild), " ",
        h("span", { class: "gname" }, guildName(g.guild)),
        prestige ? h("span", { class: "prestige", title: t("prestige.here") }, "♛") : null,
        called ? h("span", { class: "called-tag" }, t("house.called")) : null),
      called ? actorsHere(game.action, ctx) : null,
      h("div", { class: "roof", title: t("house.roof") },
        h("span", { class: "label" }, t("house.roof")),
        g.roof.map(function (n, seat) {
          return n ? h("span", { class: "roof-agents p" + seat, title: ctx.seatName(seat) + ": " + n },
            SEAT_MARK[seat] + "×" + n) : null;
        })),
      h("div", { class: "master-row" },
        h("span", { class: "label" }, t("house.master")),
        g.master.length ? g.master.map(function (tl) { return tileEl(tl, "master"); }) : h("span", { class: "muted" }, t("none")),
        h("span", { class: "price", title: t("house.price_hint") }, g.price === null ? "—" : t("house.price", { p: g.price }))),
      h("div", { class: "queue" },
        h("span", { class: "label" }, t("house.queue")),
        g.queue.map(function (stack) {
          return h("span", { class: "stack" + (stack.length > 1 ? " double" : ""), title: stack.length > 1 ? t("house.stack") : null }, stack.map(function (tl) { return tileEl(tl, "small"); }));
        })),
      h("ol", { class: "guests", "aria-label": t("house.guests") },
        g.guests.map(function (tl, i) {
          return h("li", { class: "window" + (isDraftWindow(g, i + 1, game) ? " picked" : "") },
            h("span", { class: "wcost" }, windowCost(i + 1)), tileEl(tl), hireShortcut(g, i + 1, game, ctx));
        })),
      h("div", { class: "store" },
        h("span", { class: "label" }, t("house.storehouse")), goodsChips(g.storehouse)),
      h("div", { class: "crests" },
        h("span", { title: t("house.crests_left") }, t("house.crests", { n: g.crests_left })),
        g.judges ? h("span", { class: "judge", title: t("power.chief_judge") }, t("house.judges", { n: g.judges })) : null));
  }

  // A window that a listed "hire" can take gets a button that starts that hire's draft.
  function hireShortcut(g, w, game, ctx) {
    if (ctx.readOnly || !game.action || game.action.guild !== g.guild || game.action.choice) return null;
    var can = (game.legal || []).some(function (c) { return c.type === "hire" && c.window === w; });
    if (!can) return null;
    return h("button", { type: "button", class: "hire-here", "data-focus": "board-win-" + w,
      onclick: function () { choose(ctx, "hire", { window: w }); } }, t("hire.here"));
  }

  // Who revealed a card at the called guild, in acting order: done, acting now, still to come.
  function actorsHere(action, ctx) {
    return h("ol", { class: "actors", "aria-label": t("house.actors") }, action.cards.map(function (seat) {
      var done = action.acted.indexOf(seat) >= 0;
      var now = action.actor === seat;
      return h("li", { class: done ? "done" : now ? "now" : "later" },
        mark(seat), " ", ctx.seatName(seat), " ",
        h("span", { class: "muted" }, done ? "✓" : now ? t("house.acting") : ""));
    }));
  }

  function isDraftWindow(g, w, game) {
    return draft.type === "hire" && game.action && game.action.guild === g.guild && draft.picks.window === w;
  }

  // ---- players ----------------------------------------------------------------------

  function players(game, ctx) {
    if (!game) return null;
    return game.play_order.map(function (seat) { return playerCard(game.players[seat], game, ctx); });
  }

  function craftsmenByGuild(p, game) {
    return game.guilds.map(function (g) {
      var tiles = p.craftsmen.filter(function (c) { return c.guild === g.guild; });
      if (!tiles.length) return null;
      var total = tiles.reduce(function (a, c) { return a + c.value; }, 0);
      return h("div", { class: "cgroup" },
        h("span", { class: "cguild" }, guildName(g.guild)),
        tiles.map(function (c) { return tileEl(c, "small"); }),
        h("span", { class: "ctotal", title: t("player.total") }, "= " + total));
    });
  }

  function crestsText(p) {
    var parts = Object.keys(p.guild_crests).sort().map(function (g) {
      return guildName(Number(g)) + (p.guild_crests[g] > 1 ? " ×" + p.guild_crests[g] : "");
    });
    if (p.prestige_crests) parts.push(t("player.prestige_crests", { n: p.prestige_crests }));
    return parts.length ? parts.join(", ") : t("none");
  }

  function planningTag(p, game) {
    if (game.phase !== "planning" || !p.planning) return null;
    var text = p.planning === "committed"
      ? (p.cards === 0 ? t("plan.status.passed") : t("plan.status.cards", { n: p.cards }))
      : t("plan.status." + p.planning);
    return h("span", { class: "ptag plan-" + p.planning }, text);
  }

  function playerCard(p, game, ctx) {
    var me = ctx.mySeat === p.seat;
    var acting = game.to_act.indexOf(p.seat) >= 0;
    var seatInfo = (ctx.table && ctx.table.seats && ctx.table.seats[p.seat]) || {};
    return h("article", { class: "player p" + p.seat + (me ? " me" : "") + (acting ? " acting" : ""),
      id: "player-" + p.seat },
      h("header", null, badge(p.seat, game, ctx),
        me ? h("span", { class: "you" }, t("player.you")) : null,
        seatInfo.bot || seatInfo.connected ? null : h("span", { class: "offline-tag" }, t("player.offline")),
        acting ? h("span", { class: "ptag acting-tag" }, t("player.acting")) : null,
        planningTag(p, game)),
      h("dl", null,
        h("dt", null, t("player.talers")),
        h("dd", { class: "talers", id: me ? "my-talers" : null },
          p.talers === null ? h("span", { class: "muted", title: t("player.hidden") }, t("player.hidden")) : p.talers),
        h("dt", null, t("player.agents")),
        h("dd", null, t("player.agents_detail", { hand: p.agents.hand, roof: p.agents.roof, supply: p.agents.supply }),
          " ", h("span", { class: "disc disc-" + p.disc, title: t("disc." + p.disc) }, p.disc === "moon" ? "☾ " + t("disc.moon") : "♟ " + t("disc.agent"))),
        h("dt", null, t("player.goods")),
        h("dd", { class: "pgoods" }, goodsChips(p.goods)),
        h("dt", null, t("player.craftsmen")),
        h("dd", null, p.craftsmen.length ? craftsmenByGuild(p, game) : h("span", { class: "muted" }, t("none"))),
        h("dt", null, t("player.citizens")),
        h("dd", null, p.citizens.length ? p.citizens.map(function (c) { return tileEl(c, "small"); }) : h("span", { class: "muted" }, t("none"))),
        h("dt", null, t("player.crests")),
        h("dd", null, crestsText(p)),
        game.phase === "action" && p.cards !== null ? [h("dt", null, t("player.cards")), h("dd", null, cardsText(p))] : null));
  }

  function cardsText(p) {
    if (!p.cards) return t("plan.status.passed");
    var shown = p.revealed.length ? t("player.revealed", { guilds: p.revealed.map(guildName).join(", ") }) : "";
    return t("plan.status.cards", { n: p.cards }) + (shown ? " · " + shown : "");
  }

  // ---- status line ------------------------------------------------------------------

  function names(seats, ctx) {
    return seats.map(ctx.seatName).join(", ");
  }

  function status(game, ctx) {
    if (!game) return { text: t("table.starting"), mine: false };
    var mine = isMyTurn(game, ctx.mySeat);
    if (game.phase === "over") {
      var won = (game.result && game.result.winners) || [];
      return { text: t("status.over_winner", { names: names(won, ctx) }), mine: false };
    }
    var where = t("round.label", { round: game.round, turn: game.turn }) + " · ";
    if (game.phase === "planning") {
      if (mine) return { text: where + t("status.plan_you"), mine: true };
      if (ctx.mySeat !== null && game.my_plan !== null) {
        return { text: where + t("status.plan_done", { names: names(game.to_act, ctx) }), mine: false };
      }
      return { text: where + t("status.plan_wait", { names: names(game.to_act, ctx) }), mine: false };
    }
    var a = game.action;
    var guild = guildName(a.guild);
    if (a.choice) {
      var who = a.choice.seat === ctx.mySeat ? t("status.you") : ctx.seatName(a.choice.seat);
      return { text: where + t("status.choice", { who: who, citizen: t("citizen." + a.choice.citizen, { v: "" }) }), mine: mine };
    }
    if (mine) return { text: where + t("status.act_you", { guild: guild }), mine: true };
    return { text: where + t("status.act_wait", { name: ctx.seatName(a.actor), guild: guild }), mine: false };
  }

  function isMyTurn(game, seat) {
    return !!game && seat !== null && game.legal && game.legal.length > 0 &&
      game.to_act.indexOf(seat) >= 0;
  }

  function result(game) {
    return game && game.result;
  }

  // ---- prompts ----------------------------------------------------------------------

  function ofType(legal, type) {
    return legal.filter(function (c) { return c.type === type; });
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function syncDraft(game) {
    var key = JSON.stringify(game.legal);
    if (draft.key !== key) draft = { key: key, type: null, picks: {} };
  }

  function choose(ctx, type, picks) {
    draft.type = type;
    draft.picks = picks || {};
    ctx.rerender();
  }

  function confirmRow(ctx, cmd, summaryText) {
    return h("div", { class: "confirm-row" },
      h("p", { class: "summary-line", id: "draft-summary" }, cmd ? summaryText : t("prompt.incomplete")),
      h("button", { type: "button", class: "primary", id: "confirm", "data-focus": "confirm",
        disabled: !cmd || ctx.busy, onclick: function () { ctx.send(cmd); } }, t("prompt.confirm")),
      draft.type ? h("button", { type: "button", id: "cancel", "data-focus": "cancel",
        onclick: function () { choose(ctx, null); } }, t("prompt.cancel")) : null);
  }

  function option(label, selected, onclick, focusKey, extra) {
    return h("button", { type: "button", class: "opt" + (selected ? " selected" : ""),
      "aria-pressed": String(!!selected), "data-focus": focusKey, onclick: onclick, title: extra || null }, label);
  }

  function prompt(game, ctx) {
    if (!game || ctx.readOnly || ctx.mySeat === null) return null;
    syncDraft(game);
    var legal = game.legal || [];
    if (!legal.length) return waitingNote(game, ctx);
    var body = game.phase === "planning" ? planningPrompt(game, legal, ctx)
      : game.action && game.action.choice ? choicePrompt(game, legal, ctx)
      : actionPrompt(game, legal, ctx);
    var mine = isMyTurn(game, ctx.mySeat) ? " mine" : "";
    return h("div", { class: "card prompt-card" + mine, id: "prompt-card" }, holdings(game, ctx), body);
  }

  // What the player holds, beside the choice (on a phone the player areas are far below).
  function holdings(game, ctx) {
    var me = game.players[ctx.mySeat];
    return h("p", { class: "holdings" },
      h("span", null, t("player.talers") + ": ", h("b", { id: "prompt-talers" }, me.talers)), " · ",
      h("span", null, t("player.agents_in_hand", { n: me.agents.hand })), " · ",
      goodsChips(me.goods));
  }

  function waitingNote(game, ctx) {
    if (game.phase === "planning" && game.my_plan) {
      return h("div", { class: "card prompt-card" }, h("p", { id: "my-plan" }, myPlanText(game)));
    }
    return null;
  }

  // Planning: toggle guild cards; the set must equal one legal "plan" to be confirmed.
  function planningPrompt(game, legal, ctx) {
    var plans = ofType(legal, "plan");
    var offered = [];
    plans.forEach(function (c) { c.guilds.forEach(function (g) { if (offered.indexOf(g) < 0) offered.push(g); }); });
    offered.sort(function (a, b) { return a - b; });
    var picked = draft.type === "plan" ? draft.picks.guilds : [];
    var me = game.players[ctx.mySeat];
    var cmd = null;
    if (draft.type === "plan") cmd = plans.filter(function (c) { return same(c.guilds, picked); })[0] || null;
    else if (draft.type) cmd = ofType(legal, draft.type)[0] || null;
    var toggle = function (g) {
      return function () {
        var next = picked.indexOf(g) >= 0 ? picked.filter(function (x) { return x !== g; }) : picked.concat([g]).sort(function (a, b) { return a - b; });
        choose(ctx, next.length ? "plan" : null, { guilds: next });
      };
    };
    var retract = ofType(legal, "retract")[0];
    if (retract && !plans.length) return sealedPlan(game, retract, ctx);
    return [
      h("h2", null, t("plan.title")),
      plans.length ? h("p", { class: "hint" }, t("plan.hint", { n: me.agents.hand })) : null,
      plans.length ? h("div", { class: "options guild-cards", role: "group", "aria-label": t("plan.cards") },
        offered.map(function (g) {
          return option(h("span", null, h("span", { class: "gnum gb-" + g }, g), " ", guildName(g)),
            picked.indexOf(g) >= 0, toggle(g), "plan-" + g);
        })) : null,
      h("div", { class: "options" },
        ofType(legal, "pass").length ? option(t("plan.pass"), draft.type === "pass", function () { choose(ctx, "pass"); }, "pass", t("plan.pass_hint")) : null,
        ofType(legal, "wait").length ? option(t("plan.wait"), draft.type === "wait", function () { choose(ctx, "wait"); }, "wait", t("plan.wait_hint")) : null),
      confirmRow(ctx, cmd, cmd ? describe(cmd, ctx) : ""),
    ];
  }

  // A committed plan that may still be taken back (nobody waiting has planned after it).
  function sealedPlan(game, retract, ctx) {
    return [
      h("h2", null, t("plan.sealed_title")),
      h("p", { id: "my-plan" }, myPlanText(game)),
      h("p", { class: "hint" }, t("plan.retract_hint")),
      h("button", { type: "button", id: "retract", "data-focus": "retract", disabled: ctx.busy,
        onclick: function () { ctx.send(retract); } }, t("plan.retract")),
    ];
  }

  function myPlanText(game) {
    return game.my_plan && game.my_plan.length
      ? t("plan.mine", { guilds: game.my_plan.map(guildName).join(", ") }) : t("plan.mine_pass");
  }

  // The action at the called guild: sell, buy, hire (window → payment → front?), nothing.
  function actionPrompt(game, legal, ctx) {
    var g = game.guilds.filter(function (x) { return x.guild === game.action.guild; })[0];
    var kinds = ["sell", "buy", "hire", "nothing"].filter(function (k) { return ofType(legal, k).length; });
    var cmd = null, detail = null;
    if (draft.type === "sell") { detail = sellStep(legal, ctx); cmd = detail.cmd; }
    if (draft.type === "buy") { detail = buyStep(legal, g, ctx); cmd = detail.cmd; }
    if (draft.type === "hire") { detail = hireStep(legal, g, ctx); cmd = detail.cmd; }
    if (draft.type === "nothing") cmd = ofType(legal, "nothing")[0];
    return [
      h("h2", null, t("act.title", { guild: guildName(g.guild) })),
      h("p", { class: "hint" }, t("act.price", { p: g.price, good: goodName(g.good, 1) })),
      h("div", { class: "options", role: "group", "aria-label": t("act.choose") }, kinds.map(function (k) {
        return option(t("act." + k), draft.type === k, function () { choose(ctx, k); }, "kind-" + k);
      })),
      detail ? detail.el : null,
      confirmRow(ctx, cmd, cmd ? describe(cmd, ctx) : ""),
    ];
  }

  function sellStep(legal, ctx) {
    var sells = ofType(legal, "sell");
    var picked = draft.picks.count;
    var cmd = sells.filter(function (c) { return c.count === picked; })[0] || null;
    var el = h("div", { class: "step" }, h("h3", null, t("sell.how_many")),
      h("div", { class: "options" }, sells.map(function (c) {
        return option(t("sell.option", { n: c.count, total: c.total }), c.count === picked,
          function () { choose(ctx, "sell", { count: c.count }); }, "sell-" + c.count);
      })));
    return { el: el, cmd: cmd };
  }

  // Buy: steppers per good kind; the basket must equal one legal "buy" goods dict.
  function buyStep(legal, g, ctx) {
    var buys = ofType(legal, "buy");
    var basket = draft.picks.goods || {};
    var clean = {};
    GOODS.forEach(function (k) { if (basket[k]) clean[k] = basket[k]; });
    var cmd = buys.filter(function (c) { return same(c.goods, clean); })[0] || null;
    var kinds = GOODS.filter(function (k) { return buys.some(function (c) { return c.goods[k]; }); });
    var fits = function (next) {
      return buys.some(function (c) {
        return kinds.every(function (k) { return (next[k] || 0) <= (c.goods[k] || 0); });
      });
    };
    var change = function (k, d) {
      return function () {
        var next = Object.assign({}, clean);
        next[k] = (next[k] || 0) + d;
        if (!next[k]) delete next[k];
        choose(ctx, "buy", { goods: next });
      };
    };
    var total = cmd ? cmd.total : null;
    var el = h("div", { class: "step" }, h("h3", null, t("buy.pick")),
      h("ul", { class: "steppers" }, kinds.map(function (k) {
        var plus = Object.assign({}, clean); plus[k] = (plus[k] || 0) + 1;
        return h("li", null,
          h("span", { class: "good g-" + k }, goodName(k, 2)),
          h("span", { class: "muted" }, t("buy.in_store", { n: g.storehouse[k] || 0 })),
          h("button", { type: "button", class: "step-btn", "data-focus": "buy-minus-" + k, disabled: !clean[k],
            "aria-label": t("buy.less", { good: goodName(k, 1) }), onclick: change(k, -1) }, "−"),
          h("b", { class: "count", id: "buy-count-" + k }, clean[k] || 0),
          h("button", { type: "button", class: "step-btn", "data-focus": "buy-plus-" + k, disabled: !fits(plus),
            "aria-label": t("buy.more", { good: goodName(k, 1) }), onclick: change(k, 1) }, "+"));
      })),
      h("p", { class: "total" }, total === null ? t("buy.pick_hint") : t("buy.total", { total: total })));
    return { el: el, cmd: cmd };
  }

  function distinct(values) {
    var seen = {}, out = [];
    values.forEach(function (v) {
      var k = JSON.stringify(v);
      if (!seen[k]) { seen[k] = true; out.push(v); }
    });
    return out;
  }

  // Hire: window, then payment, then whether to move to the front.
  function hireStep(legal, g, ctx) {
    var hires = ofType(legal, "hire");
    var p = draft.picks;
    var pick = function (extra) {
      return function () { choose(ctx, "hire", Object.assign({}, p, extra)); };
    };
    var windows = distinct(hires.map(function (c) { return c.window; })).sort(function (a, b) { return a - b; });
    var parts = [h("h3", null, t("hire.window")), h("div", { class: "options" }, windows.map(function (w) {
      return option(h("span", null, t("hire.window_n", { n: w }), " — ", tileLabel(g.guests[w - 1]), " · ", windowCost(w)),
        p.window === w, pick({ window: w, payment: undefined, to_front: undefined }), "win-" + w);
    }))];
    var forWindow = hires.filter(function (c) { return c.window === p.window; });
    if (p.window) {
      var payments = distinct(forWindow.map(function (c) { return c.payment; }));
      if (payments.length === 1 && p.payment === undefined) p.payment = payments[0];
      parts.push(h("h3", null, t("hire.payment")), h("div", { class: "options" }, payments.map(function (pay, i) {
        return option(t("hire.pay", { goods: goodsText(pay) }), same(p.payment, pay),
          pick({ payment: pay, to_front: undefined }), "pay-" + i);
      })));
    }
    var forPay = forWindow.filter(function (c) { return same(c.payment, p.payment); });
    if (p.payment !== undefined && forPay.length) {
      var fronts = distinct(forPay.map(function (c) { return c.to_front; }));
      if (fronts.length === 1 && p.to_front === undefined) p.to_front = fronts[0];
      parts.push(h("h3", null, t("hire.front")), h("div", { class: "options" }, fronts.map(function (f) {
        return option(t(f ? "hire.front_yes" : "hire.front_no"), p.to_front === f, pick({ to_front: f }), "front-" + f);
      })));
    }
    var cmd = forPay.filter(function (c) { return c.to_front === p.to_front; })[0] || null;
    return { el: h("div", { class: "step" }, parts), cmd: cmd };
  }

  // Citizen choices after a hire: thief, bailiff, peddler, chief judge (or decline).
  function choicePrompt(game, legal, ctx) {
    var citizen = game.action.choice.citizen;
    var p = draft.picks;
    var pick = function (extra) { return function () { choose(ctx, "choice", Object.assign({}, p, extra)); }; };
    var steps = [];
    var cmd = null;
    var declines = ofType(legal, "decline");
    var steals = ofType(legal, "steal");
    if (steals.length) {
      var victims = distinct(steals.map(function (c) { return c.victim; }));
      steps.push(h("h3", null, t("thief.victim")), h("div", { class: "options" }, victims.map(function (v) {
        return option(ctx.seatName(v), p.victim === v, pick({ victim: v, goods: undefined }), "victim-" + v);
      })));
      if (p.victim !== undefined) {
        var mine = steals.filter(function (c) { return c.victim === p.victim; });
        steps.push(h("h3", null, t("thief.goods")), h("div", { class: "options" }, mine.map(function (c, i) {
          return option(t("thief.option", { goods: goodsText(c.goods), paid: c.paid }), same(p.goods, c.goods),
            pick({ goods: c.goods }), "steal-" + i);
        })));
        cmd = mine.filter(function (c) { return same(c.goods, p.goods); })[0] || null;
      }
    }
    var swaps = ofType(legal, "bailiff");
    if (swaps.length) {
      steps.push(h("h3", null, t("bailiff.pick")), h("div", { class: "options swaps" }, swaps.map(function (c, i) {
        return option(describe(c, ctx, game), same(p.tiles, c.tiles), pick({ tiles: c.tiles }), "swap-" + i);
      })));
      cmd = swaps.filter(function (c) { return same(c.tiles, p.tiles); })[0] || cmd;
    }
    var loads = ofType(legal, "peddler_good");
    if (loads.length) {
      steps.push(h("h3", null, t("peddler.pick")), h("div", { class: "options" }, loads.map(function (c) {
        return option(goodName(c.good, 1), p.good === c.good, pick({ good: c.good }), "ped-" + c.good);
      })));
      cmd = loads.filter(function (c) { return c.good === p.good; })[0] || cmd;
    }
    var houses = ofType(legal, "judge_house");
    if (houses.length) {
      steps.push(h("h3", null, t("judge.pick")), h("div", { class: "options" }, houses.map(function (c) {
        return option(guildName(c.guild), p.guild === c.guild, pick({ guild: c.guild }), "judge-" + c.guild);
      })));
      cmd = houses.filter(function (c) { return c.guild === p.guild; })[0] || cmd;
    }
    if (declines.length) {
      steps.push(h("div", { class: "options" }, option(t("choice.decline"), p.decline, pick({ decline: true, victim: undefined, tiles: undefined }), "decline")));
      if (p.decline) cmd = declines[0];
    }
    return [
      h("h2", null, t("choice.title", { citizen: t("citizen." + citizen, { v: "" }) })),
      h("p", { class: "hint" }, t("power." + citizen, { v: "" })),
      steps,
      confirmRow(ctx, cmd, cmd ? describe(cmd, ctx, game) : ""),
    ];
  }

  // ---- describing a command (confirm line, replay) ----------------------------------

  // "Brewers craftsman 3 (Bakers, window 2)": a tile and where it lies now.
  function tileWhere(game, id) {
    var found = null;
    (game ? game.guilds : []).forEach(function (g) {
      g.queue.forEach(function (stack) {
        stack.forEach(function (tl) {
          if (tl.id === id) found = t("where.workshop", { tile: tileLabel(tl), guild: guildName(g.guild) });
        });
      });
      g.guests.forEach(function (tl, i) {
        if (tl && tl.id === id) found = t("where.window", { tile: tileLabel(tl), guild: guildName(g.guild), n: i + 1 });
      });
    });
    return found || id;
  }

  function describe(cmd, ctx, game) {
    game = game || ctx.game;
    switch (cmd.type) {
      case "plan": return t("cmd.plan", { guilds: cmd.guilds.map(guildName).join(", ") });
      case "pass": return t("cmd.pass");
      case "wait": return t("cmd.wait");
      case "retract": return t("cmd.retract");
      case "sell": return t("cmd.sell", { n: cmd.count, total: cmd.total });
      case "buy": return t("cmd.buy", { goods: goodsText(cmd.goods), total: cmd.total });
      case "hire": return t("cmd.hire", { n: cmd.window, goods: goodsText(cmd.payment) }) +
        (cmd.to_front ? " " + t("cmd.to_front") : "");
      case "nothing": return t("cmd.nothing");
      case "steal": return t("cmd.steal", { goods: goodsText(cmd.goods), name: ctx.seatName(cmd.victim), paid: cmd.paid });
      case "bailiff": return t("cmd.bailiff", { a: tileWhere(game, cmd.tiles[0]), b: tileWhere(game, cmd.tiles[1]) });
      case "decline": return t("cmd.decline");
      case "peddler_good": return t("cmd.peddler", { good: goodName(cmd.good, 1) });
      case "judge_house": return t("cmd.judge", { guild: guildName(cmd.guild) });
      default: return JSON.stringify(cmd);
    }
  }

  GH.games = GH.games || {};
  GH.games.norenberc = {
    board: board,
    players: players,
    prompt: prompt,
    status: status,
    result: result,
    isMyTurn: isMyTurn,
    playerBadge: badge,
    describe: describe,
  };
})(window.GH);
