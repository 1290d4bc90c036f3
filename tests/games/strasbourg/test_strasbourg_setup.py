"""Setup: options, seats, round cards, council, coins, decks and the secret task choice."""

from __future__ import annotations

from collections import Counter

import pytest

from server.engine import RuleError, get_game
from server.engine import planning as pl

from .helpers import GAME, expect_error, play


def test_registered_under_its_name_with_three_to_five_seats() -> None:
    game = get_game("strasbourg")
    assert (game.name, game.title, game.min_seats, game.max_seats) == (
        "strasbourg",
        "Strasbourg",
        3,
        5,
    )
    assert game.default_options() == {"planning": "simultaneous"}


@pytest.mark.parametrize("seats", [2, 6])
def test_seat_counts_outside_three_to_five_are_refused(seats: int) -> None:
    with pytest.raises(RuleError) as err:
        GAME.new(seats, "s", {})
    assert err.value.code == "bad_seats"


@pytest.mark.parametrize("options", [{"planning": "fast"}, {"promo": True}])
def test_unknown_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(RuleError) as err:
        GAME.new(4, "s", options)
    assert err.value.code == "bad_option"


def test_setup_is_deterministic_for_a_seed() -> None:
    assert GAME.new(4, "same", {}) == GAME.new(4, "same", {})
    assert GAME.new(4, "same", {}) != GAME.new(4, "other", {})


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_setup_places_council_members_coins_decks_and_task_offers(seats: int) -> None:
    state = GAME.new(seats, f"setup{seats}", {})
    start = state["start"]
    assert sorted(state["cards"]) == [0, 1, 2, 3, 4]
    assert sorted(state["edifice_order"]) == [0, 1, 2, 3, 4]
    assert state["council"]["nobility"] == start
    assert state["council"]["church"] == (start + 1) % seats
    assert [v for k, v in state["council"].items() if k not in ("nobility", "church")] == [None] * 6
    offers = [p["offer"] for p in state["players"]]
    assert all(len(o) == 5 for o in offers)
    assert len({t for o in offers for t in o}) == 5 * seats  # dealt from one shuffled pile
    for player in state["players"]:
        assert player["coins"] == 5
        assert Counter(player["deck"]) == dict.fromkeys(range(1, 7), 4)
    assert state["phase"] == "tasks" and GAME.to_act(state) == set(range(seats))


def test_a_seat_keeps_one_to_five_of_its_tasks() -> None:
    state = GAME.new(3, "keep", {})
    offer = state["players"][0]["offer"]
    keeps = GAME.legal(state, 0)
    assert len(keeps) == 31 and {"type": "keep", "tasks": offer} in keeps
    assert expect_error(state, 0, {"type": "keep", "tasks": []}) == "not_allowed"
    other = state["players"][1]["offer"][:1]
    assert expect_error(state, 0, {"type": "keep", "tasks": other}) == "not_allowed"


def test_task_choice_is_sealed_through_engine_planning_and_round_one_follows() -> None:
    state = GAME.new(3, "keep2", {})
    first = state["players"][2]["offer"][1:3]
    state, events = play(state, 2, {"type": "keep", "tasks": first})
    assert pl.plan_of(state["planning"], 2) == first
    assert events[0]["to"] is None and "2" not in events[0]["text"].replace("{s2}", "")
    assert expect_error(state, 2, {"type": "keep", "tasks": first}) == "already_committed"
    for seat in (0, 1):
        state, _ = play(state, seat, {"type": "keep", "tasks": state["players"][seat]["offer"]})
    assert state["phase"] == "planning" and state["round"] == 0
    assert state["players"][2]["tasks"] == first and len(state["players"][0]["tasks"]) == 5
