"""One truth for legality: ``legal`` lists every command; ``check`` accepts exactly those
and explains anything else with a stable RuleError code."""

from __future__ import annotations

from typing import Any

from server.engine import Command, RuleError
from server.engine import planning as pl

from .choices import legal_choice
from .influence import legal_influence
from .planning import legal_planning, legal_tasks
from .state import State

_BY_PHASE = {
    "tasks": legal_tasks,
    "planning": legal_planning,
    "influence": legal_influence,
    "choice": legal_choice,
}


def legal(state: State, seat: int) -> list[Command]:
    """Every command ``seat`` may send now; [] when it may not act or the game is over."""
    if not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        return []
    handler = _BY_PHASE.get(state["phase"])
    return handler(state, seat) if handler else []


def normalize(cmd: Any) -> Command:
    """The command with list arguments in canonical order (stack cards and kept tasks sorted).
    Raises RuleError('bad_command') for anything that is not a dict with a string type."""
    if not isinstance(cmd, dict) or not isinstance(cmd.get("type"), str):
        raise RuleError("bad_command", f"a command is a JSON object with a 'type', got {cmd!r}")
    out = dict(cmd)
    for key in ("cards", "tasks"):
        if isinstance(out.get(key), list) and all(type(v) is int for v in out[key]):
            out[key] = sorted(out[key])
    return out


def check(state: State, seat: int, cmd: Any) -> Command:
    """The normalized command if ``seat`` may play it now; else RuleError with a stable code:
    game_over, bad_command, not_your_turn, must_wait, already_committed,
    unexpected_command, cannot_afford, not_allowed (docs/protocol.md lists them)."""
    if state["phase"] == "over":
        raise RuleError("game_over", "the game is over; no more commands are accepted")
    if not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        raise RuleError(
            "not_your_turn", f"seat {seat!r} is not at this table (0-{state['seats'] - 1})"
        )
    norm = normalize(cmd)
    options = legal(state, seat)
    if norm in options:
        return norm
    if not options:
        raise _not_your_turn(state, seat)
    types = sorted({c["type"] for c in options})
    if norm["type"] == "build" and {"decline", "take_good"} & set(types):
        raise RuleError(
            "cannot_afford",
            f"cannot build on {norm.get('cell')!r}: not an empty space of this guild "
            "you can pay for",
        )
    if norm["type"] not in types:
        raise RuleError(
            "unexpected_command", f"{norm['type']!r} is not possible now; possible: {types}"
        )
    same = [c for c in options if c["type"] == norm["type"]]
    raise RuleError("not_allowed", f"{norm!r} is not allowed; allowed: {same[:20]}")


def _not_your_turn(state: State, seat: int) -> RuleError:
    p = state.get("planning")
    if state["phase"] in ("tasks", "planning") and p is not None:
        if pl.has_committed(p, seat):
            return RuleError("already_committed", f"seat {seat} has already sealed its choice")
        if p["eligible"][seat] and not pl.may_commit(p, seat):
            return RuleError("must_wait", f"seat {seat} waits for the seats before it to plan")
    return RuleError("not_your_turn", f"seat {seat} has nothing to decide now")
