"""Turn clocks as plain data: pure functions of the clock, the seats that must act, and *now*.

A table's clock is a JSON dict stored on the table row beside the game state, written in the
same transaction as every change, so it is as durable as the move that started it::

    {"config": {"mode": "live", "plan": 60, "action": 20, "bank": 300, "increment": 5,
                "per_decision": 86400},
     "seats": [{"since": 1700000000.0,   # when this seat's running span began (None: stopped)
                "free": 60.0,            # free time left of its decision, as of ``since``
                "bank": 300.0,           # bank left, as of ``since``
                "left": None,            # free time kept by a commit, for a retract
                "timeouts": 0,           # timeouts in a row (reset by the player's own move)
                "covered": False,        # a bot is playing this decision (its time ran out)
                "added": 0.0,            # (days, while stopped) added time, for its next span
                "stalled": None}, …],    # or {"since", "until", "count"}: no bot move taken
     "paused": None,                     # or {"since": t, "until": t | None}
     "downtime": None}                   # (live) the last downtime given back: when it began

Modes (``config["mode"]``):

- ``live``: each decision brings ``plan`` (planning) or ``action`` seconds of free time, spent
  first; then the seat's bank runs. Each new decision adds ``increment`` to the bank, never past
  its start (``bank``).
- ``days``: a fixed ``per_decision`` seconds per decision, nothing carried over.
- ``untimed``: no deadline; the clock only notes since when a seat has been asked to act (a
  bot seat plays once ``bot_delay`` has passed since then).

A *decision* starts when a seat enters ``to_act``. It ends when the seat leaves ``to_act``, and,
outside planning, also when the seat plays a command and is asked again (each action choice is
its own decision). In planning, steps that keep the seat planning are part of one decision.
A command that takes the game to a new stage (another phase, or a planning phase that ended
and opened again, as when every seat passed and the next round's planning began) ends the
decision of every seat it leaves asked: each starts a new one, with its own time.
A seat that takes its plan back (``retract``) resumes with the free time its commit kept.

Bot seats have no deadline: their "deadline" is ``since + bot_delay``, when they should move.
Nothing here reads a clock or does I/O: ``now`` (seconds since the epoch) is always passed in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypeGuard

Clock = dict[str, Any]

MODES = ("live", "days", "untimed")
DAYS_CHOICES = (12 * 3600, 24 * 3600, 2 * 86400, 3 * 86400, 5 * 86400, 7 * 86400)
DEFAULT_CONFIG: dict[str, Any] = {
    "mode": "untimed",
    "plan": 60,
    "action": 20,
    "bank": 300,
    "increment": 5,
    "per_decision": 86400,
}
# Bounds of the live settings, in seconds: a clock a table can actually be played with.
LIVE_BOUNDS = {"plan": (5, 3600), "action": (5, 3600), "bank": (0, 7200), "increment": (0, 600)}
# Bounds of the time the creator may add to a seat at once, in seconds.
MIN_ADDED, MAX_ADDED = 1.0, 7 * 86400.0
# Seconds the keeper leaves a seat alone whose bot move was refused (``stall``): the first
# time, and at most (the wait doubles each time in between).
STALL_FIRST, STALL_LONGEST = 60.0, 3600.0
# Timeouts in a row after which the seat is handed to a bot until its player takes it back.
HANDOVER_AFTER = {"live": 2, "days": 1, "untimed": 0}


class ClockError(ValueError):
    """A clock setting or act that is refused; ``code`` is the error code clients get."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_config(raw: dict[str, Any] | None) -> dict[str, Any]:
    """The full clock configuration for ``raw`` (missing keys from the defaults).

    Raises ClockError('bad_clock') for an unknown mode, unknown keys or out-of-range values.

    >>> check_config({"mode": "days", "per_decision": 43200})["per_decision"]
    43200
    """
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(DEFAULT_CONFIG))
    if unknown:
        raise ClockError("bad_clock", f"unknown clock settings {unknown}")
    config = {**DEFAULT_CONFIG, **raw}
    if config["mode"] not in MODES:
        raise ClockError("bad_clock", f"clock mode must be one of {MODES}, not {config['mode']!r}")
    for key, (low, high) in LIVE_BOUNDS.items():
        config[key] = _number(key, config[key], low, high)
    config["per_decision"] = int(_number("per_decision", config["per_decision"], 1, 7 * 86400))
    if config["per_decision"] not in DAYS_CHOICES:
        choices = ", ".join(f"{c // 3600} h" for c in DAYS_CHOICES)
        raise ClockError("bad_clock", f"per_decision must be one of {choices} (in seconds)")
    return config


