"""``GET /api/tables/{id}/replay/{step}``: a finished game stepped through as a spectator.

The steps come from ``server.engine.replay`` over the table's record; finished games never
change, so the steps of the most recently asked-for tables are kept in memory.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request

from server.engine import get_game, is_visible, log_entry, replay
from server.tables import ServiceError

REPLAY_CACHE_TABLES = 16

router = APIRouter()

_replays: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a finished game as a spectator sees it: ``[{view, log, command}]``,
    step 0 first (``command`` is the step's ``{seat, cmd}``, None at step 0).

    A record that does not replay raises the engine's RuleError.
    """
    game = get_game(record["game"])
    log: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    for step in replay(game, record):
        log = log + [log_entry(e) for e in step.events if is_visible(e, None)]
        command = None if step.number == 0 else record["commands"][step.number - 1]
        steps.append({"view": game.view(step.state, None), "log": log, "command": command})
    return steps


@router.get("/api/tables/{table_id}/replay/{step}", tags=["tables"])
async def replay_step(table_id: str, step: int, request: Request) -> dict[str, Any]:
    """The spectator view of a finished game after its first ``step`` commands.

    Returns ``{step, steps, command, view, log}`` (``command`` is the step's ``{seat, cmd}``,
    null at step 0). Errors: ``not_finished`` (409) before the end, ``not_found`` (404) for an
    unknown table, ``bad_step`` (404) outside ``0..steps``.
    """
    if table_id not in _replays:
        record = await request.app.state.service.record(table_id)
        _replays[table_id] = replay_steps(record)
        while len(_replays) > REPLAY_CACHE_TABLES:
            _replays.popitem(last=False)
    _replays.move_to_end(table_id)
    steps = _replays[table_id]
    if not 0 <= step < len(steps):
        message = f"step {step} is outside 0..{len(steps) - 1}"
        raise ServiceError("bad_step", message, 404)
    return {"step": step, "steps": len(steps) - 1, **steps[step]}
