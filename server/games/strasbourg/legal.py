"""The phase table: what each phase lets a seat send, what a legal command does, and who
acts. One truth for legality: the engine's shell (``server.engine.phases``) accepts exactly
the commands ``legal`` lists and explains anything else with a stable RuleError code
(docs/protocol.md lists them)."""

from __future__ import annotations

from typing import Any

from server.engine import Command, Event, RuleError
from server.engine.phases import Phase, legal_in, to_act_in

from .choices import apply_choice, legal_choice
from .flow import continue_choices
from .influence import apply_influence, legal_influence
from .planning import INFLUENCE, TASKS
from .state import State


def _apply_choice(state: State, seat: int, cmd: Command) -> list[Event]:
    return apply_choice(state, seat, cmd) + continue_choices(state)


def _cannot_afford(state: State, seat: int, cmd: Command, options: list[Command]) -> Any:
    """A build the seat may not make while it could decline or take a good instead: the
    space is not one it may pay for (S-B.5)."""
    if cmd["type"] == "build" and {"decline", "take_good"} & {c["type"] for c in options}:
        return RuleError(
            "cannot_afford",
            f"cannot build on {cmd.get('cell')!r}: not an empty space of this guild "
            "you can pay for",
        )
    return None


PHASES = {
    "tasks": TASKS.phase(),
    "planning": INFLUENCE.phase(),
    "influence": Phase(
        legal_influence, apply_influence, to_act=lambda state: {state["influence"]["queue"][0]}
    ),
    "choice": Phase(
        legal_choice,
        _apply_choice,
        explain=_cannot_afford,
        to_act=lambda state: {state["choices"][0]["seat"]},
    ),
}


def legal(state: State, seat: int) -> list[Command]:
    """Every command ``seat`` may send now; [] when it may not act or the game is over."""
    return legal_in(PHASES, state, seat)


def to_act(state: State) -> set[int]:
    """Seats the game waits for: planners now, the seat at the head of the influence queue,
    or the seat owing the next decision."""
    return to_act_in(PHASES, state)


def normalize(cmd: Command) -> Command:
    """The command with list arguments in canonical order (stack cards and kept tasks sorted)."""
    out = dict(cmd)
    for key in ("cards", "tasks"):
        if isinstance(out.get(key), list) and all(type(v) is int for v in out[key]):
            out[key] = sorted(out[key])
    return out
