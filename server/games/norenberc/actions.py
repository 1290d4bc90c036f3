"""The four actions at a called guild: sell, hire (then maybe move to the front), buy, nothing.

Each ``do_*`` function validates a command against the draft of the next state, applies it
(taking each part it changes with ``own_player`` / ``own_house``) and returns whether the
acting seat is done (hiring some citizens opens a choice first).
Each ``legal_*`` function lists the commands the matching ``do_*`` accepts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from server.engine import Event, RuleError, event

from . import citizens
from .parsing import check_info, has_goods, int_field, multisets, parse_goods
from .state import (
    Goods,
    State,
    buy_price,
    describe_goods,
    describe_tile,
    good_of,
    goods_count,
    guild_name,
    house,
    move_goods,
    order_index,
    ordered_goods,
    own_house,
    own_player,
    player,
    sell_price,
    tile_params,
)

# (players, cards revealed at the guild) -> buying limit in the first turn of round 1
FIRST_TURN_LIMITS = {(5, 4): 1, (5, 5): 1, (5, 3): 2, (4, 3): 2, (4, 4): 2}
MAX_BUY = 3


# --- sell -------------------------------------------------------------------------------


def do_sell(state: State, seat: int, guild: int, cmd: dict[str, Any], events: list[Event]) -> bool:
    count = int_field(cmd, "count")
    good = good_of(guild)
    p = own_player(state, seat)
    if count < 1:
        raise RuleError("bad_command", f"sell at least 1 {good}, got {count}")
    if p["goods"].get(good, 0) < count:
        raise RuleError("no_goods", f"you have {p['goods'].get(good, 0)} {good}, not {count}")
    total = count * sell_price(state, seat, guild)
    check_info(cmd, "total", total)
    move_goods(p["goods"], own_house(state, guild)["store"], {good: count})
    p["talers"] += total
    text = f"{{s{seat}}} sold {count} {good} for {total} talers"
    params = {"seat": seat, "goods": {good: count}, "total": total}
    events.append(event("GoodsSold", text, params=params))
    return True


def legal_sell(state: State, seat: int, guild: int) -> list[dict[str, Any]]:
    have = player(state, seat)["goods"].get(good_of(guild), 0)
    unit = sell_price(state, seat, guild)
    return [{"type": "sell", "count": n, "total": n * unit} for n in range(1, have + 1)]


# --- buy --------------------------------------------------------------------------------


def buy_limit(state: State, guild: int) -> int:
    """How many goods one seat may buy at ``guild`` now (first-turn limits of round 1)."""
    if state["round"] == 1 and state["turn"] == 1:
        cards = len(state["action"]["cards"])
        return FIRST_TURN_LIMITS.get((state["seats"], cards), MAX_BUY)
    return MAX_BUY


def do_buy(state: State, seat: int, guild: int, cmd: dict[str, Any], events: list[Event]) -> bool:
    goods = parse_goods(state, cmd.get("goods"))
    store = house(state, guild)["store"]
    if not store:
        raise RuleError("storehouse_empty", f"the {guild_name(guild)}' storehouse is empty")
    limit = buy_limit(state, guild)
    if goods_count(goods) > limit:
        raise RuleError("too_many_goods", f"at most {limit} goods here, got {goods_count(goods)}")
    if not has_goods(store, goods):
        raise RuleError(
            "storehouse_empty",
            f"the storehouse holds {describe_goods(store)}, not {describe_goods(goods)}",
        )
    total = goods_count(goods) * buy_price(state, seat, guild)
    if total > player(state, seat)["talers"]:
        raise RuleError("cannot_afford", f"{describe_goods(goods)} cost {total} talers")
    check_info(cmd, "total", total)
    p = own_player(state, seat)
    move_goods(own_house(state, guild)["store"], p["goods"], goods)
    p["talers"] -= total
    text = f"{{s{seat}}} bought {describe_goods(goods)} for {total} talers"
    params = {"seat": seat, "goods": dict(goods), "total": total}
    events.append(event("GoodsBought", text, params=params))
    return True


def legal_buy(state: State, seat: int, guild: int) -> list[dict[str, Any]]:
    store = ordered_goods(state, house(state, guild)["store"])
    unit, talers = buy_price(state, seat, guild), player(state, seat)["talers"]
    limit = min(buy_limit(state, guild), talers // unit if unit else MAX_BUY)
    return [
        {"type": "buy", "goods": pick, "total": size * unit}
        for size in range(1, limit + 1)
        for pick in multisets(store, size)
    ]


# --- hire -------------------------------------------------------------------------------


def is_valid_payment(window: int, own: int, total: int) -> bool:
    """The guest-room price table: ``own`` goods of this guild's kind among ``total`` paid."""
    if window == 1:
        return total == 1 and own == 1
    if window == 2:
        return total == 2 and own >= 1
    if window == 3:
        return (total == 2 and own == 2) or (total == 3 and own >= 1)
    return (total == 3 and own == 3) or (total == 4 and own >= 2)


