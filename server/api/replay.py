"""``GET /api/tables/{id}/replay/{step}``: a finished game stepped through as a spectator.

The steps come from ``server.engine.replay`` over the table's record; finished games never
change, so the steps (and their states) of the most recently asked-for tables are kept in
memory. The game is over, so each step also carries every seat's own view.
"""

from __future__ import annotations

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
            raise ServiceError("bad_step", message, 404)
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
        log = log + [log_entry(e) for e in step.events if is_visible(e, None)]
        command = None if step.number == 0 else record["commands"][step.number - 1]
        steps.append({"view": game.view(step.state, None), "log": log, "command": command})
        states.append(step.state)
        for e in step.events:
            if e["type"] == "RoundStarted" and isinstance(e["params"].get("round"), int):
                rounds.append({"round": e["params"]["round"], "step": step.number})
    if not rounds or rounds[0]["round"] != 1:
        rounds.insert(0, {"round": 1, "step": 0})
    return Replayed(record["game"], int(record["seats"]), steps, states, rounds)


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a finished game as a spectator sees it: ``[{view, log, command}]``,
    step 0 first (``command`` is the step's ``{seat, cmd}``, None at step 0)."""
    return replay_game(record).steps


_replays: OrderedDict[str, Replayed] = OrderedDict()


@router.get("/api/tables/{table_id}/replay/{step}", tags=["tables"])
async def replay_step(table_id: str, step: int, request: Request) -> dict[str, Any]:
    """A finished game after its first ``step`` commands: the spectator's view and log, and
    (the game being over) every seat's own view.

    Returns ``{step, steps, command, view, log, seat_views, rounds}`` (``command`` is the
    step's ``{seat, cmd}``, null at step 0; ``rounds`` lists ``{round, step}``, the step at
    which each round began). Errors: ``not_finished`` (409) before the end, ``not_found``
    (404) for an unknown table, ``bad_step`` (404) outside ``0..steps``.
    """
    if table_id not in _replays:
        record = await request.app.state.service.record(table_id)
        _replays[table_id] = replay_game(record)
        while len(_replays) > REPLAY_CACHE_TABLES:
            _replays.popitem(last=False)
    _replays.move_to_end(table_id)
    return _replays[table_id].answer(step)
