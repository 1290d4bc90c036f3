"""What the people at a table decide together, as pure functions of the clock (docs/clocks.md):
a pause by agreement, nudges, and the vote that hands a long-silent seat to a bot.

Like ``model``, nothing here reads a clock or does I/O: ``now`` is passed in, and so is
``people``, the seats a person plays now (the seat model decides who that is; a stand-in's
owner is not among them). The clock keeps::

    "proposal": {"id": 3, "by": 1, "until": 1800086400.0 | None, "at": t, "agreed": [1]},
    "proposals": 3,                                  # proposals made so far (the next id)
    "seats": [{…, "nudged": {"2": t},                # who nudged this seat last when
                  "votes": {"since": t, "by": [2]}}, # hand-over votes of its decision
              …]

A pause proposal needs every person at the table: any one of them proposes (agreeing by
proposing), each other agrees or declines, and one decline (or the proposer withdrawing)
ends it. Answers name the proposal's ``id``, so nobody agrees to a proposal other than the
one they saw. Votes to hand a seat to a bot belong to the seat's current decision: once
its player moves they count no more.
"""

from __future__ import annotations

from typing import Any

from .model import Clock, ClockError, copied, current_votes, is_timed, pause

MAX_PAUSE = 30 * 86400  # the furthest resume date a pause proposal may name, from now


def check_until(until: float | None, now: float) -> None:
    """A resume date: none, or in the future and at most MAX_PAUSE away ('bad_time')."""
    if until is not None and not now < until <= now + MAX_PAUSE:
        raise ClockError("bad_time", "a resume date must lie within the next 30 days")


def propose_pause(
    clock: Clock, seat: int, until: float | None, now: float, people: set[int]
) -> tuple[Clock, bool]:
    """``seat`` proposes a pause (resuming at ``until``, if given) and agrees to it.

    Returns (clock, paused): paused at once when ``seat`` is the only person at the table.
    Raises ClockError: 'paused', 'proposal_open' (answer that one first), 'bad_time'.
    """
    if clock["paused"] is not None:
        raise ClockError("paused", "the table is paused already")
    if clock.get("proposal"):
        raise ClockError("proposal_open", "a pause is proposed already: agree to it or decline")
    check_until(until, now)
    new = copied(clock)
    number = int(new.get("proposals", 0)) + 1
    new["proposals"] = number
    new["proposal"] = {"id": number, "by": seat, "until": until, "at": now, "agreed": [seat]}
    return _paused_if_agreed(new, now, people)


def agree_pause(
    clock: Clock, seat: int, proposal: int, now: float, people: set[int]
) -> tuple[Clock, bool]:
    """``seat`` agrees to proposal number ``proposal``; (clock, paused) as ``propose_pause``:
    the table pauses once every person at the table has agreed.

    Raises ClockError: 'no_proposal' (none open, or another one), 'bad_time' (its resume
    date has passed: propose again).
    """
    open_one = _open(clock, proposal)
    if open_one["until"] is not None and open_one["until"] <= now:
        raise ClockError("bad_time", "the proposed resume date has passed; propose another")
    new = copied(clock)
    agreed = new["proposal"]["agreed"]
    if seat not in agreed:
        new["proposal"]["agreed"] = sorted([*agreed, seat])
    return _paused_if_agreed(new, now, people)


def drop_proposal(clock: Clock, proposal: int) -> tuple[Clock, dict[str, Any]]:
    """Proposal ``proposal`` declined (or withdrawn): it ends. Returns (clock, the proposal).
    Raises ClockError('no_proposal')."""
    dropped = _open(clock, proposal)
    new = copied(clock)
    new["proposal"] = None
    return new, dict(dropped)


def _open(clock: Clock, proposal: int) -> dict[str, Any]:
    open_one: dict[str, Any] | None = clock.get("proposal")
    if not open_one or open_one["id"] != proposal:
        raise ClockError(
            "no_proposal", f"pause proposal {proposal} is not open (answer the one shown now)"
        )
    return open_one


def _paused_if_agreed(clock: Clock, now: float, people: set[int]) -> tuple[Clock, bool]:
    proposal = clock["proposal"]
    if not people <= set(proposal["agreed"]):
        return clock, False
    clock["proposal"] = None
    return pause(clock, now, proposal["until"]), True


# -------------------------------------------------------------------- untimed tables


def _asked(clock: Clock, target: int, by: int, people: set[int], after: float, now: float) -> None:
    """Refuse a nudge or vote by ``by`` for ``target`` unless ``target`` is another person's
    seat that has had to act for ``after`` seconds, on an untimed table, not paused."""
    if is_timed(clock):
        raise ClockError("timed", "this table has a turn clock: it moves silent seats on itself")
    if clock["paused"] is not None:
        raise ClockError("paused", "the table is paused")
    if target == by:
        raise ClockError("own_seat", "that is your own seat")
    since = clock["seats"][target]["since"]
    if target not in people or since is None:
        raise ClockError("not_to_act", f"seat {target} has no person who must act now")
    if now - since < after:
        wait = since + after - now
        raise ClockError("too_soon", f"seat {target} was asked only lately; {_span(wait)} to go")


def nudge(
    clock: Clock, target: int, by: int, now: float, people: set[int], after: float, every: float
) -> Clock:
    """``by`` nudges ``target``, a person who has had to act for ``after`` seconds; one
    person nudges one seat at most once every ``every`` seconds.

    Raises ClockError: 'timed', 'paused', 'own_seat', 'not_to_act', 'too_soon'.
    """
    _asked(clock, target, by, people, after, now)
    last = (clock["seats"][target].get("nudged") or {}).get(str(by))
    if last is not None and now - last < every:
        wait = last + every - now
        raise ClockError("too_soon", f"you nudged seat {target} lately; {_span(wait)} to go")
    new = copied(clock)
    entry = new["seats"][target]
    entry["nudged"] = {**(entry.get("nudged") or {}), str(by): now}
    return new


def vote_hand_over(
    clock: Clock, target: int, by: int, now: float, people: set[int], after: float
) -> tuple[Clock, bool]:
    """``by`` votes to hand ``target`` (silent for ``after`` seconds) to a bot.

    Returns (clock, hand_over): hand_over once more than half of the other people at the
    table have voted during this decision (with one or two others: all of them); the
    votes are then cleared. Raises ClockError: 'timed', 'paused', 'own_seat', 'not_to_act',
    'too_soon', 'already_voted'.
    """
    _asked(clock, target, by, people, after, now)
    entry = clock["seats"][target]
    votes = current_votes(entry)
    if by in votes:
        raise ClockError("already_voted", f"you voted for seat {target} already")
    voters = people - {target}
    votes = sorted([*votes, by])
    new = copied(clock)
    if len(set(votes) & voters) > len(voters) // 2:
        new["seats"][target]["votes"] = None
        return new, True
    new["seats"][target]["votes"] = {"since": entry["since"], "by": votes}
    return new, False


def _span(seconds: float) -> str:
    seconds = max(1, round(seconds))
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{-(-seconds // 60)} min" if seconds >= 60 else f"{seconds} s"
