// What every game's page shares: seat names, marks and badges, goods chips, planning tags,
// option buttons and the confirm row, the player's draft, command equality, the result, and
// the offer to hand an absent player's seat to a bot. No rule of any game lives here.
import { h, t } from "./i18n.js";

// Each seat has a colour and a shape, so players are told apart without colour.
export const SEAT_MARK = ["●", "▲", "■", "◆", "✚"];

// Commands and picks compare by content, whatever the order of their members (a document
// built from patches and one from a snapshot may list an object's members differently).
export function canon(v) {
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  if (v && typeof v === "object") {
    return (
      "{" +
      Object.keys(v)
        .sort()
        .map((k) => JSON.stringify(k) + ":" + canon(v[k]))
        .join(",") +
      "}"
    );
  }
  return JSON.stringify(v === undefined ? null : v);
}

export function same(a, b) {
  return canon(a) === canon(b);
}

// The values in first-seen order, each once (by content).
export function distinct(values) {
  const seen = new Set();
  return values.filter((v) => {
    const k = canon(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function ofType(legal, type) {
  return legal.filter((c) => c.type === type);
}

export function isMyTurn(game, seat) {
  return (
    !!game &&
    seat !== null &&
    !!game.legal &&
    game.legal.length > 0 &&
    game.to_act.indexOf(seat) >= 0
  );
}

// A seat as the table names it: its player's name, else its bot's kind, else its number.
// info is the seat's entry in a table's seats (undefined before they are known).
export function seatName(info, seat) {
  if (info && info.name) return info.name;
  if (info && info.bot) return t("bot.name", { kind: t("bot." + info.bot), n: seat + 1 });
  return t("seat.n", { n: seat + 1 });
}

// "Anna, Bot (random) 2": the seats named by nameOf(seat), in their order.
export function seatNames(seats, nameOf) {
  return seats.map((seat) => nameOf(seat)).join(", ");
}

// A game's result as the table page shows it (docs/ui.md): the view's own, once it is over.
export function result(game) {
  return game && game.result;
}

export function badge(seat, game, ctx) {
  return h(
    "span",
    { class: "pbadge p" + seat, title: ctx.seatName(seat) },
    h("span", { class: "pmark", "aria-hidden": "true" }, SEAT_MARK[seat]),
    " ",
    ctx.seatName(seat),
  );
}

export function mark(seat) {
  return h("span", { class: "pmark p" + seat, "aria-hidden": "true" }, SEAT_MARK[seat]);
}

// Goods as chips in the game's order of kinds: chipClass(kind) gives each chip's classes,
// name(kind, n) its label; "none" when there are none. dress(kind, chip), when given, makes
// what is shown of each chip (the chip with a note added, or a board pick around it).
export function goodsChips(goods, kinds, name, chipClass, extraClass, dress) {
  const shown = kinds.filter((k) => goods && goods[k]);
  if (!shown.length) return h("span", { class: "muted" }, t("none"));
  return h(
    "span",
    { class: "chips" + (extraClass ? " " + extraClass : "") },
    shown.map((k) => {
      const chip = h(
        "span",
        { class: chipClass(k) },
        h("b", null, goods[k]),
        " ",
        name(k, goods[k]),
      );
      return dress ? dress(k, chip) : chip;
    }),
  );
}

// A player's planning state beside their name ("planning", "sealed", "2 cards" …).
export function planningTag(state, text) {
  return h("span", { class: "ptag plan-" + state }, text);
}

// Why planning went one at a time: someone asked to wait (or the table plans in order).
// text(seat) is the game's sentence for that seat's asking, text(null) for the table's option.
export function orderedNote(game, text) {
  const p = game.planning;
  if (game.phase !== "planning" || !p || !p.ordered) return null;
  const by = p.waited_by === undefined ? null : p.waited_by;
  return h("p", { class: "hint", id: "plan-ordered" }, text(by));
}

// Whether asking to wait would change anything for this seat: waiting lets those who have
// not planned go first, one at a time. When no other seat is still planning there is nobody
// to go first, and the wait would only make the others' plans final at once; the page then
// leaves it out (the engine lists it all the same, and recorded games hold such waits).
export function waitChangesSomething(game, seat) {
  const p = game.planning;
  return !!p && p.status.some((status, s) => s !== seat && status === "planning");
}

// One choice of a prompt: a toggle button (aria-pressed) with a stable focus key.
export function optionButton(label, selected, onclick, focusKey, extra) {
  extra = extra || {};
  return h(
    "button",
    {
      type: "button",
      class: "opt" + (selected ? " selected" : ""),
      id: extra.id || null,
      "aria-pressed": String(!!selected),
      "data-focus": focusKey || null,
      title: extra.title || null,
      onclick,
    },
    label,
    extra.child || null,
  );
}

// The line that says what Confirm will send, Confirm itself (off until one listed command
// matches, and while a command is in flight) and, when given, Clear.
export function confirmRow(ctx, cmd, summaryText, onCancel) {
  return sendRow(
    ctx,
    cmd,
    cmd ? summaryText : t("prompt.incomplete"),
    { id: "confirm", label: t("prompt.confirm") },
    onCancel ? { id: "cancel", label: t("prompt.cancel"), onclick: onCancel } : null,
  );
}

// The row under a prompt: line (what the send button will send), the button that sends cmd
// (send: {id, label}; off without a command and while one is in flight) and, when given, a
// second button (other: {id, label, onclick, disabled}).
export function sendRow(ctx, cmd, line, send, other) {
  return h(
    "div",
    { class: "confirm-row" },
    h("p", { class: "summary-line", id: "draft-summary" }, line),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: send.id,
        "data-focus": send.id,
        disabled: !cmd || ctx.busy,
        onclick: () => ctx.send(cmd),
      },
      send.label,
    ),
    other
      ? h(
          "button",
          {
            type: "button",
            id: other.id,
            "data-focus": other.id,
            disabled: other.disabled,
            onclick: other.onclick,
          },
          other.label,
        )
      : null,
  );
}

// The choice a player is assembling. It survives every re-render (others acting, presence)
// and is dropped only when the player's own legal list (or the phase) changes.
export class Draft {
  constructor(emptyPicks) {
    this.emptyPicks = emptyPicks;
    this.key = null;
    this.reset();
  }

  reset() {
    this.type = null;
    this.cmd = null;
    this.picks = this.emptyPicks();
  }

  sync(game) {
    const key = canon([game.phase, game.legal]);
    if (this.key !== key) {
      this.key = key;
      this.reset();
    }
  }
}

// A seat card's line about who plays it. A bot standing in for a person says so (and offers
// that person, watching, to take the seat back). A player may let a bot play their own seat;
// the creator (seat 0) another's once its player has been away long enough, and is told how
// long that is before then. Two clicks, so a slip hands nothing over. Shared by every game's
// player cards; the server decides again (docs/seats.md).
let botOfferOpen = null;
export function botOffer(seat, seatInfo, game, ctx) {
  if (game.phase === "over") return null;
  if (seatInfo.stand_in) {
    return h(
      "span",
      { class: "stand-in muted", id: "stand-in-" + seat },
      t("seat.stand_in", { kind: t("bot." + seatInfo.bot), name: seatInfo.name }),
      ctx.reclaimable === seat
        ? [
            " ",
            h(
              "button",
              {
                type: "button",
                class: "small-btn primary",
                id: "reclaim-" + seat,
                onclick: () => ctx.reclaim(),
              },
              t("seat.reclaim"),
            ),
          ]
        : null,
    );
  }
  const own = seat === ctx.mySeat;
  if (seatInfo.bot || ctx.mySeat === null || (!own && ctx.mySeat !== 0)) return null;
  if (!own) {
    if (seatInfo.connected) return null;
    const away = ctx.away ? ctx.away(seat) : null;
    if (away === null || away < ctx.handoverAfter) {
      return h(
        "span",
        { class: "muted bot-wait", id: "bot-wait-" + seat },
        t("player.to_bot_wait", { name: ctx.seatName(seat), after: ctx.handoverAfter }),
      );
    }
  }
  if (botOfferOpen !== seat) {
    return h(
      "button",
      {
        type: "button",
        class: "small-btn",
        id: "bot-offer-" + seat,
        "data-focus": "bot-offer-" + seat,
        onclick: () => {
          botOfferOpen = seat;
          ctx.rerender();
        },
      },
      t(own ? "player.to_bot_self" : "player.to_bot"),
    );
  }
  return h(
    "span",
    { class: "bot-offer" },
    t(own ? "player.to_bot_self_sure" : "player.to_bot_sure", { name: ctx.seatName(seat) }),
    " ",
    h(
      "button",
      {
        type: "button",
        class: "small-btn",
        id: "bot-yes-" + seat,
        "data-focus": "bot-yes-" + seat,
        onclick: () => {
          botOfferOpen = null;
          ctx.handToBot(seat);
        },
      },
      t("player.to_bot_yes"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "small-btn",
        "data-focus": "bot-no-" + seat,
        onclick: () => {
          botOfferOpen = null;
          ctx.rerender();
        },
      },
      t("prompt.cancel"),
    ),
  );
}

// A place on the board that a listed command takes (a city space, a chapel site, a guest
// window, a good): a real button, so a pointer and a screen reader in browse mode can use it,
// kept out of the tab order because the prompt offers the same commands as its options and
// a keyboard should meet each choice once. It is marked by a dashed ring and a corner mark
// (a filled one when picked), not by colour alone; places without a command stay inert.
export function boardPick(tag, attrs, selected, onpick, body) {
  const cls = (attrs.class || "") + " board-pick" + (selected ? " picked" : "");
  return h(
    tag,
    Object.assign(
      {
        type: tag === "button" ? "button" : null,
        role: tag === "button" ? null : "button",
        tabindex: "-1",
        "aria-pressed": String(!!selected),
        "data-focus": attrs.id ? "pick-" + attrs.id : null,
      },
      attrs,
      { class: cls, onclick: onpick },
    ),
    body,
  );
}

// Whether a seat card says "offline": a person's seat whose page is not connected. Never the
// viewer's own seat (this page is the player, whatever the table row polled before the
// socket said), never a bot's, and not before the table's seats are known.
export function offline(seat, seatInfo, ctx) {
  if (!ctx.table || seat === ctx.mySeat || seatInfo.bot) return false;
  return !seatInfo.connected;
}

// The rule a prompt or a refusal applies (the view's rule, an error's clause): a small link
// to that clause of /rules/<game>, or nothing without one. A plain click opens it in the
// panel over the table, loaded only then (rules_panel.js); with a modifier key the browser
// opens the page itself.
export function ruleLink(clause) {
  const game = document.getElementById("app").dataset.game;
  return clause && game
    ? h(
        "a",
        { class: "rule-link", href: "/rules/" + game + "#" + clause, "data-rule": clause },
        t("rules.link", { id: clause }),
      )
    : null;
}

document.addEventListener("click", (ev) => {
  const link = ev.target.closest && ev.target.closest("a[data-rule]");
  if (!link || ev.button || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
  ev.preventDefault();
  import("./rules_panel.js").then((panel) => panel.openRule(link.dataset.rule));
});

// Every piece explains itself (explain.js, docs/ui.md): the first hover, focus, touch or click
// on an element marked data-explain loads the module that shows what it is; until then the
// events are handed on to it in order (a press's release too, so that a tap is not taken for
// a long press), and from then on it hears them itself.
const EXPLAIN_ON = ["pointerover", "focusin", "pointerdown", "pointerup", "pointercancel", "click"];
let explaining = null;
function firstExplain(ev) {
  if (!explaining && !(ev.target.closest && ev.target.closest("[data-explain]"))) return;
  explaining = explaining || import("./explain.js");
  explaining.then((explain) => {
    EXPLAIN_ON.forEach((type) => document.removeEventListener(type, firstExplain, true));
    explain.explainEvent(ev, ruleLink);
  });
}
EXPLAIN_ON.forEach((type) => document.addEventListener(type, firstExplain, true));