def _is_number(value: Any) -> TypeGuard[float]:
    """A finite int or float (a bool is no number of seconds)."""
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _number(key: str, value: Any, low: float, high: float) -> float:
    if not _is_number(value):
        raise ClockError("bad_clock", f"clock setting {key} must be a number of seconds")
    if not low <= value <= high:
        raise ClockError("bad_clock", f"clock setting {key} must be within {low}-{high} seconds")
    return value


def copied(clock: Clock) -> Clock:
    """A copy of ``clock`` to change, sharing nothing with it.

    A clock is JSON (dicts, lists and scalars), so this walks just those: ``copy.deepcopy``
    does the same with a memo and a dispatch per value, four times the CPU, once per command.
    """
    copy: Clock = _json_copy(clock)
    return copy


def _json_copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _json_copy(item) for key, item in value.items()}
    if kind is list:
        return [_json_copy(item) for item in value]
    return value


def new_clock(config: dict[str, Any], seats: int) -> Clock:
    """A clock for a table about to start: nobody running, every bank full."""
    return {
        "config": dict(config),
        "seats": [
            {
                "since": None,
                "free": None,
                "bank": float(config["bank"]),
                "left": None,
                "timeouts": 0,
                "covered": False,
            }
            for _ in range(seats)
        ],
        "paused": None,
    }


def is_timed(clock: Clock) -> bool:
    return bool(clock["config"]["mode"] != "untimed")


def _allowance(config: dict[str, Any], planning: bool) -> float:
    if config["mode"] == "days":
        return float(config["per_decision"])
    if config["mode"] == "live":
        return float(config["plan"] if planning else config["action"])
    return 0.0


def _stop(seat: dict[str, Any], config: dict[str, Any], now: float) -> None:
    """Stop a running seat, spending its free time first, then its bank."""
    if seat["since"] is None:
        return
    used = max(0.0, now - seat["since"])
    free = seat["free"] or 0.0
    spent_free = min(free, used)
    seat["free"] = free - spent_free
    if config["mode"] == "live":
        seat["bank"] = max(0.0, seat["bank"] - (used - spent_free))
    seat["since"] = None


def _begin(seat: dict[str, Any], config: dict[str, Any], planning: bool, now: float) -> None:
    """Start a new decision: fresh free time (with any time added while the seat was not
    running), and (live) the bank's increment up to its cap."""
    seat["since"] = now
    seat["free"] = _allowance(config, planning) + seat.pop("added", 0.0)
    seat["left"] = None
    seat["covered"] = False
    if config["mode"] == "live":
        # The increment never lifts the bank past its start; time the creator gave stays.
        grown = min(float(config["bank"]), seat["bank"] + float(config["increment"]))
        seat["bank"] = max(seat["bank"], grown)


