"""``GET /api/tables/{id}/analysis``: a finished game's post-game analysis, as far as done.

The analysis runs in the background (``server.analysis.job``); this route only reads what
is stored and summarises it (``server.analysis.compute.summarise``): the page polls it
while the analysis runs and draws the graph as positions are done. A finished game that has
no analysis yet (it ended before the analysis existed) is queued by the first ask.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request

from server.analysis import DEFAULT_PARAMS, summarise
from server.analysis.compute import steps_of
from server.analysis.job import stored_positions
from server.store.models import AnalysisRow

RECORD_CACHE_TABLES = 16

router = APIRouter()

_records: OrderedDict[str, dict[str, Any]] = OrderedDict()  # finished games never change


async def _record(request: Request, table_id: str) -> dict[str, Any]:
    made = _records.get(table_id)
    if made is not None:
        _records.move_to_end(table_id)
        return made
    record: dict[str, Any] = await request.app.state.service.record(table_id)
    _records[table_id] = record
    while len(_records) > RECORD_CACHE_TABLES:
        _records.popitem(last=False)
    return record


@router.get("/api/tables/{table_id}/analysis", tags=["tables"])
async def analysis(table_id: str, request: Request) -> dict[str, Any]:
    """The analysis of a finished game: ``{status, done, steps, seats, names, chances,
    playouts, margins, rounds, costliest, swings}``.

    ``status`` is ``queued``, ``running``, ``done`` or ``failed``; ``chances[k]`` is each
    seat's estimated win chance after ``k`` commands (null while not done), ``playouts[k]``
    how many play-outs it rests on (0: the result itself), ``margins[k]`` each seat's 95 %
    half-width, ``rounds[k]`` its round; ``costliest`` maps each person's seat to their
    three costliest decisions beyond the noise (``{step, round, made, chance, best,
    best_chance, cost, margin, worlds, options}``; ``margin`` the noise of the paired
    difference over the ``worlds`` both were tried in), ``swings`` lists the three biggest
    moves of a seat's chance over one command beyond the noise (``{step, round, by, cmd,
    seat, before, after, margin}``). Errors: ``not_finished`` (409) before the end,
    ``unknown_table`` (404).
    """
    record = await _record(request, table_id)
    service = request.app.state.service
    async with service.sessions.read() as session:
        row = await session.get(AnalysisRow, table_id)
        status = row.status if row is not None else None
        params = (row.params if row is not None else None) or {}
        positions = await stored_positions(session, table_id) if row is not None else {}
    if status is None:
        await request.app.state.analysis.queue(table_id)
        status = "queued"
    figures = summarise(record, positions, int(params.get("playouts", DEFAULT_PARAMS.playouts)))
    return {"status": status, **figures, "steps": steps_of(record)}
