"""Play: one game command at a time, in a fixed order — table exists → not finished → seat may
act → version → engine → commit → broadcast.

The command is computed from the table held in memory and stored by one write that appends
the command (unique ``(table_id, seq)``), saves the state snapshot when one is due and bumps
``version`` only if it is still the version the command was computed from; a writer that loses
the race recomputes from the new state. On Postgres that write is one statement on the
command path's own asyncpg pool, carrying the fan-out's NOTIFY when the backend offers one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

import asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from server import metrics
from server.engine import Command, get_game
from server.settings import Settings
from server.store import queries
from server.store.db import asyncpg_dsn
from server.store.fifo import FifoGate
from server.store.models import BY_BOT, BY_CLOCK

from . import clock as table_clock
from . import seats as seat_model
from .cache import TableCache
from .data import ServiceError, TableData
from .fanout import FanOut
from .seats import Actor
from .writes import (
    DRIVER_CONNECTION_ERRORS,
    WRITE_ATTEMPTS,
    DroppedConnection,
    busy_is_none,
    kept_changing,
)

SNAPSHOT_EVERY = 16  # steps between two stored copies of the whole state

# Tell everyone about a new version; ``notified``: the commit itself carried the NOTIFY.
Announce = Callable[[TableData, bool], Awaitable[None]]


log = logging.getLogger(__name__)

# Seconds the shutdown waits for the command path's connections to come back.
CLOSE_GRACE = 5.0


class Play:
    """Plays game commands for seats; the only code that appends commands."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        cache: TableCache,
        fanout: FanOut,
        announce: Announce,
        now: Callable[[], float],
    ) -> None:
        self.settings = settings
        self._sessions = sessions
        self._engine: AsyncEngine = sessions.kw["bind"]
        self._cache = cache
        self._fanout = fanout
        self._announce = announce
        self._now = now  # what the turn clocks read as now
        # A fan-out that can ride on the command's own statement (Postgres NOTIFY) saves
        # the command a second round trip after its commit.
        self.notifies_in_commit = settings.is_postgres and hasattr(fanout, "notification")
        self._command_pool: asyncpg.Pool | None = None
        self._pool_lock = asyncio.Lock()
        # In front of the pool: its own queue lets a newcomer take a connection a waiter was
        # woken for, which gave a few commands waits of seconds under load.
        self._command_turns = FifoGate(settings.db_pool_size)

    async def submit(
        self,
        table_id: str,
        seat: int,
        cmd: Command,
        client_id: str | None = None,
        by: Actor | table_clock.Cover | table_clock.BotTurn | None = None,
    ) -> int:
        """Play ``cmd`` for ``seat``; returns the table version once it is committed.

        ``by`` is who sends it: a person's token hash or ``seats.BOT``; it must play ``seat``
        at the version the command is decided on (``seats.check_plays``), else 'seat_lost'.
        None skips that check: only for callers that are the server itself (tools, tests).
        It is also who the command is stored as made by (``_made_by``: the person, a bot, or
        the clock's bot covering a timeout, with a ``Cover``).
        A ``client_id`` already committed for this seat returns that command's version again.
        Raises ServiceError ('unknown_table', 'seat_lost', 'not_started', 'finished', 'paused',
        'not_your_turn', 'conflict') or the engine's RuleError; nothing is stored then.
        """
        started = time.perf_counter()
        async with self._cache.lock(table_id):
            for attempt in range(WRITE_ATTEMPTS):
                outcome = await busy_is_none(
                    self._try_submit(table_id, seat, cmd, client_id, by, attempt > 0)
                )
                if outcome is not None:
                    break
                self._cache.forget(table_id)
            else:
                raise kept_changing()
        version, data = outcome
        if data is not None:
            metrics.record_command(time.perf_counter() - started)
            await self._announce(data, self.notifies_in_commit)
        return version

    async def _try_submit(
        self,
        table_id: str,
        seat: int,
        cmd: Command,
        client_id: str | None,
        by: Actor | table_clock.Cover | table_clock.BotTurn | None = None,
        repeat_first: bool = False,
    ) -> tuple[int, TableData | None] | None:
        """One attempt: (version, new data) or (version, None) for a repeat; None if outraced.

        The happy path reads nothing: the table held in memory is what the command is
        computed from, and the one write checks that it is still the stored version (if
        another process moved the table on, the write changes nothing, and the next attempt
        reloads). Only a retry (``repeat_first``) or a table not held reads the database.

        A repeated ``client_id`` is looked up only when the command cannot be applied or on a
        retry: a repeat the state still accepts is refused by the unique
        ``(table_id, seat, client_id)`` key, and the next attempt, with ``repeat_first``,
        finds it.
        """
        data = self._cache.tables.get(table_id)
        if data is None or repeat_first:
            data = await self._cache.reload(table_id)
        # Checked on the version the command is decided on: if a seat change elsewhere moved
        # the table on, the write below changes nothing and the retry checks the new version.
        cover = None
        if isinstance(by, table_clock.Cover | table_clock.BotTurn):
            # Claimed work (a timeout, a bot's turn): only on the version it was seen at.
            if data.version != by.version:
                raise ServiceError("moved_on", "the table moved on before this move")
            if isinstance(by, table_clock.Cover):
                cover = by
            else:
                seat_model.check_plays(data, seat, seat_model.BOT)
        elif by is not None:
            seat_model.check_plays(data, seat, by)
        if client_id is not None and repeat_first:
            done = await self._committed_version(table_id, seat, client_id)
            if done is not None:
                return done, None
        game = get_game(data.game)
        try:
            _check_may_act(data, seat)
            assert data.state is not None
            state, events = game.apply(data.state, seat, cmd)
        except Exception:
            if client_id is not None and not repeat_first:
                done = await self._committed_version(table_id, seat, client_id)
                if done is not None:
                    return done, None
            raise
        result = game.result(state)
        status = "finished" if result is not None else "playing"
        clock, due = table_clock.after_command(
            data, state, seat, cmd, self._now(), self.settings.bot_delay, cover, events
        )
        seat_log = None
        if cover is not None and cover.newly:
            name = data.seats[seat].name
            entry = {"type": "timed_out", "seat": seat, "name": name, "bot": None}
            seat_log = seat_model.logged_change(data, entry)["seat_log"]
        write = queries.CommandWrite(
            table_id=table_id,
            expected=data.version,
            seq=data.seq + 1,
            seat=seat,
            client_id=client_id,
            command=cmd,
            events=[dict(ev) for ev in events],
            status=status,
            result=dict(result) if result is not None else None,
            state=state if _snapshot_due(data, status, data.seq + 1) else None,
            clock=clock,
            due_at=None if status == "finished" else due,
            seat_log=seat_log,
            by=_made_by(data, seat, by),
        )
        if not await self._append(write):
            return None  # another process committed first: decide again on its state
        new = replace(
            data,
            state=state,
            status=status,
            result=write.result,
            version=write.version,
            seq=write.seq,
            log=data.log + tuple(events),
            clock=clock,
            due_at=write.due_at,
            seat_log=data.seat_log if seat_log is None else tuple(seat_log),
        )
        return new.version, self._cache.remember(new)

    async def _append(self, write: queries.CommandWrite) -> bool:
        """Store one command: one statement on Postgres, one short transaction on SQLite."""
        if self.settings.is_postgres:
            notify = None
            if self.notifies_in_commit:
                notify = self._fanout.notification(write.table_id, write.version)  # type: ignore[attr-defined]
            pool = self._command_pool or await self._open_command_pool()
            try:
                async with self._command_turns, pool.acquire() as conn:
                    return await queries.append_command_pg(conn, write, notify)
            except DRIVER_CONNECTION_ERRORS:
                # No ping before each use: a connection that died in the pool fails here,
                # the pool replaces it, and the attempt is retried (nothing was committed).
                raise DroppedConnection() from None
        try:
            async with self._engine.begin() as conn:
                if not await queries.append_command(conn, write):
                    raise _Outraced()  # leaving the block rolls the transaction back
        except _Outraced:
            return False
        return True

    async def _open_command_pool(self) -> asyncpg.Pool:
        """The command path's own connections (Postgres), opened on the first command.

        Plain asyncpg, apart from SQLAlchemy's pool: no greenlet hop and no checkout
        bookkeeping per command, and a fixed set of connections that stays open, where an
        overflowing SQLAlchemy pool would open and close one per command under load.
        """
        async with self._pool_lock:
            if self._command_pool is None:
                self._command_pool = await asyncpg.create_pool(
                    asyncpg_dsn(self.settings.database_url),
                    min_size=1,
                    max_size=self.settings.db_pool_size,
                    reset=_keep_session,
                )
        return self._command_pool

    async def close(self, grace: float = CLOSE_GRACE) -> None:
        """Close the command path's connections (the app does this at shutdown).

        asyncpg's graceful close waits for every connection to come back to the pool; one
        whose command was cancelled mid-statement (a bot stopped at shutdown) may never come
        back, and the shutdown then hung for good. After ``grace`` seconds the rest are
        closed at once: nothing uncommitted is lost (each command is one autocommit).
        """
        pool, self._command_pool = self._command_pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), timeout=grace)
        except TimeoutError:
            log.warning("command pool: connections still out after %.0f s; closed at once", grace)
            pool.terminate()

    async def _committed_version(self, table_id: str, seat: int, client_id: str) -> int | None:
        """The version a committed command of ``seat`` with ``client_id`` made, if any."""
        async with self._sessions() as session:
            done = await queries.command_by_client_id(session, table_id, seat, client_id)
        return None if done is None else done.version


