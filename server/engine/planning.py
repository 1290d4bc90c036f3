"""Sealed planning, once for every game: everyone commits a private plan at once, until
one seat asks to wait; from then on the phase is *ordered*.

The planning record is plain data kept inside the game state (lists indexed by seat,
so it round-trips through JSON exactly)::

    {"order": [2, 0, 1],          # the order of an ordered phase (the game decides it)
     "eligible": [True, True, False],
     "ordered": False,            # True once a seat waited (or from the start: "ordered" tables)
     "waited_by": None,           # the seat whose request switched the phase, if any
     "plans": [None, None, None],  # a seat's sealed plan once committed
     "committed_at": [None, None, None],
     "counter": 0}

The game decides ``order`` (Norenberc: reverse play order; Strasbourg: clockwise from
the starting player). The rules both games share (docs/rules/norenberc.md N-4.5 … N-4.8,
docs/rules/strasbourg.md S-4.6):

- Simultaneous phase: every eligible seat may commit; a committed plan may be taken back
  while the phase is open, at most ``MAX_RETRACTS`` times by one seat in one phase (each
  take-back, and the plan before it, is a line of every seat's log: without a bound one
  player could make the table's document grow for as long as the phase lasts).
- One wait switches the *whole* phase to ordered: every plan committed so far is final
  (nobody may take one back any more), and the seats that have not committed commit one
  at a time, in ``order``; each sees the public part of the plans before it.
- The first eligible seat in ``order`` cannot ask to wait (it would plan first anyway),
  nor can a seat that has committed, nor anyone once the phase is ordered.
- An ordered table opens every phase already ordered.

Every function returns a new record; none mutates its argument.
"""

from __future__ import annotations

from typing import Any

from .errors import RuleError
from .game import Event, event
from .state import clone

Planning = dict[str, Any]

# The planning events every game logs under the same names (params: {"seat": s}).
WAITED = "PlanningWaited"
RETRACTED = "PlanRetracted"
PLANNING_ENDED = "PlanningEnded"

# How often one seat may take its plan back in one phase ("retracts" in the record, per seat,
# kept from the first take-back on: a record without it has none yet).
MAX_RETRACTS = 3

# The table option every game with sealed planning takes (``options["planning"]``).
PLANNING_MODES = ("simultaneous", "ordered")


def check_planning_option(value: Any) -> str:
    """``value`` if it is a planning mode; RuleError('bad_option') naming the valid ones.

    >>> check_planning_option("ordered")
    'ordered'
    """
    if value not in PLANNING_MODES:
        raise RuleError(
            "bad_option", f"planning must be one of {', '.join(PLANNING_MODES)}, not {value!r}"
        )
    mode: str = value
    return mode


def open_planning(
    seats: int, order: list[int], eligible: list[int], ordered: bool = False
) -> Planning:
    """A new planning record; ``ordered`` (the table's ordered mode) starts it ordered.

    >>> p = open_planning(3, [2, 1, 0], [0, 1, 2], ordered=True)
    >>> awaiting(p)
    [2]
    """
    if sorted(order) != list(range(seats)):
        raise ValueError(f"order {order} is not a permutation of {seats} seats")
    return {
        "order": list(order),
        "eligible": [seat in eligible for seat in range(seats)],
        "ordered": bool(ordered),
        "waited_by": None,
        "plans": [None] * seats,
        "committed_at": [None] * seats,
        "counter": 0,
    }


def is_ordered(p: Planning) -> bool:
    """True once the phase plans one seat at a time (a seat waited, or an ordered table).

    Records written before the phase-wide rule kept a per-seat ``waiting`` list; any
    waiting seat there means the phase is ordered now.
    """
    if "ordered" in p:
        return bool(p["ordered"])
    return any(p.get("waiting", ()))


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
    return not is_ordered(p) or _all_before_committed(p, seat)


def may_wait(p: Planning, seat: int) -> bool:
    """True when ``seat`` may switch the phase to ordered planning."""
    return (
        not is_ordered(p)
        and p["eligible"][seat]
        and not has_committed(p, seat)
        and _has_eligible_before(p, seat)
    )


def retracts(p: Planning, seat: int) -> int:
    """How often ``seat`` has taken its plan back in this phase."""
    counts = p.get("retracts")
    return int(counts[seat]) if counts else 0


