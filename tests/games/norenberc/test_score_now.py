"""The score if the game ended now: every seat's public part of the final scoring in every
view, and a seat's own money's part only in that seat's view."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from server.games.norenberc.scoring import MONEY_CATEGORIES, own_now, score_now
from tests.support.playout import Seeded, play

from .helpers import GAME, citizen, craftsman, fresh


def dump(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def with_holdings() -> dict[str, Any]:
    """Three seats mid-game: seat 1 owns a tax collector and 34 talers, seat 2 a nobleman."""
    state = fresh(3, "now")
    state["players"][0]["craftsmen"] = [craftsman(1, 7), craftsman(1, 6)]
    state["players"][1]["craftsmen"] = [craftsman(1, 5)]
    state["players"][1]["citizens"] = [citizen("tax_collector")]
    state["players"][1]["talers"] = 34
    state["players"][2]["citizens"] = [citizen("nobleman", 2)]
    return state


def test_every_seat_sees_everyones_public_part_and_only_its_own_money() -> None:
    state = with_holdings()
    spectator = GAME.view(state, None)["score_now"]
    # Guild 1: seat 0 first (5 VP, and the empty 3rd place's 1), seat 1 second (3 VP); seat 1's
    # tax collector counts no talers in public; seat 2's nobleman scores his printed value.
    assert spectator == {
        "seats": [{"majorities": 6}, {"majorities": 3}, {"citizens": 3}],
        "hidden": ["richest"],
    }
    assert GAME.view(state, 1)["score_now"] == {**spectator, "own": {"citizens": 3}}
    assert GAME.view(state, 0)["score_now"] == {**spectator, "own": {}}
    assert GAME.view(state, 2)["score_now"]["own"] == {}


def test_another_seats_money_changes_no_other_view() -> None:
    state = with_holdings()
    richer = copy.deepcopy(state)
    richer["players"][1]["talers"] = 95
    for viewer in (0, 2, None):
        assert dump(GAME.view(state, viewer)) == dump(GAME.view(richer, viewer))
    assert GAME.view(richer, 1)["score_now"]["own"] == {"citizens": 9}


def test_the_score_rules_name_each_category_clause_and_the_promo_one_only_with_it() -> None:
    plain = GAME.view(fresh(2), None)["score_rules"]
    assert plain == {
        "citizens": "N-9.1",
        "majorities": "N-9.2",
        "thirty": "N-9.3",
        "all_guilds": "N-9.4",
        "richest": "N-9.5",
        "crests": "N-9.6",
    }
    assert GAME.view(fresh(2, promo=True), 0)["score_rules"] == {**plain, "promo": "N-C.4"}


def test_a_finished_game_shows_its_result_and_no_score_now() -> None:
    state = with_holdings()
    state["phase"] = "over"
    assert GAME.view(state, 1)["score_now"] is None and GAME.view(state, 1)["result"]


@pytest.mark.parametrize(("seats", "promo"), [(2, False), (3, True), (5, False), (5, True)])
def test_at_the_end_score_now_is_the_final_score_without_the_money(seats: int, promo: bool) -> None:
    seed = f"now-{seats}-{promo}"
    record = play(GAME, seats, seed, {"promo": promo}, Seeded(seed))
    state = record.final
    assert state is not None and state["phase"] == "over"
    result = GAME.result(state)
    assert result is not None
    public = score_now(state)
    for seat in range(seats):
        own = own_now(state, seat)
        final = result["breakdown"][seat]
        for category, vp in final.items():
            if category in MONEY_CATEGORIES:
                assert category not in public[seat] and category not in own
            else:
                assert public[seat].get(category, 0) + own.get(category, 0) == vp, category
        # Only a tax collector makes money count outside the richest.
        assert set(own) <= {"citizens"}
