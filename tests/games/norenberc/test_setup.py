"""Setup by player count, options, determinism (rules: Setup 1-9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.engine import RuleError
from server.games.norenberc.data import components

from .helpers import GAME, fresh


@pytest.mark.parametrize(
    ("seats", "guilds", "citizens"), [(2, 3, 8), (3, 4, 12), (4, 5, 16), (5, 6, 20)]
)
def test_guilds_and_citizens_in_play_depend_on_the_player_count(
    seats: int, guilds: int, citizens: int
) -> None:
    state = fresh(seats)
    assert len(state["houses"]) == guilds
    in_deck_or_rooms = state["deck"] + [t for h in state["houses"] for t in h["guests"] if t]
    drawn = [t for t in in_deck_or_rooms if t.startswith("t")]
    assert len(drawn) == citizens
    crafts = [t for t in in_deck_or_rooms if t.startswith("c")]
    assert len(crafts) == 6 * guilds
    assert {int(t[1]) for t in crafts} == set(range(1, guilds + 1))


def test_players_start_with_25_talers_4_agents_and_one_good_of_each_guild() -> None:
    state = fresh(4)
    for p in state["players"]:
        assert p["talers"] == 25 and p["hand"] == 4 and p["disc"] == "agent"
        assert p["goods"] == {"beer": 1, "pastry": 1, "shoes": 1, "paper": 1, "cloth": 1}
    for g, h in enumerate(state["houses"], start=1):
        assert h["store"] == {components().good_of(g): 12 - 4}
        assert h["crests"] == 4 and h["roof"] == [0, 0, 0, 0]


def test_workshops_hold_a_master_two_tiles_and_a_two_tile_stack() -> None:
    state = fresh(3)
    for g, h in enumerate(state["houses"], start=1):
        assert len(h["master"]) == 1
        assert [len(stack) for stack in h["queue"]] == [1, 1, 2]
        tiles = h["master"] + [t for stack in h["queue"] for t in stack]
        assert all(components().tiles[t]["guild"] == g for t in tiles)


def test_guest_rooms_leave_window_one_empty() -> None:
    state = fresh(5)
    for h in state["houses"]:
        assert h["guests"][0] is None and all(h["guests"][1:])
    assert len(state["deck"]) == 6 * 6 + 20 - 3 * 6


def test_prestige_goes_to_the_highest_master_lower_guild_on_a_tie() -> None:
    for seed in range(30):
        state = fresh(3, str(seed))
        values = [components().tiles[h["master"][0]]["value"] for h in state["houses"]]
        assert state["prestige_guild"] == values.index(max(values)) + 1
        assert state["prestige_left"] == 3 and state["prestige_crest"]


def test_play_order_is_random_but_deterministic_per_seed() -> None:
    orders = {tuple(fresh(4, str(seed))["order"]) for seed in range(40)}
    assert len(orders) > 5
    assert json.dumps(fresh(4, "x")) == json.dumps(fresh(4, "x"))
    assert fresh(4, "x") != fresh(4, "y")


def test_default_options_and_option_errors() -> None:
    assert GAME.default_options() == {"planning": "simultaneous", "promo": False}
    assert (GAME.name, GAME.title, GAME.min_seats, GAME.max_seats) == (
        "norenberc",
        "Norenberc",
        2,
        5,
    )
    bad_options: list[tuple[dict[str, Any], str]] = [
        ({"colour": 1}, "bad_option"),
        ({"planning": "fast"}, "bad_option"),
        ({"promo": "yes"}, "bad_option"),
    ]
    for options, code in bad_options:
        with pytest.raises(RuleError) as err:
            GAME.new(3, "s", options)
        assert err.value.code == code
    for seats in (1, 6, True):
        with pytest.raises(RuleError) as err:
            GAME.new(seats, "s", {})
        assert err.value.code == "bad_seats"


def test_ordered_planning_lets_only_the_last_in_play_order_plan_first() -> None:
    state = fresh(4, "o", planning="ordered")
    assert GAME.to_act(state) == {state["order"][-1]}
