"""What the people at a table decide together, on the pure clock with an injected time: a
pause by agreement (every remaining time kept exactly), "away until", nudges and the vote
that hands a silent seat to a bot."""

from __future__ import annotations

import pytest

from server.clocks import model, votes
from server.clocks.model import ClockError

LIVE = model.check_config({"mode": "live", "plan": 60, "action": 20, "bank": 300, "increment": 5})
DAYS = model.check_config({"mode": "days", "per_decision": 86400})
UNTIMED = model.check_config({})
T0 = 1_000_000.0
DAY = 86400.0


def started(config: dict[str, object], seats: int, to_act: set[int], planning: bool) -> model.Clock:
    clock = model.new_clock(config, seats)
    return model.advance(clock, set(), to_act, now=T0, planning=planning)


def code(exc: pytest.ExceptionInfo[ClockError]) -> str:
    return exc.value.code


def test_a_pause_needs_every_person_and_keeps_every_remaining_time_exactly() -> None:
    clock = started(LIVE, 3, {0, 1, 2}, planning=True)
    clock = model.advance(clock, {0, 1, 2}, {1, 2}, now=T0 + 10, planning=True, actor=0)
    people = {0, 1, 2}
    at = T0 + 75.25  # seat 1 and 2 have run 75.25 s: 15.25 s of their bank spent
    before = {seat: model.remaining(clock, seat, at) for seat in range(3)}
    clock, paused = votes.propose_pause(clock, 1, None, at, people)
    assert not paused and clock["proposal"]["agreed"] == [1] and clock["proposal"]["id"] == 1
    clock, paused = votes.agree_pause(clock, 0, 1, at, people)
    assert not paused and model.deadline(clock, 1) is not None  # still running: not everyone
    clock, paused = votes.agree_pause(clock, 2, 1, at, people)
    assert paused and clock["proposal"] is None and clock["paused"] == {"since": at, "until": None}
    # Nobody's time runs: thirty days later, every seat has exactly what it had.
    for seat in range(3):
        assert model.deadline(clock, seat) is None
        assert model.remaining(clock, seat, at + 30 * DAY) == before[seat]
    assert model.due_at(clock, [1, 2], [], 0.6) is None  # no resume date: nothing is due
    back = model.resume(clock, at + 30 * DAY)
    for seat in range(3):
        assert model.remaining(back, seat, at + 30 * DAY) == before[seat]
    left = before[1]["free"] + before[1]["bank"]
    assert model.deadline(back, 1) == pytest.approx(at + 30 * DAY + left)
    assert model.deadline(back, 0) is None  # seat 0 had committed: it stays stopped


def test_a_pause_with_a_resume_date_is_due_at_that_date() -> None:
    clock = started(DAYS, 2, {0}, planning=False)
    until = T0 + 3 * DAY
    clock, paused = votes.propose_pause(clock, 0, until, T0 + 100, {0, 1})
    assert not paused
    clock, paused = votes.agree_pause(clock, 1, 1, T0 + 200, {0, 1})
    assert paused and model.due_at(clock, [0], [], 0.6) == until
    assert model.timed_out(clock, [0], until + DAY) == []  # no deadline while paused
    back = model.resume(clock, until)
    # Seat 0 had used 200 s of its day at the pause; it has the rest from the resume.
    assert model.deadline(back, 0) == pytest.approx(until + DAY - 200)


def test_the_only_person_at_a_table_pauses_at_once() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    clock, paused = votes.propose_pause(clock, 0, T0 + 60, T0, {0})  # seat 1 is a bot
    assert paused and clock["paused"]["until"] == T0 + 60


def test_pause_proposals_refused() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    with pytest.raises(ClockError) as past:
        votes.propose_pause(clock, 0, T0 - 1, T0, {0, 1})
    assert code(past) == "bad_time"
    with pytest.raises(ClockError) as far:
        votes.propose_pause(clock, 0, T0 + 31 * DAY, T0, {0, 1})
    assert code(far) == "bad_time"
    with pytest.raises(ClockError) as nan:
        votes.propose_pause(clock, 0, float("nan"), T0, {0, 1})
    assert code(nan) == "bad_time"
    proposed, _ = votes.propose_pause(clock, 0, T0 + 3600, T0, {0, 1})
    with pytest.raises(ClockError) as second:
        votes.propose_pause(proposed, 1, None, T0, {0, 1})
    assert code(second) == "proposal_open"
    with pytest.raises(ClockError) as other:
        votes.agree_pause(proposed, 1, 2, T0, {0, 1})  # not the proposal that is open
    assert code(other) == "no_proposal"
    with pytest.raises(ClockError) as late:
        votes.agree_pause(proposed, 1, 1, T0 + 3600, {0, 1})  # its resume date has come
    assert code(late) == "bad_time"
    paused = model.pause(clock, T0, None)
    with pytest.raises(ClockError) as again:
        votes.propose_pause(paused, 0, None, T0, {0, 1})
    assert code(again) == "paused"


