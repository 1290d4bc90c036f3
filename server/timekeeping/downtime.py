"""Downtime given back: live clocks whose time ran while no server ran are extended before any
process fires them.

The one-row ``clock_beat`` table holds when a process last swept. A process starting reads
it and, after a gap of more than one sweep and ``BEAT_SLACK`` (nobody swept: every process
was down), gives the gap back to every running live seat, with at least ``clock_grace``
seconds left for each, *before* it moves the beat on. Until the beat moves, every other
process starting reads the same gap and extends too, while one starting later sees a fresh
beat and can only find tables already extended: no sweep fires a live deadline of the
downtime before its extension is stored. Each clock notes the downtime it was given
(``model.shift``'s ``began``, the last beat before it), so two processes extending together
give it once; each table's extension is one versioned change, on SQLite and Postgres alike.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from server.clocks import model
from server.store import queries
from server.store.sessions import SessionSource
from server.tables.data import ServiceError, TableData
from server.tables.service import TableService

log = logging.getLogger(__name__)

# Seconds past one sweep by which the beat may be late while a process runs (a busy event
# loop): a longer gap is downtime, so a deadline that ran out during a restart of a few
# seconds gets the grace too.
BEAT_SLACK = 1.5


async def extend_after_downtime(service: TableService, sessions: SessionSource) -> int:
    """Give live tables back the time nobody swept (plus ``clock_grace``), then move the beat
    on; returns how many tables this call extended."""
    settings = service.settings
    now = service.now()
    async with sessions.read() as session:
        before = await queries.last_beat(session)
        tables = await queries.live_clock_tables(session)
    extended = 0
    if before is not None and now - before > settings.clock_sweep + BEAT_SLACK:
        down = now - before
        for table_id in tables:
            extended += await _extend(service, table_id, down, now, before)
        log.info(
            "clocks extended after downtime",
            extra={"seconds": math.floor(down), "tables": extended},
        )
    async with sessions.read() as session:
        await queries.beat(session, now)  # only now may a sweep fire what the downtime ran out
        await session.commit()
    return extended


async def _extend(
    service: TableService, table_id: str, down: float, now: float, began: float
) -> int:
    """Extend one table's live clock (1), or nothing if it needs none or has it already (0)."""
    grace = service.settings.clock_grace
    data = await service.get_stored(table_id)
    if data.clock is None or model.shift(data.clock, down, now, grace, began) == data.clock:
        return 0

    def change(_data: TableData, clock: model.Clock) -> tuple[model.Clock, dict[str, Any]]:
        # On the clock as stored now: another process may have extended it meanwhile.
        shifted = model.shift(clock, down, now, grace, began)
        if shifted == clock:
            raise _GivenAlready
        return shifted, {}

    try:
        await service.change_clock(table_id, change)
    except _GivenAlready:
        return 0
    except ServiceError as exc:
        if exc.code in ("finished", "not_started"):
            return 0  # the game ended meanwhile: nothing runs any more
        raise
    return 1


class _GivenAlready(Exception):
    """The clock as stored now has had this downtime given back (nothing is written)."""