def advance(
    clock: Clock,
    before: Iterable[int],
    after: Iterable[int],
    *,
    now: float,
    planning: bool,
    planning_after: bool | None = None,
    actor: int | None = None,
    command: str | None = None,
    by_bot_cover: bool = False,
    turned: bool | None = None,
) -> Clock:
    """The clock after a change that took ``to_act`` from ``before`` to ``after``.

    ``planning`` tells whether the seats were planning before the change, ``planning_after``
    (default: the same) whether a decision that starts now is a planning one. ``actor``
    played ``command`` (a command type; None for a change that is no command, such as the
    start). ``by_bot_cover`` says the command was a bot's, played because the seat's time
    ran out; any other command of a seat resets its timeouts in a row. ``turned`` says the
    game reached a new stage (default: planning began or ended): every seat asked both before
    and after faces a new decision, so a seat whose pass ended the round gets the next
    round's full time, and a seat a bot covered plays its next decision itself.
    """
    config = clock["config"]
    starts_planning = planning if planning_after is None else planning_after
    if turned is None:
        turned = planning != starts_planning
    new = copied(clock)
    before_set, after_set = set(before), set(after)
    if new["paused"] is not None:
        # A change while paused (a seat handed over, a player taking it back) moves no time.
        return new
    for index, seat in enumerate(new["seats"]):
        acted = index == actor
        if acted and not by_bot_cover:
            seat["timeouts"] = 0
        if index in before_set and index not in after_set:
            _stop(seat, config, now)
            if acted and planning:
                seat["left"] = seat["free"]  # what a retract gives back
            seat["covered"] = False
        elif index in after_set and index not in before_set:
            if acted and command == "retract" and seat["left"] is not None:
                free = seat["left"] + seat.pop("added", 0.0)
                seat["since"], seat["free"], seat["left"] = now, free, None
            else:
                _begin(seat, config, starts_planning, now)
        elif index in after_set and ((acted and not planning) or turned):
            # An action choice made and another asked, or the game turned to a new stage
            # (planning ended, began, or ended and began again): a new decision, even for a
            # seat asked again straight away (``_begin`` also ends a bot's cover).
            _stop(seat, config, now)
            _begin(seat, config, starts_planning, now)
    return new


def deadline(clock: Clock, seat: int) -> float | None:
    """When ``seat``'s time runs out (None when it is not running or the table is untimed)."""
    entry = clock["seats"][seat]
    mode = clock["config"]["mode"]
    if entry["since"] is None or mode == "untimed" or clock["paused"] is not None:
        return None
    bank = entry["bank"] if mode == "live" else 0.0
    return float(entry["since"] + (entry["free"] or 0.0) + bank)


def remaining(clock: Clock, seat: int, now: float) -> dict[str, float]:
    """What ``seat`` has left at ``now``: free time of its decision and bank (seconds)."""
    entry = clock["seats"][seat]
    free, bank = entry["free"] or 0.0, entry["bank"]
    if entry["since"] is not None:
        paused = clock["paused"] is not None
        used = entry.get("elapsed", 0.0) if paused else max(0.0, now - entry["since"])
        spent_free = min(free, used)
        free -= spent_free
        if clock["config"]["mode"] == "live":
            bank = max(0.0, bank - (used - spent_free))
    if clock["config"]["mode"] != "live":
        bank = 0.0
    return {"free": free, "bank": bank}


def due_at(
    clock: Clock, people_to_act: Iterable[int], bots_to_act: Iterable[int], bot_delay: float
) -> float | None:
    """The first moment something must happen at the table: a bot's move, a covered seat's
    next bot move, or a person's deadline. None when nothing is waited for by the clock."""
    if clock["paused"] is not None:
        until = clock["paused"].get("until")
        return float(until) if until is not None else None
    times: list[float] = []
    for seat in bots_to_act:
        since = clock["seats"][seat]["since"]
        if since is not None:
            times.append(_after_stall(clock["seats"][seat], since + bot_delay))
    for seat in people_to_act:
        entry = clock["seats"][seat]
        if entry["covered"] and entry["since"] is not None:
            times.append(_after_stall(entry, entry["since"]))
            continue
        end = deadline(clock, seat)
        if end is not None:
            times.append(_after_stall(entry, end))
    return min(times) if times else None


def timed_out(clock: Clock, people_to_act: Iterable[int], now: float) -> list[int]:
    """People whose time has run out at ``now`` (or whose decision a bot is already playing)."""
    out = []
    for seat in people_to_act:
        entry = clock["seats"][seat]
        end = deadline(clock, seat)
        if entry["covered"] or (end is not None and end <= now):
            out.append(seat)
    return out


