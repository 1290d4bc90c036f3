"""Sealed planning: commit in any order, wait for earlier seats, take plans back."""

from __future__ import annotations

import json

import pytest

from server.engine import RuleError
from server.engine import planning as pl


def three_seats(all_wait: bool = False) -> pl.Planning:
    # Reverse play order for play order 0, 1, 2 is 2, 1, 0.
    return pl.open_planning(3, order=[2, 1, 0], eligible=[0, 1, 2], all_wait=all_wait)


def test_everyone_may_commit_at_once_by_default() -> None:
    p = three_seats()
    assert pl.awaiting(p) == [2, 1, 0]


def test_planning_completes_when_every_eligible_seat_has_committed() -> None:
    p = three_seats()
    for seat in (0, 2, 1):
        assert not pl.is_complete(p)
        p = pl.commit(p, seat, {"guilds": [seat + 1]})
    assert pl.is_complete(p)
    assert [pl.plan_of(p, s) for s in range(3)] == [
        {"guilds": [1]},
        {"guilds": [2]},
        {"guilds": [3]},
    ]


def test_seats_out_of_the_round_are_not_awaited() -> None:
    p = pl.open_planning(3, order=[2, 1, 0], eligible=[0, 2])
    assert pl.awaiting(p) == [2, 0]
    assert pl.status_of(p, 1) == "out"
    with pytest.raises(RuleError) as err:
        pl.commit(p, 1, {})
    assert err.value.code == "not_your_turn"


def test_a_waiting_seat_commits_only_after_every_seat_before_it() -> None:
    p = pl.wait(three_seats(), 0)
    assert pl.awaiting(p) == [2, 1]
    with pytest.raises(RuleError) as err:
        pl.commit(p, 0, {})
    assert err.value.code == "must_wait"
    p = pl.commit(p, 2, "a")
    assert not pl.may_commit(p, 0)
    p = pl.commit(p, 1, "b")
    assert pl.awaiting(p) == [0]


def test_the_first_seat_in_order_cannot_wait() -> None:
    with pytest.raises(RuleError) as err:
        pl.wait(three_seats(), 2)
    assert err.value.code == "cannot_wait"


def test_first_eligible_seat_cannot_wait_when_earlier_seats_are_out() -> None:
    p = pl.open_planning(3, order=[2, 1, 0], eligible=[0, 1])
    assert not pl.may_wait(p, 1)
    assert pl.may_wait(p, 0)


def test_ordered_mode_makes_every_seat_but_the_first_wait() -> None:
    p = three_seats(all_wait=True)
    assert pl.public_status(p) == ["waiting", "waiting", "planning"]
    assert pl.awaiting(p) == [2]
    p = pl.commit(p, 2, "x")
    assert pl.awaiting(p) == [1]


def test_a_plan_can_be_taken_back_until_a_waiting_seat_plans_after_it() -> None:
    p = pl.wait(three_seats(), 0)
    p = pl.commit(p, 2, "first")
    p = pl.retract(p, 2)
    assert pl.plan_of(p, 2) is None and pl.may_commit(p, 2)
    p = pl.commit(p, 2, "second")
    p = pl.commit(p, 1, "b")
    p = pl.commit(p, 0, "waited")
    # Planning is complete now: nothing can be taken back.
    with pytest.raises(RuleError) as err:
        pl.retract(p, 2)
    assert err.value.code == "cannot_retract"


def test_no_retraction_once_a_waiting_seat_has_seen_the_plan() -> None:
    p = pl.open_planning(4, order=[3, 2, 1, 0], eligible=[0, 1, 2, 3])
    p = pl.wait(p, 1)
    p = pl.commit(p, 3, "a")
    p = pl.commit(p, 2, "b")
    p = pl.commit(p, 1, "waited")
    assert not pl.may_retract(p, 3) and not pl.may_retract(p, 2)
    # Seat 1 itself waited, but nobody waiting has planned after it: it may still change its mind.
    assert pl.may_retract(p, 1)


def test_functions_never_mutate_their_input() -> None:
    p = three_seats()
    before = json.dumps(p)
    pl.commit(p, 0, "x")
    pl.wait(p, 0)
    assert json.dumps(p) == before


def test_record_round_trips_through_json() -> None:
    p = pl.commit(pl.wait(three_seats(), 0), 2, {"guilds": [1, 3]})
    assert json.loads(json.dumps(p)) == p


def test_committing_twice_is_rejected() -> None:
    p = pl.commit(three_seats(), 1, "x")
    with pytest.raises(RuleError) as err:
        pl.commit(p, 1, "y")
    assert err.value.code == "already_committed"
