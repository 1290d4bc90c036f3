"""The four actions: sell, buy (with first-turn limits), hire (every window price, bonus,
agent symbol, move to the front) and do nothing; acting order at a guild."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from server.engine import RuleError
from server.games.norenberc.actions import PAYMENT_SIZES, _payments, is_valid_payment
from server.games.norenberc.parsing import multisets

from .helpers import GAME, act, craftsman, fresh, plan_all, put_guest, set_master, types


def at_guild(seats: int, guild: int, planners: list[int], seed: str = "a") -> dict[str, Any]:
    """A game in its first action phase where ``planners`` played only ``guild``."""
    state = fresh(seats, seed)
    state, _ = plan_all(state, {s: [guild] for s in planners})
    assert state["action"]["guild"] == guild
    return state


def error(state: dict[str, Any], seat: int, cmd: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as err:
        act(state, seat, cmd)
    return err.value.code


def test_selling_pays_the_master_value_and_fills_the_storehouse() -> None:
    state = at_guild(3, 1, [0])
    set_master(state, 1, 6)
    state["players"][0]["goods"]["beer"] = 3
    state["houses"][0]["store"]["beer"] -= 2
    assert [c for c in GAME.legal(state, 0) if c["type"] == "sell"] == [
        {"type": "sell", "count": n, "total": 6 * n} for n in (1, 2, 3)
    ]
    after, events = act(state, 0, {"type": "sell", "count": 2})
    assert after["players"][0]["talers"] == 25 + 12
    assert after["players"][0]["goods"]["beer"] == 1
    assert after["houses"][0]["store"]["beer"] == state["houses"][0]["store"]["beer"] + 2
    assert events[0]["text"] == "{s0} sold 2 beer for 12 talers"
    assert error(state, 0, {"type": "sell", "count": 4}) == "no_goods"
    assert error(state, 0, {"type": "sell", "count": 0}) == "bad_command"
    assert error(state, 0, {"type": "sell", "count": 1, "total": 5}) == "stale_command"


def test_buying_takes_up_to_three_goods_of_any_kind_present() -> None:
    state = at_guild(2, 2, [1], seed="b")
    state["turn"] = 2  # no first-turn limit
    set_master(state, 2, 3)
    state["houses"][1]["store"] = {"pastry": 10, "beer": 1}
    after, events = act(state, 1, {"type": "buy", "goods": {"beer": 1, "pastry": 2}})
    assert after["players"][1]["goods"] == {"beer": 2, "pastry": 3, "shoes": 1}
    assert after["players"][1]["talers"] == 25 - 9
    assert after["houses"][1]["store"] == {"pastry": 8}
    assert types(events)[0] == "GoodsBought"
    assert error(state, 1, {"type": "buy", "goods": {"pastry": 4}}) == "too_many_goods"
    assert error(state, 1, {"type": "buy", "goods": {"beer": 2}}) == "storehouse_empty"
    assert error(state, 1, {"type": "buy", "goods": {"shoes": 1}}) == "storehouse_empty"
    assert error(state, 1, {"type": "buy", "goods": {"hats": 1}}) == "unknown_good"
    state["players"][1]["talers"] = 8
    assert error(state, 1, {"type": "buy", "goods": {"pastry": 3}}) == "cannot_afford"
    assert max(sum(c["goods"].values()) for c in GAME.legal(state, 1) if c["type"] == "buy") == 2
    state["houses"][1]["store"] = {}
    assert error(state, 1, {"type": "buy", "goods": {"pastry": 1}}) == "storehouse_empty"
    assert not [c for c in GAME.legal(state, 1) if c["type"] == "buy"]


@pytest.mark.parametrize(
    ("seats", "cards", "limit"),
    [
        (5, 5, 1),
        (5, 4, 1),
        (5, 3, 2),
        (5, 2, 3),
        (4, 4, 2),
        (4, 3, 2),
        (4, 2, 3),
        (3, 3, 3),
        (2, 2, 3),
    ],
)
def test_first_turn_buying_limits_depend_on_the_cards_revealed(
    seats: int, cards: int, limit: int
) -> None:
    state = at_guild(seats, 1, list(range(cards)))
    seat = next(iter(GAME.to_act(state)))
    buys = [c for c in GAME.legal(state, seat) if c["type"] == "buy"]
    assert max(sum(c["goods"].values()) for c in buys) == limit
    if limit < 3:
        assert error(state, seat, {"type": "buy", "goods": {"beer": limit + 1}}) == "too_many_goods"
    state["turn"] = 2
    buys = [c for c in GAME.legal(state, seat) if c["type"] == "buy"]
    assert max(sum(c["goods"].values()) for c in buys) == 3


@pytest.mark.parametrize(
    ("window", "own", "total", "ok"),
    [
        (1, 1, 1, True),
        (1, 0, 1, False),
        (1, 2, 2, False),
        (2, 1, 2, True),
        (2, 2, 2, True),
        (2, 0, 2, False),
        (2, 1, 1, False),
        (3, 2, 2, True),
        (3, 1, 2, False),
        (3, 1, 3, True),
        (3, 3, 3, True),
        (3, 0, 3, False),
        (4, 3, 3, True),
        (4, 2, 3, False),
        (4, 2, 4, True),
        (4, 4, 4, True),
        (4, 1, 4, False),
    ],
)
def test_guest_room_prices(window: int, own: int, total: int, ok: bool) -> None:
    assert is_valid_payment(window, own, total) is ok


def test_hiring_pays_into_this_storehouse_takes_the_guest_and_the_roof_bonus() -> None:
    state = at_guild(3, 1, [0])
    crafts = craftsman(3, 5)
    put_guest(state, 1, 3, crafts)
    state["players"][0]["goods"] = {"beer": 1, "shoes": 2}
    state["houses"][0]["roof"] = [1, 2, 0]
    store = dict(state["houses"][0]["store"])
    options = [
        c["payment"]
        for c in GAME.legal(state, 0)
        if c["type"] == "hire" and c["window"] == 3 and not c["to_front"]
    ]
    assert {"beer": 1, "shoes": 2} in options and len(options) == 1
    cmd = {"type": "hire", "window": 3, "payment": {"beer": 1, "shoes": 2}, "to_front": False}
    after, events = act(state, 0, cmd)
    p = after["players"][0]
    assert p["craftsmen"] == [crafts] and p["goods"] == {}
    assert after["houses"][0]["store"] == {"beer": store["beer"] + 1, "shoes": 2}
    assert after["houses"][0]["guests"][2] is None
    assert p["talers"] == 25 + 3  # three agents were on the roof before this one
    assert types(events)[:2] == ["GuestHired", "BonusPaid"]
    assert error(state, 0, {**cmd, "window": 1}) in {"empty_window", "bad_payment"}
    assert error(state, 0, {**cmd, "payment": {"shoes": 2}}) == "bad_payment"
    assert error(state, 0, {**cmd, "payment": {"beer": 2}}) == "no_goods"
    assert error(state, 0, {**cmd, "window": 5}) == "bad_window"
    assert error(state, 0, {**cmd, "tile": "c1-01"}) == "stale_command"
    state["houses"][0]["guests"][0] = None
    assert error(state, 0, {**cmd, "window": 1, "payment": {"beer": 1}}) == "empty_window"


def test_a_craftsman_with_the_agent_symbol_gives_an_agent_up_to_eight() -> None:
    state = at_guild(3, 1, [0])
    put_guest(state, 1, 2, craftsman(2, 2, agent=True))
    state["players"][0]["goods"] = {"beer": 2}
    cmd = {"type": "hire", "window": 2, "payment": {"beer": 2}, "to_front": False}
    after, events = act(state, 0, cmd)
    assert "AgentGained" in types(events)
    assert after["players"][0]["hand"] == 4  # 3 left after the card, +1
    state["players"][0]["hand"] = 7  # with the agent on the card: 8 agents
    after, events = act(state, 0, cmd)
    assert after["players"][0]["hand"] == 7
    assert "all 8 agents" in next(e["text"] for e in events if e["type"] == "AgentGained")


def test_moving_to_the_front_pushes_the_others_down_and_changes_who_acts_next() -> None:
    state = at_guild(3, 1, [0, 1, 2], seed="front")
    order = list(state["order"])
    first, middle, last = order
    state, _ = act(state, first, {"type": "nothing"})
    assert GAME.to_act(state) == {middle}
    state["players"][middle]["goods"]["beer"] = 1
    window = next(i for i, t in enumerate(state["houses"][0]["guests"], 1) if t)
    legal = [c for c in GAME.legal(state, middle) if c["type"] == "hire"]
    hire = next(c for c in legal if c["window"] == window and c["to_front"])
    assert error(state, first, {"type": "nothing"}) == "not_your_turn"
    state, events = act(state, middle, hire)
    if state["action"]["choice"] is not None:
        state, more = act(state, middle, GAME.legal(state, middle)[-1])
        events += more
    assert "MovedToFront" in types(events)
    assert state["order"] == [middle, first, last]
    assert GAME.to_act(state) == {last}


def test_the_first_in_play_order_is_not_offered_a_move_to_the_front() -> None:
    state = at_guild(3, 1, [0, 1, 2])
    first = state["order"][0]
    hires = [c for c in GAME.legal(state, first) if c["type"] == "hire"]
    assert hires and not any(c["to_front"] for c in hires)
    cmd = {**hires[0], "to_front": True}
    assert error(state, first, cmd) == "already_first"


def test_agents_go_to_the_roof_after_acting() -> None:
    state = at_guild(3, 2, [0, 2])
    assert state["players"][0]["hand"] == 3 and state["players"][0]["card"] == 1
    acting = next(iter(GAME.to_act(state)))
    state, events = act(state, acting, {"type": "nothing"})
    assert types(events) == ["DidNothing"]
    assert state["houses"][1]["roof"][acting] == 1 and state["players"][acting]["card"] == 0
    view = GAME.view(state, None)
    assert view["players"][acting]["agents"] == {"hand": 3, "roof": 1, "supply": 4}


def test_unknown_actions_and_other_seats_are_rejected() -> None:
    state = at_guild(3, 1, [0])
    assert error(state, 0, {"type": "fly"}) == "bad_command"
    assert error(state, 1, {"type": "nothing"}) == "not_your_turn"
    assert error(state, 0, {"type": "plan", "guilds": [1]}) == "unexpected_command"
    assert GAME.legal(state, 1) == [] and GAME.view(state, 1)["legal"] == []


def test_malformed_commands_unknown_seats_and_a_finished_game_are_rejected() -> None:
    state = at_guild(3, 1, [0])
    assert error(state, 0, {"type": "nothing", "please": True}) == "bad_command"
    assert error(state, 0, {"type": "teleport"}) == "bad_command"
    assert error(state, 0, ["nothing"]) == "bad_command"  # type: ignore[arg-type]
    assert error(state, 7, {"type": "nothing"}) == "not_your_turn"
    assert error(state, 0, {"type": "sell", "count": True}) == "bad_command"
    assert error(state, 0, {"type": "hire", "window": 1, "payment": {}, "to_front": 0}) in {
        "bad_command",
        "empty_window",
    }
    state["phase"] = "over"
    assert error(state, 0, {"type": "nothing"}) == "game_over"
    assert GAME.legal(state, 0) == []


def test_each_window_lists_every_payment_of_the_sizes_it_accepts() -> None:
    # legal_hire picks only the payment sizes a window accepts (PAYMENT_SIZES): the listing,
    # order included, must be every pick of one to four goods the price table accepts.
    names = ["beer", "shoes", "cloth", "bread"]
    holdings = [
        dict(zip(names, counts, strict=True))
        for counts in itertools.product(range(4), repeat=len(names))
    ]
    for have in holdings:
        have = {g: n for g, n in have.items() if n}
        for window in (1, 2, 3, 4):
            for own_good in ("beer", "bread"):
                every = [
                    pick
                    for size in range(1, 5)
                    for pick in multisets(have, size)
                    if is_valid_payment(window, pick.get(own_good, 0), size)
                ]
                assert _payments(have, own_good, window) == every
    assert all(sizes == tuple(sorted(sizes)) for sizes in PAYMENT_SIZES.values())