def _current_stall(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The stall of ``entry``'s current decision (a stall of an earlier one counts no more)."""
    stalled = entry.get("stalled")
    if not stalled or entry["since"] is None or stalled["since"] != entry["since"]:
        return None
    return dict(stalled)


def _after_stall(entry: dict[str, Any], moment: float) -> float:
    stalled = _current_stall(entry)
    return moment if stalled is None else max(moment, float(stalled["until"]))


def is_stalled(clock: Clock, seat: int, now: float) -> bool:
    """Whether the keeper leaves ``seat`` alone at ``now`` (``stall``)."""
    stalled = _current_stall(clock["seats"][seat])
    return stalled is not None and stalled["until"] > now


def stall(clock: Clock, seat: int, now: float) -> Clock:
    """The clock once no bot command for ``seat``'s current decision was accepted (a game that
    lists no command, or refuses the one it lists): the seat is left alone for
    ``STALL_FIRST`` seconds, twice as long each time again up to ``STALL_LONGEST``, so that
    the table is not due at every sweep; the seat's next decision ends the stall.

    >>> clock = advance(new_clock(DEFAULT_CONFIG, 2), set(), {1}, now=100.0, planning=False)
    >>> clock = stall(stall(clock, 1, now=100.0), 1, now=160.0)
    >>> clock["seats"][1]["stalled"]["until"], is_stalled(clock, 1, 279.0)
    (280.0, True)
    """
    new = copied(clock)
    entry = new["seats"][seat]
    before = _current_stall(entry)
    count = 1 if before is None else int(before["count"]) + 1
    wait = min(STALL_LONGEST, STALL_FIRST * 2 ** (count - 1))
    entry["stalled"] = {"since": entry["since"], "until": now + wait, "count": count}
    return new


def cover(clock: Clock, seat: int) -> tuple[Clock, bool, bool]:
    """The clock once a bot takes over ``seat``'s decision because its time ran out.

    Returns (clock, newly, hand_over): ``newly`` is False when a bot was already playing this
    decision (one timeout per decision, logged once); ``hand_over`` is True when this timeout
    makes enough in a row that the seat goes to a bot until its player takes it back.
    """
    new = copied(clock)
    entry = new["seats"][seat]
    if entry["covered"]:
        return new, False, False
    entry["covered"] = True
    entry["timeouts"] += 1
    limit = HANDOVER_AFTER[new["config"]["mode"]]
    return new, True, bool(limit) and entry["timeouts"] >= limit


def add_time(clock: Clock, seat: int, seconds: float, now: float) -> Clock:
    """``seconds`` more for ``seat``: on its bank (live; the cap does not apply to a gift) or,
    over days, on its running decision; a seat not running keeps them in ``added`` for its
    next running span (its next decision, or the one a retract takes up again), which its
    fresh allowance would otherwise replace.

    Raises ClockError: 'untimed' on an untimed table, 'bad_time' outside 1 s to 7 days.
    """
    if not is_timed(clock):
        raise ClockError("untimed", "this table has no clock")
    if not _is_number(seconds) or not MIN_ADDED <= seconds <= MAX_ADDED:
        raise ClockError(
            "bad_time", f"add between 1 second and 7 days ({MAX_ADDED:.0f} s), not {seconds!r}"
        )
    new = copied(clock)
    entry = new["seats"][seat]
    if new["config"]["mode"] == "live":
        entry["bank"] += seconds
    elif entry["since"] is not None:
        entry["free"] = (entry["free"] or 0.0) + seconds
    else:
        entry["added"] = entry.get("added", 0.0) + seconds
    entry["covered"] = False if entry["since"] is not None else entry["covered"]
    return new


def taken_back(clock: Clock, seat: int, now: float) -> Clock:
    """The clock once ``seat``'s player takes it back from a bot: no timeouts in a row; a
    decision the bot had not played yet starts afresh for the player."""
    new = copied(clock)
    entry = new["seats"][seat]
    entry["timeouts"] = 0
    entry["covered"] = False
    if entry["since"] is not None and new["paused"] is None:
        planning_free = entry["free"] if entry["free"] is not None else 0.0
        entry["since"] = now
        entry["free"] = max(planning_free, float(new["config"]["action"]))
        if new["config"]["mode"] == "days":
            entry["free"] = float(new["config"]["per_decision"])
    return new


def shift(clock: Clock, seconds: float, now: float, grace: float, began: float) -> Clock:
    """A live clock with ``seconds`` of downtime given back to every running seat, and at least
    ``grace`` seconds left for each (the server was down: that time was nobody's).

    ``began`` names the downtime (the last beat before it): a clock that was given it back
    already comes back unchanged, so two processes starting after one downtime extend once.
    """
    new = copied(clock)
    if new["config"]["mode"] != "live" or new["paused"] is not None:
        return new
    if new.get("downtime") == began:
        return new
    for entry in new["seats"]:
        if entry["since"] is None:
            continue
        new["downtime"] = began
        entry["since"] += seconds
        end = entry["since"] + (entry["free"] or 0.0) + entry["bank"]
        if end < now + grace:
            entry["since"] += now + grace - end
    return new


def pause(clock: Clock, now: float, until: float | None) -> Clock:
    """Every running seat stopped exactly where it is; ``until`` is the resume date, if any.

    While paused no deadline runs (``deadline`` is None) and the table is due only at
    ``until`` (``due_at``), when the keeper resumes it.
    """
    if clock["paused"] is not None:
        raise ClockError("paused", "the table is already paused")
    new = copied(clock)
    for entry in new["seats"]:
        if entry["since"] is not None:
            entry["elapsed"] = max(0.0, now - entry["since"])
    new["paused"] = {"since": now, "until": until}
    return new


def resume(clock: Clock, now: float) -> Clock:
    """Clocks running again from ``now`` with exactly the time they had at the pause."""
    if clock["paused"] is None:
        raise ClockError("not_paused", "the table is not paused")
    new = copied(clock)
    for entry in new["seats"]:
        if entry["since"] is not None:
            entry["since"] = now - entry.pop("elapsed", 0.0)
    new["paused"] = None
    return new


def set_away(clock: Clock, seat: int, until: float | None, now: float) -> Clock:
    """``seat`` will be away until ``until`` (None: back now); over-days tables only."""
    if clock["config"]["mode"] != "days":
        raise ClockError("not_days", "'away until' is for tables played over days")
    if until is not None and not now < until <= now + 60 * 86400:
        raise ClockError("bad_time", "away until a time within the next 60 days")
    new = copied(clock)
    new["seats"][seat]["away_until"] = until
    return new


def current_votes(entry: dict[str, Any]) -> list[int]:
    """Seats that voted to hand ``entry``'s seat to a bot during its current decision (votes
    of an earlier decision count no more: the player has moved since)."""
    votes = entry.get("votes")
    if not votes or entry["since"] is None or votes["since"] != entry["since"]:
        return []
    return list(votes["by"])


def public(clock: Clock, people: set[int]) -> dict[str, Any]:
    """What anyone at the table may see: mode, settings, and per seat its deadline (absolute,
    seconds since the epoch, the server's), whether it runs, its free time and bank (as of the
    start of a running span: the deadline already counts them; while paused, what it keeps),
    timeouts in a row, "away until", nudges and votes (``server.clocks.votes``), and the
    open pause proposal.

    Nothing here depends on the time of building, so every process builds the same document;
    the page learns the server's time from the table summary's ``server_time``."""
    seats = []
    untimed = not is_timed(clock)
    for index, entry in enumerate(clock["seats"]):
        running = entry["since"] is not None and index in people and clock["paused"] is None
        # Paused: the seat ran when the table paused; ``free`` and ``bank`` are what it keeps.
        held = entry["since"] is not None and index in people and clock["paused"] is not None
        left = remaining(clock, index, entry["since"] if entry["since"] is not None else 0.0)
        seats.append(
            {
                "running": running,
                "held": held,
                "deadline": deadline(clock, index) if running else None,
                "free": round(left["free"], 3),
                "bank": round(left["bank"], 3),
                "timeouts": entry["timeouts"],
                "covered": entry["covered"],
                "away_until": entry.get("away_until"),
                # Untimed tables: since when the seat has been asked (nudges and votes count
                # from it), who nudged it last when, and who voted to hand it to a bot.
                "asked": entry["since"] if untimed and running else None,
                "nudged": dict(entry.get("nudged") or {}),
                "votes": current_votes(entry),
            }
        )
    proposal = clock.get("proposal")
    return {
        "mode": clock["config"]["mode"],
        "config": dict(clock["config"]),
        "paused": dict(clock["paused"]) if clock["paused"] is not None else None,
        "proposal": dict(proposal) if proposal else None,
        "seats": seats,
    }