def test_a_decline_or_withdrawal_ends_the_proposal_and_a_new_one_gets_a_new_id() -> None:
    clock = started(LIVE, 2, {0, 1}, planning=True)
    clock, _ = votes.propose_pause(clock, 0, None, T0, {0, 1})
    clock, dropped = votes.drop_proposal(clock, 1)
    assert clock["proposal"] is None and dropped["by"] == 0
    with pytest.raises(ClockError) as gone:
        votes.agree_pause(clock, 1, 1, T0, {0, 1})
    assert code(gone) == "no_proposal"
    clock, _ = votes.propose_pause(clock, 1, None, T0, {0, 1})
    assert clock["proposal"]["id"] == 2
    with pytest.raises(ClockError):
        votes.drop_proposal(clock, 1)


def test_away_until_shows_and_does_not_stop_the_clock() -> None:
    clock = started(DAYS, 2, {0}, planning=False)
    away = model.set_away(clock, 0, T0 + 10 * DAY, T0 + 5)
    assert model.public(away, {0, 1})["seats"][0]["away_until"] == T0 + 10 * DAY
    assert model.deadline(away, 0) == model.deadline(clock, 0)  # the day still runs
    back = model.set_away(away, 0, None, T0 + 6)
    assert model.public(back, {0, 1})["seats"][0]["away_until"] is None
    with pytest.raises(ClockError) as far:
        model.set_away(clock, 0, T0 + 61 * DAY, T0)
    assert code(far) == "bad_time"
    with pytest.raises(ClockError) as live:
        model.set_away(started(LIVE, 2, {0}, planning=False), 0, T0 + DAY, T0)
    assert code(live) == "not_days"


def test_a_nudge_waits_for_a_silent_seat_and_comes_once_an_hour_per_person() -> None:
    clock = started(UNTIMED, 3, {1}, planning=False)
    people = {0, 1, 2}
    with pytest.raises(ClockError) as soon:
        votes.nudge(clock, 1, 0, T0 + 899, people, after=900, every=3600)
    assert code(soon) == "too_soon" and "1 s to go" in str(soon.value)
    clock = votes.nudge(clock, 1, 0, T0 + 900, people, after=900, every=3600)
    assert model.public(clock, people)["seats"][1]["nudged"] == {"0": T0 + 900}
    with pytest.raises(ClockError) as again:
        votes.nudge(clock, 1, 0, T0 + 900 + 3599, people, after=900, every=3600)
    assert code(again) == "too_soon"
    clock = votes.nudge(clock, 1, 2, T0 + 901, people, after=900, every=3600)  # another person
    clock = votes.nudge(clock, 1, 0, T0 + 4500, people, after=900, every=3600)
    assert model.public(clock, people)["seats"][1]["nudged"] == {"0": T0 + 4500, "2": T0 + 901}
    for target, by, fault in ((1, 1, "own_seat"), (0, 1, "not_to_act")):
        with pytest.raises(ClockError) as refused:
            votes.nudge(clock, target, by, T0 + 9999, people, after=900, every=3600)
        assert code(refused) == fault
    with pytest.raises(ClockError) as bot:
        votes.nudge(clock, 1, 0, T0 + 9999, {0, 2}, after=900, every=3600)  # a bot plays seat 1
    assert code(bot) == "not_to_act"
    with pytest.raises(ClockError) as timed:
        votes.nudge(started(DAYS, 2, {1}, False), 1, 0, T0 + DAY, {0, 1}, 900, 3600)
    assert code(timed) == "timed"


def test_the_vote_hands_a_seat_over_with_a_majority_of_the_others() -> None:
    clock = started(UNTIMED, 4, {1}, planning=False)
    people = {0, 1, 2, 3}  # three others: two votes are a majority
    with pytest.raises(ClockError) as soon:
        votes.vote_hand_over(clock, 1, 0, T0 + DAY - 1, people, after=DAY)
    assert code(soon) == "too_soon"
    clock, handed = votes.vote_hand_over(clock, 1, 0, T0 + DAY, people, after=DAY)
    assert not handed and model.public(clock, people)["seats"][1]["votes"] == [0]
    with pytest.raises(ClockError) as twice:
        votes.vote_hand_over(clock, 1, 0, T0 + DAY, people, after=DAY)
    assert code(twice) == "already_voted"
    voted, handed = votes.vote_hand_over(clock, 1, 3, T0 + DAY + 5, people, after=DAY)
    assert handed and voted["seats"][1]["votes"] is None
    # The player moved and is asked again: the earlier votes count no more.
    moved = model.advance(clock, {1}, {2}, now=T0 + DAY + 1, planning=False, actor=1, command="x")
    moved = model.advance(moved, {2}, {1}, now=T0 + DAY + 2, planning=False, actor=2, command="x")
    assert model.public(moved, people)["seats"][1]["votes"] == []


def test_with_one_or_two_others_the_vote_needs_all_of_them() -> None:
    two = started(UNTIMED, 2, {1}, planning=False)
    assert votes.vote_hand_over(two, 1, 0, T0 + DAY, {0, 1}, after=DAY)[1] is True
    three = started(UNTIMED, 3, {1}, planning=False)
    clock, handed = votes.vote_hand_over(three, 1, 0, T0 + DAY, {0, 1, 2}, after=DAY)
    assert not handed
    assert votes.vote_hand_over(clock, 1, 2, T0 + DAY, {0, 1, 2}, after=DAY)[1] is True
