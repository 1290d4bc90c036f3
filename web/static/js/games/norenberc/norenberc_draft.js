// The Norenberc draft: the command the player is assembling from the view's "legal" list,
// the picks made on the board that start or continue it (norenberc_board.js and the player
// cards of norenberc.js mark the places), and the option and confirm buttons of every prompt.
import {
  Draft,
  confirmRow as sharedConfirmRow,
  isMyTurn,
  ofType,
  optionButton,
} from "../../pieces.js";

// The draft the player is assembling: a kind of command (type) and its picks so far.
export const draft = new Draft(() => {
  return {};
});

export function choose(ctx, type, picks) {
  draft.type = type;
  draft.picks = picks || {};
  ctx.rerender();
}

// ---- picks made on the board (they start the same drafts as the prompts)

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

export function confirmRow(ctx, cmd, summaryText) {
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

export function option(label, selected, onclick, focusKey, title) {
  return optionButton(label, selected, onclick, focusKey, { title });
}
