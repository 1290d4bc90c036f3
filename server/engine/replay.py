"""Replaying a game from its record, once for every user: ``guildhall verify``, the replay
route of finished tables, the test harness and the play-outs.

A record is what re-derives a game exactly: ``seats``, ``seed``, ``options`` and the
``commands`` in order, each ``{"seat": s, "cmd": {...}}`` (as stored; a finished table's
record may add who made it, ``by``, which replaying has no use for) or a ``(seat, cmd)`` pair
(as tests keep them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from .errors import RuleError
from .game import Command, Event, Game, State, opening


class Step(NamedTuple):
    """One state of a replay: ``number`` commands applied (0: the fresh game), the command
    that led here (None at 0) and the events it produced (at 0: the opening's)."""

    number: int
    seat: int | None
    cmd: Command | None
    state: State
    events: list[Event]


def _entry(entry: Any) -> tuple[int, Command]:
    if isinstance(entry, Mapping):
        return entry["seat"], entry["cmd"]
    seat, cmd = entry
    return seat, cmd


def replay(game: Game, record: Mapping[str, Any]) -> Iterator[Step]:
    """Every state of the recorded game, the fresh one first (with the events of the game's
    opening, when it has any: ``server.engine.opening``).

    A command the engine refuses raises RuleError with its code and the step number in the
    message, so a tampered or outdated record says where it went wrong.
    """
    state, opened = opening(game, record["seats"], record["seed"], record["options"])
    yield Step(0, None, None, state, opened)
    commands: Sequence[Any] = record["commands"]
    for index, entry in enumerate(commands, start=1):
        seat, cmd = _entry(entry)
        try:
            state, events = game.apply(state, seat, cmd)
        except RuleError as exc:
            raise RuleError(exc.code, f"command {index} is illegal on replay: {exc}") from None
        yield Step(index, seat, cmd, state, events)


def final_state(game: Game, record: Mapping[str, Any]) -> State:
    """The state after the record's last command."""
    state: State | None = None
    for step in replay(game, record):
        state = step.state
    assert state is not None
    return state
