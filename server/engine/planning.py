"""Sealed planning, once for every game: everyone commits a private plan, in any order,
unless a seat asked to wait.

The planning record is plain data kept inside the game state (lists indexed by seat,
so it round-trips through JSON exactly)::

    {"order": [2, 0, 1],          # the order in which waiting seats take their turn
     "eligible": [True, True, False],
     "waiting": [False, True, False],
     "plans": [None, None, None],  # a seat's sealed plan once committed
     "committed_at": [None, None, None],
     "counter": 0}

The game decides ``order`` (Norenberc: reverse play order; Strasbourg: clockwise from
the starting player). A waiting seat may commit only once every eligible seat before
it in ``order`` has committed. The first eligible seat in ``order`` cannot wait.
A committed seat may take its plan back while planning is open and no waiting seat
has committed after it (that seat may have planned around it).

Every function returns a new record; none mutates its argument.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import RuleError

Planning = dict[str, Any]


def open_planning(
    seats: int, order: list[int], eligible: list[int], all_wait: bool = False
) -> Planning:
    """A new planning record. With ``all_wait`` (the table's ordered mode) every eligible
    seat but the first in ``order`` starts out waiting.

    >>> p = open_planning(3, [2, 1, 0], [0, 1, 2], all_wait=True)
    >>> awaiting(p)
    [2]
    """
    if sorted(order) != list(range(seats)):
        raise ValueError(f"order {order} is not a permutation of {seats} seats")
    eligible_flags = [seat in eligible for seat in range(seats)]
    record: Planning = {
        "order": list(order),
        "eligible": eligible_flags,
        "waiting": [False] * seats,
        "plans": [None] * seats,
        "committed_at": [None] * seats,
        "counter": 0,
    }
    if all_wait:
        for seat in order:
            if eligible_flags[seat] and _has_eligible_before(record, seat):
                record["waiting"][seat] = True
    return record


def _has_eligible_before(p: Planning, seat: int) -> bool:
    before = p["order"][: p["order"].index(seat)]
    return any(p["eligible"][s] for s in before)


def _all_before_committed(p: Planning, seat: int) -> bool:
    before = p["order"][: p["order"].index(seat)]
    return all(not p["eligible"][s] or p["committed_at"][s] is not None for s in before)


def has_committed(p: Planning, seat: int) -> bool:
    return p["committed_at"][seat] is not None


def may_commit(p: Planning, seat: int) -> bool:
    """True when ``seat`` may commit (or, for games with private steps, plan) right now."""
    if not p["eligible"][seat] or has_committed(p, seat):
        return False
    return not p["waiting"][seat] or _all_before_committed(p, seat)


def may_wait(p: Planning, seat: int) -> bool:
    """True when ``seat`` may ask to plan after the seats before it in ``order``."""
    return (
        p["eligible"][seat]
        and not has_committed(p, seat)
        and not p["waiting"][seat]
        and _has_eligible_before(p, seat)
    )


def may_retract(p: Planning, seat: int) -> bool:
    """True when ``seat`` may take its committed plan back."""
    at = p["committed_at"][seat]
    if at is None or is_complete(p):
        return False
    return not any(
        p["waiting"][s] and p["committed_at"][s] is not None and p["committed_at"][s] > at
        for s in range(len(p["eligible"]))
    )


def awaiting(p: Planning) -> list[int]:
    """Seats that may commit now, in ``order``."""
    return [s for s in p["order"] if may_commit(p, s)]


def pending(p: Planning) -> list[int]:
    """Eligible seats that have not committed yet (whether or not they may now)."""
    return [s for s in p["order"] if p["eligible"][s] and not has_committed(p, s)]


def is_complete(p: Planning) -> bool:
    """The one transition every game uses: every eligible seat has committed."""
    return not pending(p)


def _require_planning_turn(p: Planning, seat: int) -> None:
    if not 0 <= seat < len(p["eligible"]) or not p["eligible"][seat]:
        raise RuleError("not_your_turn", f"seat {seat} does not plan this turn")
    if has_committed(p, seat):
        raise RuleError("already_committed", f"seat {seat} has already committed a plan")


def commit(p: Planning, seat: int, plan: Any) -> Planning:
    """Seal ``plan`` for ``seat``. Raises RuleError if the seat may not commit now."""
    _require_planning_turn(p, seat)
    if not may_commit(p, seat):
        blockers = [s for s in pending(p) if p["order"].index(s) < p["order"].index(seat)]
        raise RuleError("must_wait", f"seat {seat} waits for seats {blockers} to commit first")
    q = copy.deepcopy(p)
    q["counter"] += 1
    q["plans"][seat] = plan
    q["committed_at"][seat] = q["counter"]
    return q


def wait(p: Planning, seat: int) -> Planning:
    """Mark ``seat`` as waiting. Raises RuleError('cannot_wait') when it may not."""
    _require_planning_turn(p, seat)
    if not may_wait(p, seat):
        reason = "already waits" if p["waiting"][seat] else "is first in planning order"
        raise RuleError("cannot_wait", f"seat {seat} cannot wait: it {reason}")
    q = copy.deepcopy(p)
    q["waiting"][seat] = True
    return q


def retract(p: Planning, seat: int) -> Planning:
    """Take back ``seat``'s committed plan. Raises RuleError('cannot_retract') when too late."""
    if not may_retract(p, seat):
        raise RuleError(
            "cannot_retract",
            f"seat {seat} has no plan it may take back (none committed, planning over, "
            "or a waiting seat has planned after it)",
        )
    q = copy.deepcopy(p)
    q["plans"][seat] = None
    q["committed_at"][seat] = None
    return q


def plan_of(p: Planning, seat: int) -> Any:
    """The sealed plan of ``seat`` (None if it has not committed). For the game's eyes only."""
    return p["plans"][seat]


def status_of(p: Planning, seat: int) -> str:
    """Public status: 'out', 'committed', 'waiting' or 'planning'."""
    if not p["eligible"][seat]:
        return "out"
    if has_committed(p, seat):
        return "committed"
    return "waiting" if p["waiting"][seat] else "planning"


def public_status(p: Planning) -> list[str]:
    """What every seat may know about planning: each seat's status, never a plan."""
    return [status_of(p, seat) for seat in range(len(p["eligible"]))]