async def _keep_session(_conn: asyncpg.Connection) -> None:
    """The command pool's reset on release: nothing to undo, so no round trip.

    asyncpg's default reset sends ``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL`` on every release, a second round trip per command before its ack. These connections
    only ever run ``append_command_pg``'s single autocommit statement: no advisory lock (the
    table-creation limits take theirs with ``pg_advisory_xact_lock``, which ends with its
    transaction, on SQLAlchemy's connections), no cursor, no LISTEN (the fan-out has its own
    connection), no SET. asyncpg still rolls back a transaction left open before calling this.
    """


class _Outraced(Exception):
    """The optimistic check failed: another writer moved the table on first."""


def _snapshot_due(data: TableData, status: str, seq: int) -> bool:
    """Whether step ``seq`` stores the whole state, or only its command.

    Every SNAPSHOT_EVERY steps and at the end of the game; in between, loading a table
    replays at most SNAPSHOT_EVERY - 1 commands onto the stored state (``apply`` is
    deterministic), so each of those steps writes its command row and the version only.
    """
    return status != data.status or seq % SNAPSHOT_EVERY == 0


def _made_by(
    data: TableData, seat: int, by: Actor | table_clock.Cover | table_clock.BotTurn | None
) -> str | None:
    """Who made a command for ``seat`` sent by ``by`` (``CommandRow.by``): None for the
    seat's person, ``BY_BOT`` for a bot playing the seat, ``BY_CLOCK`` for the clock's bot.

    Every command of a covered decision comes with a ``Cover``, not only the first (the one
    the seat log names). A person's token plays only a seat no bot plays (``check_plays``);
    the server's own callers (``by`` None: tools, tests) are taken at the seat's player.
    """
    if isinstance(by, table_clock.Cover):
        return BY_CLOCK
    if isinstance(by, table_clock.BotTurn) or by is seat_model.BOT:
        return BY_BOT
    if by is None and data.seats[seat].bot is not None:
        return BY_BOT
    return None


def _check_may_act(data: TableData, seat: int) -> None:
    if data.status == "open":
        raise ServiceError("not_started", "the game has not started yet")
    if data.status == "finished" or data.state is None:
        raise ServiceError("finished", "the game is over")
    if data.clock is not None and data.clock.get("paused") is not None:
        raise ServiceError("paused", "the table is paused: nobody moves until it resumes")
    game = get_game(data.game)
    # A seat outside ``to_act`` may still have a command (taking a sealed plan back).
    if seat not in game.to_act(data.state) and not game.legal(data.state, seat):
        # The rule of what is being decided now says who decides it (the view's ``rule``).
        clause = game.view(data.state, seat).get("rule")
        raise ServiceError("not_your_turn", f"seat {seat} may not act now", clause=clause)
