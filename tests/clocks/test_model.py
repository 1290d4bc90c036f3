"""The clock model with an injected clock: every time is a number passed in, nothing sleeps."""

from __future__ import annotations

import pytest

from server.clocks import model
from server.clocks.model import ClockError

LIVE = model.check_config({"mode": "live", "plan": 60, "action": 20, "bank": 300, "increment": 5})
DAYS = model.check_config({"mode": "days", "per_decision": 43200})
T0 = 1_000_000.0


def started(config: dict[str, object], seats: int, to_act: set[int], planning: bool) -> model.Clock:
    clock = model.new_clock(config, seats)
    return model.advance(clock, set(), to_act, now=T0, planning=planning)


def test_config_defaults_and_refusals() -> None:
    assert model.check_config(None)["mode"] == "untimed"
    with pytest.raises(ClockError, match="mode"):
        model.check_config({"mode": "blitz"})
    with pytest.raises(ClockError, match="unknown"):
        model.check_config({"mode": "live", "overtime": 3})
    with pytest.raises(ClockError, match="per_decision"):
        model.check_config({"mode": "days", "per_decision": 3600})
    with pytest.raises(ClockError, match="number"):
        model.check_config({"mode": "live", "bank": "lots"})
    with pytest.raises(ClockError, match="within"):
        model.check_config({"mode": "live", "plan": 1})


def test_free_time_then_bank() -> None:
    clock = started(LIVE, 2, {0}, planning=False)
    assert model.deadline(clock, 0) == T0 + 20 + 300
    # 50 s for the action: 20 free, 30 from the bank; the next decision adds 5 back.
    clock = model.advance(clock, {0}, {1}, now=T0 + 50, planning=False, actor=0, command="sell")
    assert clock["seats"][0]["bank"] == 270
    assert model.deadline(clock, 0) is None
    assert model.deadline(clock, 1) == T0 + 50 + 20 + 300
    clock = model.advance(clock, {1}, {0}, now=T0 + 51, planning=False, actor=1, command="pass")
    assert clock["seats"][0]["bank"] == 275
    assert model.deadline(clock, 0) == T0 + 51 + 20 + 275


def test_bank_never_grows_past_its_start() -> None:
    clock = started(LIVE, 2, {0}, planning=False)
    for step in range(10):
        now = T0 + step * 2 + 1
        clock = model.advance(clock, {0}, {1}, now=now, planning=False, actor=0, command="a")
        clock = model.advance(clock, {1}, {0}, now=now + 1, planning=False, actor=1, command="a")
    assert clock["seats"][0]["bank"] == 300
    assert clock["seats"][1]["bank"] == 300


def test_sealed_planning_runs_every_uncommitted_seat_and_commit_stops_one() -> None:
    clock = started(LIVE, 3, {0, 1, 2}, planning=True)
    assert {model.deadline(clock, s) for s in range(3)} == {T0 + 60 + 300}
    clock = model.advance(clock, {0, 1, 2}, {1, 2}, now=T0 + 10, planning=True, actor=0)
    assert model.deadline(clock, 0) is None
    assert clock["seats"][0]["left"] == 50
    assert model.deadline(clock, 1) == T0 + 360
    left = model.remaining(clock, 2, T0 + 100)
    assert left == {"free": 0.0, "bank": 260.0}


def test_retract_restarts_with_what_was_left_no_refund() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    clock = model.advance(clock, {0, 1}, {1}, now=T0 + 45, planning=True, actor=0, command="plan")
    # Taken back 100 s later: 15 s of free time left, the bank untouched, nothing refunded.
    clock = model.advance(
        clock, {1}, {0, 1}, now=T0 + 145, planning=True, actor=0, command="retract"
    )
    assert model.deadline(clock, 0) == T0 + 145 + 15 + 300
    assert clock["seats"][0]["bank"] == 300  # no increment: the same decision goes on


def test_reverse_order_planning_runs_only_the_seat_that_must_act() -> None:
    # Seat 2 plans first, then 1, then 0: ``to_act`` has one seat at a time.
    clock = started(LIVE, 3, {2}, planning=True)
    assert [model.deadline(clock, s) is not None for s in range(3)] == [False, False, True]
    clock = model.advance(clock, {2}, {1}, now=T0 + 5, planning=True, actor=2, command="plan")
    assert [model.deadline(clock, s) is not None for s in range(3)] == [False, True, False]
    assert model.deadline(clock, 1) == T0 + 5 + 60 + 300


