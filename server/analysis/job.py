"""The analysis of finished games, run in the background by whichever app process gets it.

What is owed
------------
Nothing is written on the command path. Each sweep derives what is owed from what is stored
already: a finished table (``tables.status``) of the last ``RECENT`` seconds with no row in
``analyses`` gets one, ``queued``. (Older games, finished before the analysis existed, are
left alone: a self-hoster upgrading does not get years of games analysed at once.)

Claiming
--------
A queued row, or a running one whose lease has ended, is *claimed* by a compare-and-set
that writes this process as ``lease_owner`` and moves ``lease_until`` to ``now + LEASE``:
of two processes on one database only one wins. While it works the claimer renews the
lease every ``LEASE / 4`` seconds, again only while it is still the owner; a process that
dies leaves the row to be claimed by another once the lease ends. The rows open to a claim
take turns by the address that made their table (``tables.creator_key``): the address with
the fewest games queued in the last ``RECENT`` seconds goes first, so the analysis time,
shared by all, is not one address's to fill.

Working
-------
Positions are computed one at a time in a child process (``worker``: a thread would hold
the GIL the event loop needs), last first, and each is written to ``analysis_positions`` as
soon as it is done, so a resumed analysis skips what is stored and the page fills the graph
while it runs. The child keeps to ``GUILDHALL_ANALYSIS_CPU`` of one core: after every
play-out it sleeps long enough that busy / (busy + sleep) stays within the share
(``worker.Throttle``). A process that loses its lease, or stops, kills the child at once: the
position at hand is computed again by whoever resumes (an insert of a stored step is
skipped, and the figures are deterministic anyway). A child that dies otherwise (the OS
killed it, a crash) is replaced and the position tried again; a position that ends its
child ``DEATHS`` times fails the analysis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.store import queries
from server.store.models import AnalysisPositionRow, AnalysisRow, SeatRow, TableRow

from .compute import DEFAULT_PARAMS, Params, steps_of
from .worker import ChildDied, Computed, PositionFailed, Worker

log = logging.getLogger(__name__)

LEASE = 30.0  # seconds a claimed analysis stays its claimer's unless renewed (every LEASE / 4)
RECENT = 2 * 24 * 3600.0  # finished games younger than this are queued
SWEEP = 5.0  # seconds between two looks for work when there is none
DEATHS = 3  # times one position may end its child process before the analysis fails

Sessions = Callable[[], AbstractAsyncContextManager[AsyncSession]]
Lock = Callable[[], AbstractAsyncContextManager[None]]


async def load_record(session: AsyncSession, table_id: str) -> dict[str, Any] | None:
    """A finished table's record as ``TableService.record`` gives it (what the analysis
    needs of it), from the store; None when the table is gone or not finished."""
    table = await session.get(TableRow, table_id)
    if table is None or table.status != "finished":
        return None
    seats = (
        await session.execute(
            sa.select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        )
    ).scalars()
    seat_rows = list(seats)
    rows = await queries.command_rows(session, table_id)
    return {
        "table_id": table.id,
        "game": table.game,
        "seats": table.seats,
        "names": [s.name for s in seat_rows],
        "bots": [s.bot for s in seat_rows],
        "options": table.options,
        "seed": table.seed,
        "commands": [queries.record_entry(r) for r in rows],
        "result": table.result,
    }


async def stored_positions(session: AsyncSession, table_id: str) -> dict[int, dict[str, Any]]:
    """The positions of ``table_id`` analysed so far, by step."""
    query = sa.select(AnalysisPositionRow).where(AnalysisPositionRow.table_id == table_id)
    return {row.step: row.figures for row in (await session.execute(query)).scalars()}


class AnalysisJob:
    """Queues, claims and runs analyses from this process (see the module docstring)."""

    def __init__(
        self,
        sessions: Sessions,
        share: float,
        *,
        lock: Lock | None = None,
        params: Params = DEFAULT_PARAMS,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.sessions, self.share, self.params, self.now = sessions, share, params, now
        self.lock = lock or _no_lock
        self.owner = uuid.uuid4().hex
        self.stop_event = threading.Event()
        self.worker = Worker()  # the child process that computes the positions
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self.current: str | None = None  # the table being analysed here, if any
        self.computed = 0  # positions this process computed (tests read it)
        self.cpu = 0.0  # CPU seconds this process spent on them

    # ---------------------------------------------------------------- running

    async def start(self) -> None:
        if self.share > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop now (the child computing a position is killed); an analysis left half done
        is given up at once (its lease ended), so another process, or this one restarted,
        resumes it now rather than after the lease."""
        self.stop_event.set()
        self.worker.kill()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.worker.close()
        if self.current is not None:
            with contextlib.suppress(Exception):
                await self.renew(self.current, lease_until=0.0)
            self.current = None

    async def _run(self) -> None:
        while not self.stop_event.is_set():
            worked = False
            try:
                await self.queue_finished()
                worked = await self.work_once()
            except Exception:
                log.exception("analysis sweep failed")
            if not worked:
                await self.worker.close()  # no child waits idle while there is nothing owed
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), SWEEP)
                self._wake.clear()

    # ---------------------------------------------------------------- what is owed

    async def queue_finished(self) -> int:
        """Queue every recently finished table that has no analysis yet; how many."""
        now = self.now()
        since = datetime.now(UTC) - timedelta(seconds=RECENT)
        async with self.lock(), self.sessions() as session:
            dialect = _dialect(session)
            query = (
                sa.select(TableRow.id)
                .outerjoin(AnalysisRow, AnalysisRow.table_id == TableRow.id)
                .where(
                    TableRow.status == "finished",
                    TableRow.updated_at >= since,
                    AnalysisRow.table_id.is_(None),
                )
            )
            found = list((await session.execute(query)).scalars())
            for table_id in found:
                insert = _insert(dialect, AnalysisRow).values(
                    table_id=table_id, status="queued", queued_at=now
                )
                await session.execute(insert.on_conflict_do_nothing())
            await session.commit()
        return len(found)

    def finished(self, data: Any) -> None:
        """A change this process stored (``TableService.on_change``): a game that has just
        ended is queued at once (the sweep would find it too, a little later)."""
        if data.status != "finished":
            return
        task = asyncio.get_running_loop().create_task(self.queue(data.id))
        self._tasks.add(task)
        task.add_done_callback(self._queued)

    def _queued(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is None:
            self._wake.set()

    async def queue(self, table_id: str) -> None:
        """Queue ``table_id`` (a finished table) now, if it has no analysis yet."""
        async with self.lock(), self.sessions() as session:
            dialect = _dialect(session)
            insert = _insert(dialect, AnalysisRow).values(
                table_id=table_id, status="queued", queued_at=self.now()
            )
            await session.execute(insert.on_conflict_do_nothing())
            await session.commit()

    # ---------------------------------------------------------------- claiming

    async def claim(self) -> str | None:
        """Claim one analysis that is queued or whose lease ended; its table id, or None."""
        now = self.now()
        open_ = sa.or_(
            AnalysisRow.status == "queued",
            sa.and_(AnalysisRow.status == "running", AnalysisRow.lease_until < now),
        )
        # Turns, not a queue: a game's turn is how many games of its address were queued in
        # the last RECENT seconds (or wait still) up to it, so the least served address goes
        # first (a table of no address, a rematch or one the tools made, is its own), and one
        # address finishing game after game does not keep everyone else's analysis waiting.
        address = sa.func.coalesce(TableRow.creator_key, TableRow.id)
        recent = (
            sa.select(
                AnalysisRow.table_id,
                AnalysisRow.queued_at,
                open_.label("open"),
                sa.func.row_number()
                .over(partition_by=address, order_by=AnalysisRow.queued_at)
                .label("turn"),
            )
            .join(TableRow, TableRow.id == AnalysisRow.table_id)
            .where(sa.or_(AnalysisRow.queued_at >= now - RECENT, open_))
            .subquery()
        )
        query = (
            sa.select(recent.c.table_id)
            .where(recent.c.open)
            .order_by(recent.c.turn, recent.c.queued_at)
        )
        async with self.lock(), self.sessions() as session:
            for table_id in list((await session.execute(query.limit(5))).scalars()):
                claimed = await session.execute(
                    sa.update(AnalysisRow)
                    .where(AnalysisRow.table_id == table_id, open_)
                    .values(status="running", lease_owner=self.owner, lease_until=now + LEASE)
                )
                if claimed.rowcount == 1:  # type: ignore[attr-defined]
                    await session.commit()
                    return str(table_id)
            await session.commit()
        return None

    async def renew(self, table_id: str, **values: Any) -> bool:
        """Move the lease on (and write ``values``) while this process still owns it."""
        async with self.lock(), self.sessions() as session:
            done = await session.execute(
                sa.update(AnalysisRow)
                .where(
                    AnalysisRow.table_id == table_id,
                    AnalysisRow.lease_owner == self.owner,
                    AnalysisRow.status == "running",
                )
                .values(**{"lease_until": self.now() + LEASE, **values})
            )
            await session.commit()
        return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    # ---------------------------------------------------------------- working

    async def work_once(self) -> bool:
        """Claim one analysis and run it to the end (or until the lease is lost); False when
        there was nothing to claim."""
        table_id = await self.claim()
        if table_id is None:
            return False
        lost = asyncio.Event()
        keeper = asyncio.get_running_loop().create_task(self._keep_lease(table_id, lost))
        self.current = table_id
        try:
            await self._analyse(table_id, lost)
            self.current = None
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
        return True

    async def _keep_lease(self, table_id: str, lost: asyncio.Event) -> None:
        while True:
            await asyncio.sleep(LEASE / 4)
            if not await self.renew(table_id):
                lost.set()
                self.worker.kill()  # another process owns it now: the position at hand is theirs
                return

    async def _analyse(self, table_id: str, lost: asyncio.Event) -> None:
        async with self.sessions() as session:
            record = await load_record(session, table_id)
            done = await stored_positions(session, table_id)
        if record is None:
            await self.renew(table_id, status="failed", lease_owner=None)
            return
        total = steps_of(record)
        params = self.params
        if not await self.renew(table_id, steps=total, done=len(done), params=params.as_dict()):
            return
        for step in reversed(range(total)):
            if step in done:
                continue
            computed = await self._position(table_id, record, step, lost)
            if computed is None:
                return
            figures = computed.figures
            await self._store(table_id, step, figures)
            done[step] = figures
            log.info(
                "analysed position %d of %d of table %s by analyst %s",
                step,
                total,
                table_id,
                self.owner,
                extra={"table_id": table_id},
            )
            if not await self.renew(table_id, done=len(done)):
                return
        await self.renew(table_id, status="done", lease_owner=None, lease_until=None)

    async def _position(
        self, table_id: str, record: dict[str, Any], step: int, lost: asyncio.Event
    ) -> Computed | None:
        """One position, computed in the child process; None when the job stops, the lease
        is lost, or the analysis failed (then marked so)."""
        for death in range(1, DEATHS + 1):
            if lost.is_set() or self.stop_event.is_set():
                return None
            try:
                computed = await self.worker.compute(record, step, self.params, self.share)
            except ChildDied as error:
                if lost.is_set() or self.stop_event.is_set():
                    return None  # killed here, on purpose
                log.warning(
                    "analysis: position %d of table %s: %s (%d of %d); trying again",
                    step,
                    table_id,
                    error,
                    death,
                    DEATHS,
                    extra={"table_id": table_id},
                )
                continue
            except PositionFailed as failed:
                what = "the record does not replay" if failed.unreplayable else "it raised"
                await self._fail(table_id, "at position %d: %s\n%s", step, what, failed)
                return None
            self.computed += 1
            self.cpu += computed.cpu
            return computed
        await self._fail(table_id, "position %d ended its child process %d times", step, DEATHS)
        return None

    async def _fail(self, table_id: str, why: str, *args: Any) -> None:
        """Log why the analysis of ``table_id`` failed and mark it failed (never claimed again)."""
        log.error(
            "analysis of table %s failed: " + why, table_id, *args, extra={"table_id": table_id}
        )
        await self.renew(table_id, status="failed", lease_owner=None)

    async def _store(self, table_id: str, step: int, figures: dict[str, Any]) -> None:
        async with self.lock(), self.sessions() as session:
            dialect = _dialect(session)
            insert = _insert(dialect, AnalysisPositionRow).values(
                table_id=table_id, step=step, figures=figures
            )
            await session.execute(insert.on_conflict_do_nothing())
            await session.commit()


def _dialect(session: AsyncSession) -> str:
    return session.get_bind().dialect.name


def _insert(dialect: str, row: Any) -> Any:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(row)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(row)


@contextlib.asynccontextmanager
async def _no_lock() -> AsyncIterator[None]:
    yield