def may_retract(p: Planning, seat: int) -> bool:
    """True when ``seat`` may take its committed plan back: only in a simultaneous phase, and
    fewer than ``MAX_RETRACTS`` times in it."""
    return (
        has_committed(p, seat)
        and not is_ordered(p)
        and not is_complete(p)
        and retracts(p, seat) < MAX_RETRACTS
    )


def awaiting(p: Planning) -> list[int]:
    """Seats that may commit now, in ``order`` (at most one in an ordered phase)."""
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


def check_may_plan(p: Planning, seat: int) -> None:
    """RuleError unless ``seat`` may take a planning step now: 'not_your_turn' (it does not
    plan), 'already_committed', or 'must_wait' (an ordered phase and not its turn yet)."""
    _require_planning_turn(p, seat)
    if not may_commit(p, seat):
        blockers = [s for s in pending(p) if p["order"].index(s) < p["order"].index(seat)]
        raise RuleError("must_wait", f"seat {seat} plans after seats {blockers}")


def commit(p: Planning, seat: int, plan: Any) -> Planning:
    """Seal ``plan`` for ``seat``. Raises RuleError if the seat may not commit now."""
    check_may_plan(p, seat)
    q = clone(p)
    q["counter"] += 1
    q["plans"][seat] = plan
    q["committed_at"][seat] = q["counter"]
    return q


def wait(p: Planning, seat: int) -> Planning:
    """``seat`` asks to wait: the phase becomes ordered. RuleError('cannot_wait') if it may not."""
    _require_planning_turn(p, seat)
    if not may_wait(p, seat):
        if is_ordered(p):
            reason = "planning is already one seat at a time"
        else:
            reason = "it plans first in this order anyway"
        raise RuleError("cannot_wait", f"seat {seat} cannot wait: {reason}")
    q = clone(p)
    q.pop("waiting", None)
    q["ordered"] = True
    q["waited_by"] = seat
    return q


def retract(p: Planning, seat: int) -> Planning:
    """Take back ``seat``'s committed plan. Raises RuleError('cannot_retract') when too late."""
    if not may_retract(p, seat):
        raise RuleError(
            "cannot_retract",
            f"seat {seat} has no plan it may take back (none committed, planning over, "
            "a seat asked to wait, which makes every plan final, or taken back "
            f"{MAX_RETRACTS} times in this phase already)",
        )
    q = clone(p)
    q["plans"][seat] = None
    q["committed_at"][seat] = None
    counts = list(p.get("retracts") or [0] * len(p["eligible"]))
    counts[seat] += 1
    q["retracts"] = counts
    return q


def plan_of(p: Planning, seat: int) -> Any:
    """The sealed plan of ``seat`` (None if it has not committed). For the game's eyes only."""
    return p["plans"][seat]


def status_of(p: Planning, seat: int) -> str:
    """Public status: 'out', 'committed', 'waiting' (its turn has not come) or 'planning'."""
    if not p["eligible"][seat]:
        return "out"
    if has_committed(p, seat):
        return "committed"
    return "planning" if may_commit(p, seat) else "waiting"


def public_status(p: Planning) -> list[str]:
    """What every seat may know about planning: each seat's status, never a plan."""
    return [status_of(p, seat) for seat in range(len(p["eligible"]))]


def public_view(p: Planning) -> dict[str, Any]:
    """The planning facts every seat may know (views put this under ``"planning"``)."""
    return {
        "order": list(p["order"]),
        "ordered": is_ordered(p),
        "waited_by": p.get("waited_by"),
        "status": public_status(p),
        "awaiting": sorted(awaiting(p)),
    }


def waited_event(seat: int, order_words: str) -> Event:
    """The public log entry of ``seat`` asking to wait; ``order_words`` names the game's
    order ("in reverse play order")."""
    text = (
        f"{{s{seat}}} asked to wait: plans made so far are final, and whoever has not "
        f"planned plans one at a time, {order_words}"
    )
    return event(WAITED, text, params={"seat": seat})


def retracted_event(seat: int) -> Event:
    """The public log entry of ``seat`` taking its plan back (what it was stays sealed)."""
    return event(RETRACTED, f"{{s{seat}}} took back their plan", params={"seat": seat})