def test_planning_steps_are_one_decision_action_choices_are_each_one() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    clock = model.advance(
        clock, {0, 1}, {0, 1}, now=T0 + 30, planning=True, actor=0, command="place"
    )
    assert model.deadline(clock, 0) == T0 + 60 + 300  # still the same decision
    clock = model.advance(clock, {0}, {0}, now=T0 + 100, planning=False, actor=0, command="hire")
    # A new action choice: 20 free again; the bank paid the 40 s past the free 60.
    assert model.deadline(clock, 0) == T0 + 100 + 20 + 265


def test_over_days_is_a_fixed_time_per_decision() -> None:
    clock = started(DAYS, 2, {0}, planning=False)
    assert model.deadline(clock, 0) == T0 + 43200
    clock = model.advance(clock, {0}, {1}, now=T0 + 40000, planning=False, actor=0, command="x")
    clock = model.advance(clock, {1}, {0}, now=T0 + 40001, planning=False, actor=1, command="x")
    assert model.deadline(clock, 0) == T0 + 40001 + 43200
    assert model.remaining(clock, 0, T0 + 40001)["bank"] == 0


def test_untimed_has_no_deadline_but_bots_are_due() -> None:
    clock = started(model.check_config({}), 2, {0, 1}, planning=True)
    assert model.deadline(clock, 0) is None
    assert model.due_at(clock, [0], [], 0.5) is None
    assert model.due_at(clock, [0], [1], 0.5) == T0 + 0.5


def test_due_at_is_the_nearest_deadline_and_timeouts_are_seen() -> None:
    clock = started(LIVE, 3, {0, 1}, planning=True)
    clock = model.advance(clock, {0, 1}, {1}, now=T0 + 10, planning=True, actor=0)
    clock = model.advance(clock, {1}, {1, 2}, now=T0 + 20, planning=True)
    assert model.due_at(clock, [1, 2], [], 0.6) == T0 + 360
    assert model.timed_out(clock, [1, 2], T0 + 359.9) == []
    assert model.timed_out(clock, [1, 2], T0 + 360) == [1]


def test_cover_counts_once_per_decision_and_hands_over_after_two() -> None:
    clock = started(LIVE, 2, {0}, planning=False)
    clock, newly, hand = model.cover(clock, 0)
    assert (newly, hand) == (True, False)
    assert model.cover(clock, 0)[1:] == (False, False)  # the same decision: no second count
    assert model.due_at(clock, [0], [], 0.6) == T0  # a covered seat's bot plays at once
    clock = model.advance(
        clock, {0}, {1}, now=T0 + 400, planning=False, actor=0, command="x", by_bot_cover=True
    )
    clock = model.advance(clock, {1}, {0}, now=T0 + 401, planning=False, actor=1, command="x")
    assert clock["seats"][0]["covered"] is False
    clock, newly, hand = model.cover(clock, 0)
    assert (newly, hand) == (True, True)


def test_own_move_resets_timeouts_in_a_row() -> None:
    clock = started(LIVE, 2, {0}, planning=False)
    clock = model.cover(clock, 0)[0]
    clock = model.advance(
        clock, {0}, {1}, now=T0 + 1, planning=False, actor=0, command="x", by_bot_cover=True
    )
    clock = model.advance(clock, {1}, {0}, now=T0 + 2, planning=False, actor=1, command="x")
    clock = model.advance(clock, {0}, {1}, now=T0 + 3, planning=False, actor=0, command="x")
    assert clock["seats"][0]["timeouts"] == 0


def test_one_timeout_hands_over_in_over_days() -> None:
    clock = started(DAYS, 2, {0}, planning=False)
    assert model.cover(clock, 0)[2] is True


def test_pause_keeps_remaining_times_exactly() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    before = model.remaining(clock, 0, T0 + 70)
    clock = model.pause(clock, T0 + 70, until=T0 + 86400)
    assert model.deadline(clock, 0) is None
    assert model.remaining(clock, 0, T0 + 5000) == before
    assert model.due_at(clock, [0, 1], [], 0.6) == T0 + 86400
    # Changes while paused move no time.
    clock = model.advance(clock, {0, 1}, {1}, now=T0 + 6000, planning=True, actor=0)
    clock = model.resume(clock, T0 + 9000)
    assert model.remaining(clock, 1, T0 + 9000) == before
    assert model.deadline(clock, 1) == T0 + 9000 - 70 + 60 + 300
    with pytest.raises(ClockError):
        model.resume(clock, T0 + 9001)