def do_hire(state: State, seat: int, guild: int, cmd: dict[str, Any], events: list[Event]) -> bool:
    window = int_field(cmd, "window")
    if window not in (1, 2, 3, 4):
        raise RuleError("bad_window", f"windows are 1-4, got {window}")
    guest = house(state, guild)["guests"][window - 1]
    if guest is None:
        raise RuleError("empty_window", f"window {window} of the {guild_name(guild)} is empty")
    payment = parse_goods(state, cmd.get("payment"), "payment")
    own = payment.get(good_of(guild), 0)
    if not is_valid_payment(window, own, goods_count(payment)):
        raise RuleError("bad_payment", _payment_help(window, guild, payment))
    if not has_goods(player(state, seat)["goods"], payment):
        raise RuleError("no_goods", f"you do not have {describe_goods(payment)}")
    to_front = cmd.get("to_front")
    if not isinstance(to_front, bool):
        raise RuleError("bad_command", f"to_front must be true or false, got {to_front!r}")
    if to_front and order_index(state, seat) == 0:
        raise RuleError("already_first", "you are already first in play order")
    check_info(cmd, "tile", guest)
    h = own_house(state, guild)
    move_goods(own_player(state, seat)["goods"], h["store"], payment)
    h["guests"][window - 1] = None
    text = (
        f"{{s{seat}}} hired {describe_tile(guest)} from window {window} of the {guild_name(guild)}"
    )
    params = {
        "seat": seat,
        "tile": tile_params(guest),
        "window": window,
        "guild": guild,
        "payment": dict(payment),
    }
    events.append(event("GuestHired", f"{text}, paying {describe_goods(payment)}", params=params))
    return citizens.take_guest(state, seat, guest, to_front, events)


def _payment_help(window: int, guild: int, payment: Goods) -> str:
    good = good_of(guild)
    options = {
        1: f"1 {good}",
        2: f"1 {good} + 1 any",
        3: f"2 {good}, or 1 {good} + 2 any",
        4: f"3 {good}, or 2 {good} + 2 any",
    }
    return f"window {window} costs {options[window]}; got {describe_goods(payment)}"


def _payments(have: Goods, own_good: str, window: int) -> list[Goods]:
    """Every payment out of ``have`` that window ``window`` accepts (own_good: the guild's)."""
    return [dict(pick) for pick in _payments_of(tuple(have.items()), own_good, window)]


@lru_cache(maxsize=4096)
def _payments_of(
    have: tuple[tuple[str, int], ...], own_good: str, window: int
) -> tuple[tuple[tuple[str, int], ...], ...]:
    # Players hold few goods and the same holdings recur all game: made once per holding.
    # Only the sizes the window accepts are picked (the others would all be refused).
    goods = dict(have)
    return tuple(
        tuple(pick.items())
        for size in PAYMENT_SIZES[window]
        for pick in multisets(goods, size)
        if is_valid_payment(window, pick.get(own_good, 0), size)
    )


# How many goods each window's payments hold (``is_valid_payment``'s totals), smallest first.
PAYMENT_SIZES = {1: (1,), 2: (2,), 3: (2, 3), 4: (3, 4)}


def legal_hire(
    state: State, seat: int, guild: int, only_window: int | None = None
) -> list[dict[str, Any]]:
    """Every hire at ``guild``, or only those of the guest in ``only_window`` (the part a
    command's check needs: listing every window's payments is most of a hire's check)."""
    fronts = [False] if order_index(state, seat) == 0 else [False, True]
    commands = []
    have = ordered_goods(state, player(state, seat)["goods"])
    own_good = good_of(guild)
    for window, guest in enumerate(house(state, guild)["guests"], start=1):
        if guest is None or (only_window is not None and window != only_window):
            continue
        for payment in _payments(have, own_good, window):
            for to_front in fronts:
                commands.append(
                    {
                        "type": "hire",
                        "window": window,
                        "payment": payment,
                        "to_front": to_front,
                        "tile": guest,
                    }
                )
    return commands


def do_nothing(
    state: State, seat: int, guild: int, cmd: dict[str, Any], events: list[Event]
) -> bool:
    text = f"{{s{seat}}} did nothing at the {guild_name(guild)}"
    events.append(event("DidNothing", text, params={"seat": seat, "guild": guild}))
    return True


ACTIONS = {"sell": do_sell, "buy": do_buy, "hire": do_hire, "nothing": do_nothing}


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action ``seat`` may take at the guild being resolved."""
    guild = state["action"]["guild"]
    return [
        *legal_sell(state, seat, guild),
        *legal_hire(state, seat, guild),
        *legal_buy(state, seat, guild),
        {"type": "nothing"},
    ]
