"""A table's clock as the table changes: the glue between the pure clock model and the table
service. Each function takes the table as it was and as it will be and returns the clock and
``due_at`` the service stores in the same write as the change.

Who runs: every seat in the game's ``to_act``. People have deadlines; a bot seat (a bot
of the table, or one standing in for its player) is due ``bot_delay`` after it was asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from server.clocks import model
from server.engine import Event, get_game
from server.engine import planning as sealed

from .data import SeatInfo, TableData


@dataclass(frozen=True)
class BotTurn:
    """A bot seat's move, claimed by the table version it was decided on: of the processes
    that see it due, only the one whose write finds the table still at ``version`` stores it
    (exactly one bot move per turn)."""

    seat: int
    version: int


@dataclass(frozen=True)
class Cover:
    """The clock as an actor: a bot plays ``seat``'s decision because its time ran out.

    ``version`` is the table version the timeout was seen at: the command is stored only if
    the table is still there (a command of the player that came first wins), and ``clock`` is
    the clock with the timeout counted (``model.cover``). ``newly``: the first bot move of this
    decision, the one the log names.
    """

    seat: int
    version: int
    clock: model.Clock
    newly: bool


def is_planning(state: Any) -> bool:
    """Whether ``state`` is in a planning phase (both games, and the toy game, name it so)."""
    return isinstance(state, dict) and state.get("phase") == "planning"


def is_new_stage(before: Any, after: Any, events: Iterable[Event]) -> bool:
    """Whether one command took the game from ``before`` to a new stage in ``after``: another
    phase, or a planning phase that ended (the shared ``PlanningEnded`` event) and opened
    again in the same command (in Norenberc, every seat passed: the round ended and the next
    one's planning began, the phase still "planning"). A seat asked again then faces a new
    decision, not the one it was playing."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return False
    if before.get("phase") != after.get("phase"):
        return True
    return any(e.get("type") == sealed.PLANNING_ENDED for e in events)


def people(seats: Iterable[SeatInfo]) -> set[int]:
    """Seats a person plays now (no bot, stand-in or not)."""
    return {s.seat for s in seats if s.bot is None}


def split_to_act(data: TableData, state: Any) -> tuple[set[int], set[int]]:
    """(people, bots) in ``to_act`` of ``state`` at ``data``'s seats."""
    if state is None:
        return set(), set()
    to_act = get_game(data.game).to_act(state)
    humans = people(data.seats)
    return to_act & humans, to_act - humans


def due(clock: model.Clock | None, data: TableData, state: Any, bot_delay: float) -> float | None:
    """The first moment the clock wants something at ``data`` with ``state`` (see model)."""
    if clock is None or state is None:
        return None
    humans, bots = split_to_act(data, state)
    return model.due_at(clock, humans, bots, bot_delay)


def started(
    clock: model.Clock | None, data: TableData, state: Any, now: float, bot_delay: float
) -> tuple[model.Clock | None, float | None]:
    """The clock as the game is dealt: every seat asked first starts its decision."""
    if clock is None:
        return None, None
    to_act = get_game(data.game).to_act(state)
    new = model.advance(clock, set(), to_act, now=now, planning=is_planning(state))
    return new, due(new, data, state, bot_delay)


def after_command(
    data: TableData,
    state: Any,
    seat: int,
    cmd: dict[str, Any],
    now: float,
    bot_delay: float,
    cover: Cover | None = None,
    events: Iterable[Event] = (),
) -> tuple[model.Clock | None, float | None]:
    """The clock once ``seat`` played ``cmd`` on ``data``, giving ``state`` and ``events``."""
    clock = cover.clock if cover is not None else data.clock
    if clock is None or data.state is None:
        return None, None
    game = get_game(data.game)
    new = model.advance(
        clock,
        game.to_act(data.state),
        game.to_act(state) if state is not None else set(),
        now=now,
        planning=is_planning(data.state),
        planning_after=is_planning(state),
        actor=seat,
        command=str(cmd.get("type")),
        by_bot_cover=cover is not None,
        turned=is_new_stage(data.state, state, events),
    )
    return new, due(new, data, state, bot_delay)


def public(data: TableData) -> dict[str, Any] | None:
    """What the page and the lobby show of ``data``'s clock (None: untimed, no clock)."""
    if data.clock is None:
        return None
    return model.public(data.clock, people(data.seats))