def test_add_time_goes_to_the_bank_or_the_decision() -> None:
    live = model.add_time(started(LIVE, 2, {0}, planning=False), 0, 120, T0)
    assert model.deadline(live, 0) == T0 + 20 + 420
    # A gift past the bank's start survives the next decision's increment cap.
    later = model.advance(live, {0}, {1}, now=T0 + 1, planning=False, actor=0, command="x")
    later = model.advance(later, {1}, {0}, now=T0 + 2, planning=False, actor=1, command="x")
    assert later["seats"][0]["bank"] == 420
    days = model.add_time(started(DAYS, 2, {0}, planning=False), 0, 3600, T0)
    assert model.deadline(days, 0) == T0 + 43200 + 3600
    with pytest.raises(ClockError):
        model.add_time(started(model.check_config({}), 2, {0}, planning=False), 0, 60, T0)
    with pytest.raises(ClockError):
        model.add_time(live, 0, -5, T0)


def test_added_time_waits_for_a_stopped_seats_next_decision_in_every_mode() -> None:
    # Over days, given while the seat waits for the others: its next decision gets it, once.
    days = started(DAYS, 2, {0}, planning=False)
    days = model.advance(days, {0}, {1}, now=T0 + 100, planning=False, actor=0, command="x")
    days = model.add_time(days, 0, 3600, T0 + 200)
    days = model.advance(days, {1}, {0}, now=T0 + 300, planning=False, actor=1, command="x")
    assert model.deadline(days, 0) == T0 + 300 + 43200 + 3600
    days = model.advance(days, {0}, {1}, now=T0 + 400, planning=False, actor=0, command="x")
    days = model.advance(days, {1}, {0}, now=T0 + 500, planning=False, actor=1, command="x")
    assert model.deadline(days, 0) == T0 + 500 + 43200
    # Given after a commit: the retract takes it up with what the commit kept, ...
    plan = started(DAYS, 2, {0, 1}, planning=True)
    plan = model.advance(plan, {0, 1}, {1}, now=T0 + 100, planning=True, actor=0, command="plan")
    plan = model.add_time(plan, 0, 3600, T0 + 200)
    retract = model.advance(
        plan, {1}, {0, 1}, now=T0 + 300, planning=True, actor=0, command="retract"
    )
    assert model.deadline(retract, 0) == T0 + 300 + 43100 + 3600
    # ... or, without one, the seat's next decision.
    acting = model.advance(
        plan, {1}, {0}, now=T0 + 300, planning=True, planning_after=False, actor=1, command="plan"
    )
    assert model.deadline(acting, 0) == T0 + 300 + 43200 + 3600
    # Live: on the bank, which the stopped seat keeps through its next decision's cap.
    live = started(LIVE, 2, {0}, planning=False)
    live = model.advance(live, {0}, {1}, now=T0 + 10, planning=False, actor=0, command="x")
    live = model.add_time(live, 0, 60, T0 + 20)
    live = model.advance(live, {1}, {0}, now=T0 + 30, planning=False, actor=1, command="x")
    assert model.deadline(live, 0) == T0 + 30 + 20 + 360
    # Untimed: there is no time to add.
    with pytest.raises(ClockError) as untimed:
        model.add_time(started(model.check_config({}), 2, {1}, planning=False), 0, 60, T0)
    assert untimed.value.code == "untimed"


@pytest.mark.parametrize("seconds", [0, 0.5, -5, 7 * 86400 + 1, float("inf"), True])
def test_added_time_is_one_second_to_seven_days(seconds: float) -> None:
    clock = started(LIVE, 2, {0}, planning=False)
    with pytest.raises(ClockError, match="between 1 second and 7 days") as refused:
        model.add_time(clock, 0, seconds, T0)
    assert refused.value.code == "bad_time"
    assert model.add_time(clock, 0, 1, T0)["seats"][0]["bank"] == 301
    assert model.add_time(clock, 0, 7 * 86400, T0)["seats"][0]["bank"] == 300 + 7 * 86400


