"""``GET /api/tables/{id}/replay/{step}``: a finished game stepped through as a spectator.

The steps come from ``server.engine.replay`` over the table's record; finished games never
change, so the steps (and their states) of the most recently asked-for tables are kept in
memory. The game is over, so each step also carries every seat's own view.

Replaying applies every command of the game and builds a view per step, so it runs in a
worker thread, once per table however many ask at the same moment, and one at a time per
app: whoever asks for many finished tables in turn costs one core at most, never the event
loop that serves the live tables. A table not finished costs one version query
(``TableService.record``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request

from server.engine import get_game, is_visible, log_entry, replay
from server.tables import ServiceError

REPLAY_CACHE_TABLES = 16

router = APIRouter()


@dataclass
class Replayed:
    """A finished game, step by step: what a spectator saw (``steps``: ``{view, log,
    command}``), the states behind them (every seat's view is made from them on request),
    and the step at which each round began."""

    game: str
    seats: int
    steps: list[dict[str, Any]]
    states: list[Any]
    rounds: list[dict[str, int]]

    def answer(self, step: int) -> dict[str, Any]:
        """Step ``step`` as the route answers it; the game is over, so every seat's own view
        (money, plans, stacks, tasks) is shown beside the spectator's."""
        if not 0 <= step < len(self.steps):
            message = f"step {step} is outside 0..{len(self.steps) - 1}"
            raise ServiceError("bad_step", message)
        game = get_game(self.game)
        seat_views = [game.view(self.states[step], seat) for seat in range(self.seats)]
        return {
            "step": step,
            "steps": len(self.steps) - 1,
            **self.steps[step],
            "seat_views": seat_views,
            "rounds": self.rounds,
        }


def replay_game(record: dict[str, Any]) -> Replayed:
    """Replay a finished game's record. A record that does not replay raises the engine's
    RuleError."""
    game = get_game(record["game"])
    log: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    states: list[Any] = []
    rounds: list[dict[str, int]] = []
    for step in replay(game, record):
        # A table dealt before openings were stored never logged its opening: nor does its replay.
        events = [] if step.number == 0 and record.get("opening") is None else step.events
        log = log + [log_entry(e) for e in events if is_visible(e, None)]
        command = None if step.number == 0 else record["commands"][step.number - 1]
        steps.append({"view": game.view(step.state, None), "log": log, "command": command})
        states.append(step.state)
        for e in events:
            if e["type"] == "RoundStarted" and isinstance(e["params"].get("round"), int):
                rounds.append({"round": e["params"]["round"], "step": step.number})
    if not rounds or rounds[0]["round"] != 1:
        rounds.insert(0, {"round": 1, "step": 0})
    return Replayed(record["game"], int(record["seats"]), steps, states, rounds)


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a finished game as a spectator sees it: ``[{view, log, command}]``,
    step 0 first (``command`` is the step's ``{seat, cmd}``, None at step 0)."""
    return replay_game(record).steps


_replays: OrderedDict[str, Replayed] = OrderedDict()  # finished games: alike in every app


class _Builds:
    """Replays being built in one app (its event loop): one per table, one at a time."""

    def __init__(self) -> None:
        self.running: dict[str, asyncio.Future[Replayed]] = {}
        self.one_at_a_time = asyncio.Lock()

    def done(self, table_id: str, build: asyncio.Future[Replayed]) -> None:
        self.running.pop(table_id, None)
        if not build.cancelled():
            build.exception()  # retrieved here too, in case every asker has gone


async def _replayed(request: Request, table_id: str) -> Replayed:
    made = _replays.get(table_id)
    if made is not None:
        _replays.move_to_end(table_id)
        return made
    builds = getattr(request.app.state, "replay_builds", None)
    if builds is None:
        builds = request.app.state.replay_builds = _Builds()
    building = builds.running.get(table_id)
    if building is None:
        building = asyncio.ensure_future(_build(request, builds, table_id))
        builds.running[table_id] = building
        building.add_done_callback(lambda done: builds.done(table_id, done))
    return await asyncio.shield(building)


async def _build(request: Request, builds: _Builds, table_id: str) -> Replayed:
    record = await request.app.state.service.record(table_id)  # not_finished before the end
    async with builds.one_at_a_time:
        made = await asyncio.to_thread(replay_game, record)
    _replays[table_id] = made
    while len(_replays) > REPLAY_CACHE_TABLES:
        _replays.popitem(last=False)
    return made


@router.get("/api/tables/{table_id}/replay/{step}", tags=["tables"])
async def replay_step(table_id: str, step: int, request: Request) -> dict[str, Any]:
    """A finished game after its first ``step`` commands: the spectator's view and log, and
    (the game being over) every seat's own view.

    Returns ``{step, steps, command, view, log, seat_views, rounds}`` (``command`` is the
    step's ``{seat, cmd}``, null at step 0; ``rounds`` lists ``{round, step}``, the step at
    which each round began). Errors: ``not_finished`` (409) before the end, ``unknown_table``
    (404) for an unknown table, ``bad_step`` (404) outside ``0..steps``.
    """
    return (await _replayed(request, table_id)).answer(step)
