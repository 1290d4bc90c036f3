"""Sealed planning: commit in any order, one wait makes the phase ordered, take plans back."""

from __future__ import annotations

import json

import pytest

from server.engine import RuleError
from server.engine import planning as pl


def three_seats(ordered: bool = False) -> pl.Planning:
    # Reverse play order for play order 0, 1, 2 is 2, 1, 0.
    return pl.open_planning(3, order=[2, 1, 0], eligible=[0, 1, 2], ordered=ordered)


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


def test_one_wait_switches_the_whole_phase_to_one_seat_at_a_time_in_order() -> None:
    """N-4.5, N-4.6, S-4.6: the waiting seat and every other uncommitted seat plan in order."""
    p = pl.wait(three_seats(), 0)
    assert pl.is_ordered(p) and p["waited_by"] == 0
    assert pl.awaiting(p) == [2]
    assert pl.public_status(p) == ["waiting", "waiting", "planning"]
    with pytest.raises(RuleError) as err:
        pl.commit(p, 1, {})
    assert err.value.code == "must_wait"
    p = pl.commit(p, 2, "a")
    assert pl.awaiting(p) == [1]
    p = pl.commit(p, 1, "b")
    assert pl.awaiting(p) == [0]


def test_the_first_seat_in_order_cannot_wait() -> None:
    """N-4.7: the last in play order plans first in reverse order; waiting means nothing."""
    with pytest.raises(RuleError) as err:
        pl.wait(three_seats(), 2)
    assert err.value.code == "cannot_wait"


def test_first_eligible_seat_cannot_wait_when_earlier_seats_are_out() -> None:
    p = pl.open_planning(3, order=[2, 1, 0], eligible=[0, 1])
    assert not pl.may_wait(p, 1)
    assert pl.may_wait(p, 0)


def test_nobody_waits_twice_and_a_committed_seat_cannot_wait() -> None:
    """N-4.7: once the phase is ordered there is nothing left to ask for."""
    p = pl.commit(three_seats(), 1, "x")
    assert not pl.may_wait(p, 1)
    p = pl.wait(p, 0)
    assert not any(pl.may_wait(p, s) for s in range(3))
    with pytest.raises(RuleError) as err:
        pl.wait(p, 0)
    assert err.value.code == "cannot_wait"


def test_ordered_mode_starts_the_phase_ordered() -> None:
    """N-4.8, S-4.7: an ordered table needs no wait; the first seat plans alone."""
    p = three_seats(ordered=True)
    assert pl.public_status(p) == ["waiting", "waiting", "planning"]
    assert pl.awaiting(p) == [2]
    p = pl.commit(p, 2, "x")
    assert pl.awaiting(p) == [1]
    assert not pl.may_retract(p, 2)


def test_before_anyone_waits_a_plan_can_be_taken_back_and_made_again() -> None:
    """N-4.4, S-4.5."""
    p = pl.commit(three_seats(), 2, "first")
    p = pl.retract(p, 2)
    assert pl.plan_of(p, 2) is None and pl.may_commit(p, 2)
    p = pl.commit(p, 2, "second")
    p = pl.commit(p, 1, "b")
    assert pl.may_retract(p, 1) and pl.may_retract(p, 2)
    p = pl.commit(p, 0, "c")
    # Planning is complete now: nothing can be taken back.
    with pytest.raises(RuleError) as err:
        pl.retract(p, 2)
    assert err.value.code == "cannot_retract"


def test_a_seat_takes_its_plan_back_only_so_many_times_in_one_phase() -> None:
    """N-4.4, S-4.5: at most MAX_RETRACTS take-backs a seat and phase; the others keep theirs,
    and the next phase starts afresh."""
    p = pl.commit(three_seats(), 1, "b")
    for n in range(pl.MAX_RETRACTS):
        p = pl.retract(pl.commit(p, 2, f"plan {n}"), 2)
    assert pl.retracts(p, 2) == pl.MAX_RETRACTS
    p = pl.commit(p, 2, "final")
    assert not pl.may_retract(p, 2) and pl.may_retract(p, 1)
    with pytest.raises(RuleError) as err:
        pl.retract(p, 2)
    assert err.value.code == "cannot_retract" and "3 times" in err.value.message
    assert pl.retracts(three_seats(), 2) == 0


def test_a_wait_makes_every_committed_plan_final_for_everyone() -> None:
    """N-4.6: no retract for anyone once a seat waited, also for seats after the waiter."""
    p = pl.open_planning(4, order=[3, 2, 1, 0], eligible=[0, 1, 2, 3])
    p = pl.commit(p, 3, "a")
    p = pl.commit(p, 0, "early")  # after the waiter in order, committed before the wait
    p = pl.wait(p, 1)
    assert not any(pl.may_retract(p, s) for s in range(4))
    with pytest.raises(RuleError) as err:
        pl.retract(p, 0)
    assert err.value.code == "cannot_retract"
    # Only the uncommitted seats are left, one at a time: 2, then the waiter 1.
    assert pl.awaiting(p) == [2]
    p = pl.commit(p, 2, "b")
    assert pl.awaiting(p) == [1]
    p = pl.commit(p, 1, "waited")
    assert pl.is_complete(p)


def test_a_record_from_before_the_phase_wide_rule_reads_as_ordered_when_someone_waited() -> None:
    old = {
        "order": [2, 1, 0],
        "eligible": [True, True, True],
        "waiting": [True, False, False],
        "plans": [None, None, None],
        "committed_at": [None, None, None],
        "counter": 0,
    }
    assert pl.is_ordered(old) and pl.awaiting(old) == [2]
    assert not pl.is_ordered({**old, "waiting": [False] * 3})


def test_the_planning_option_is_checked_in_one_place() -> None:
    assert pl.check_planning_option("simultaneous") == "simultaneous"
    with pytest.raises(RuleError) as err:
        pl.check_planning_option("random")
    assert err.value.code == "bad_option"


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