def test_a_stalled_seat_is_left_alone_longer_each_time_until_its_next_decision() -> None:
    clock = started(LIVE, 2, {1}, planning=False)
    assert model.due_at(clock, [], [1], 0.5) == T0 + 0.5
    clock = model.stall(clock, 1, T0 + 1)
    assert model.is_stalled(clock, 1, T0 + 60) and not model.is_stalled(clock, 1, T0 + 61)
    assert model.due_at(clock, [], [1], 0.5) == T0 + 61
    clock = model.stall(clock, 1, T0 + 61)  # the next try failed too: twice as long
    assert model.due_at(clock, [], [1], 0.5) == T0 + 61 + 120
    # A covered person's decision is left alone the same way.
    person = model.stall(model.cover(started(LIVE, 2, {0}, planning=False), 0)[0], 0, T0)
    assert model.due_at(person, [0], [], 0.5) == T0 + 60
    # The seat's next decision is tried at once.
    clock = model.advance(clock, {1}, {0}, now=T0 + 70, planning=False, actor=1, command="x")
    clock = model.advance(clock, {0}, {1}, now=T0 + 71, planning=False, actor=0, command="x")
    assert model.due_at(clock, [], [1], 0.5) == T0 + 71.5
    assert not model.is_stalled(clock, 1, T0 + 71.5)


def test_downtime_is_given_back_with_a_grace() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    clock = model.advance(clock, {0, 1}, {1}, now=T0 + 300, planning=True, actor=0)
    # Down from T0+350 to T0+1350: seat 1 had 10 s left; it gets them back, at least 20 s.
    shifted = model.shift(clock, 1000, now=T0 + 1350, grace=20, began=T0 + 350)
    assert model.deadline(shifted, 1) == T0 + 1350 + 20
    # A second process starting after the same downtime gives nothing more.
    again = model.shift(shifted, 1001, now=T0 + 1351, grace=20, began=T0 + 350)
    assert again == shifted
    # The next downtime is given back again.
    later = model.shift(shifted, 100, now=T0 + 2000, grace=20, began=T0 + 1900)
    assert model.deadline(later, 1) == T0 + 2000 + 20
    days = started(DAYS, 2, {0}, planning=False)
    assert model.shift(days, 1000, now=T0, grace=20, began=T0 - 1000) == days


def test_public_view_has_absolute_deadlines_and_no_time_of_building() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    view = model.public(clock, {0, 1})
    assert "now" not in view
    assert view["seats"][0] == {
        "running": True,
        "deadline": T0 + 360,
        "free": 60.0,
        "bank": 300.0,
        "timeouts": 0,
        "covered": False,
        "away_until": None,
        "held": False,
        "asked": None,
        "nudged": {},
        "votes": [],
    }
    # A bot seat (not among the people) shows no running clock.
    assert model.public(clock, {0})["seats"][1]["running"] is False
    stopped = model.advance(clock, {0, 1}, {1}, now=T0 + 100, planning=True, actor=0)
    assert model.public(stopped, {1})["seats"][0] == {
        "running": False,
        "deadline": None,
        "free": 0.0,
        "bank": 260.0,
        "timeouts": 0,
        "covered": False,
        "away_until": None,
        "held": False,
        "asked": None,
        "nudged": {},
        "votes": [],
    }


def test_away_until_is_for_over_days_tables() -> None:
    days = model.set_away(started(DAYS, 2, {0}, planning=False), 1, T0 + 86400, T0)
    assert model.public(days, {0})["seats"][1]["away_until"] == T0 + 86400
    with pytest.raises(ClockError):
        model.set_away(started(LIVE, 2, {0}, planning=False), 1, T0 + 86400, T0)
    with pytest.raises(ClockError):
        model.set_away(days, 1, T0 - 1, T0)


def test_a_seat_asked_again_when_planning_ends_starts_a_new_decision() -> None:
    clock = started(LIVE, 2, {0}, planning=True)
    clock = model.cover(clock, 0)[0]
    # Seat 0's plan ends planning, and it is the first to act: a new (action) decision.
    clock = model.advance(
        clock,
        {0},
        {0},
        now=T0 + 70,
        planning=True,
        planning_after=False,
        actor=0,
        command="plan",
        by_bot_cover=True,
    )
    assert clock["seats"][0]["covered"] is False
    assert model.deadline(clock, 0) == T0 + 70 + 20 + 295


def test_a_copied_clock_shares_nothing_with_the_original() -> None:
    clock = model.new_clock(LIVE, 2)
    clock["seats"][0]["nudged"] = {"1": 5.0}
    clock["seats"][1]["stalled"] = {"since": 1.0, "until": 2.0, "count": 1}
    clock["paused"] = {"since": 3.0, "until": None}
    before = repr(clock)
    copy = model.copied(clock)
    assert copy == clock
    copy["config"]["bank"] = 1
    copy["seats"][0]["nudged"]["1"] = 9.0
    copy["seats"][1]["stalled"]["count"] = 2
    copy["seats"].append({})
    copy["paused"]["until"] = 4.0
    assert repr(clock) == before
