"""The in-memory picture of each table: the newest :class:`TableData` this process has seen,
a short history of it (for reconnecting clients), and the writer locks.

The cache reloads a table from the database whenever the stored version is newer than what
it holds; when it holds the state already, only the commands after the held step are read and
applied (``apply`` is deterministic). Writers (``lobby``, ``play``) take ``lock`` and hand
what they committed to ``remember``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.engine import Event, get_game
from server.settings import Settings
from server.store import queries
from server.store.models import CommandRow, SeatRow, TableRow
from server.store.sessions import SessionSource

from .data import SeatInfo, ServiceError, TableData, check_table_id, split_options

T = TypeVar("T")

HISTORY = 64  # versions kept per table so a reconnecting client can get a patch
HELD_TABLES = 2000  # beyond this many tables in memory, finished ones are forgotten
SNAPSHOT = {"isolation_level": "REPEATABLE READ"}


class TableCache:
    """The tables held in this process, how they are read, and who may write each."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        source: SessionSource | None = None,
    ) -> None:
        """``source``: the service's session source, whose SQLite writer lock this cache's
        writers share with every other writer of the process."""
        self._sessions = sessions
        self._source = source or SessionSource(sessions, one_writer=not settings.is_postgres)
        self.tables: dict[str, TableData] = {}
        # Ids of the held tables being played, kept with ``tables``: the active-tables gauge is
        # set at every command, and counting every held table there cost CPU per command in
        # proportion to the tables held.
        self._playing: set[str] = set()
        self._history: dict[str, dict[int, TableData]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._loading: dict[str, asyncio.Future[TableData]] = {}  # reads in flight, by table
        self._snapshot_reads = settings.is_postgres

    # ---------------------------------------------------------------- reading

    async def get(self, table_id: str, min_version: int = 0) -> TableData:
        """The table at ``min_version`` or newer. Raises ServiceError('unknown_table', 404)."""
        held = self.tables.get(table_id)
        if held is not None and held.version >= min_version:
            return held
        lock = self._locks.get(table_id)
        if held is not None and lock is not None and lock.locked():
            # This process is writing the table: the version asked for is most likely that
            # write's (its NOTIFY can arrive, or the fan-out's sweep see it, before the
            # writer resumes). Wait for it instead of reading what it is about to hand over.
            async with lock:
                pass
            held = self.tables.get(table_id)
            if held is not None and held.version >= min_version:
                return held
        loading = self._loading.get(table_id)
        if loading is None:
            # One read for every connection of the table that asks at once.
            loading = asyncio.ensure_future(self.reload(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda done: self._loaded(table_id, done))
        return await asyncio.shield(loading)

    async def get_stored(self, table_id: str) -> TableData:
        """The table as stored now, even if another process changed it (one cheap query when
        nothing changed). Raises ServiceError('unknown_table', 404)."""
        check_table_id(table_id)
        version = await self.read(lambda session: queries.table_version(session, table_id))
        if version is None:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}")
        return await self.get(table_id, version)

    def at_version(self, table_id: str, version: int) -> TableData | None:
        """The table as it was at ``version``, if still held in memory."""
        return self._history.get(table_id, {}).get(version)

    def playing(self) -> int:
        """How many held tables are being played."""
        return len(self._playing)

    async def current(self, session: AsyncSession, table_id: str) -> TableData:
        """The table as stored now (row-locked on Postgres), from memory when that is current.

        Only the version is read (and locked) first; the row with its state only when the
        held copy is out of date.
        """
        check_table_id(table_id)
        version = await queries.table_version(session, table_id, lock=True)
        if version is None:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}")
        held = self.tables.get(table_id)
        if held is not None and held.version == version:
            return held
        return self.remember(await self.load(session, table_id))

    async def reload(self, table_id: str) -> TableData:
        return self.remember(await self.read(lambda session: self.load(session, table_id)))

    async def read(self, query: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run a read in a session, once more on a fresh connection if the pooled one had
        died (connections are not pinged before use: the first error finds a dead one).

        On Postgres the read is one snapshot (REPEATABLE READ): a table is read in several
        queries (row, seats, commands), and another process committing between them must
        not make the seats or the state newer than the version they are filed under.
        """
        for attempt in (1, 2):
            try:
                async with self._sessions() as session:
                    if self._snapshot_reads:
                        await session.connection(execution_options=SNAPSHOT)
                    return await query(session)
            except DBAPIError as exc:
                if not exc.connection_invalidated or attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def load(
        self, session: AsyncSession, table_id: str, row: TableRow | None = None
    ) -> TableData:
        """The table as stored, read in ``session`` (not yet remembered)."""
        check_table_id(table_id)
        held = self.tables.get(table_id)
        if row is None and held is not None and held.state is not None:
            return await self._load_newer(session, held)
        row = row or await queries.table_row(session, table_id)
        if row is None:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}")
        seats = await queries.seat_rows(session, table_id)
        commands = await queries.command_rows(session, table_id, upto_version=row.version)
        return table_data(row, seats, replayed(row, commands), commands)

    async def _load_newer(self, session: AsyncSession, held: TableData) -> TableData:
        """The table as stored, from the copy held here: only the row without its state, the
        seats, and the commands after the held step are read, and those commands applied
        to the held state (what another process accepted is replayed, not re-read)."""
        row = await queries.table_row(session, held.id, with_state=False)
        if row is None:
            raise ServiceError("unknown_table", f"there is no table {held.id!r}")
        seats = await queries.seat_rows(session, held.id)
        newer = await queries.command_rows(
            session, held.id, after=held.seq, upto_version=row.version
        )
        game = get_game(held.game)
        state: Any = held.state
        log = list(held.log)
        for command in newer:
            state, _ = game.apply(state, command.seat, command.command)
            log.extend(_events(command))
        fresh = table_data(row, seats, state, [])
        return replace(fresh, log=tuple(log), seq=newer[-1].seq if newer else held.seq, state=state)

    def _loaded(self, table_id: str, done: asyncio.Future[TableData]) -> None:
        if self._loading.get(table_id) is done:
            del self._loading[table_id]
        if not done.cancelled():
            done.exception()  # retrieved here too, in case every asker has gone

    # ---------------------------------------------------------------- holding

    def remember(self, data: TableData) -> TableData:
        """Hold ``data`` unless something newer is held; returns the newest held."""
        held = self.tables.get(data.id)
        if held is not None and held.version > data.version:
            return held
        self.tables[data.id] = data
        if data.status == "playing":
            self._playing.add(data.id)
        else:
            self._playing.discard(data.id)
        history = self._history.setdefault(data.id, {})
        history[data.version] = data
        if len(history) > HISTORY:
            for old in sorted(history)[:-HISTORY]:
                del history[old]
        if len(self.tables) > HELD_TABLES:
            self._forget_finished()
        return data

    def forget(self, table_id: str) -> None:
        """Drop the held copy of ``table_id`` (a writer lost a race: the next read reloads)."""
        self.tables.pop(table_id, None)
        self._playing.discard(table_id)

    def _forget_finished(self) -> None:
        """Drop finished tables from memory (they reload from the database when asked for)."""
        for table_id in [t.id for t in self.tables.values() if t.status == "finished"]:
            self.tables.pop(table_id, None)
            self._history.pop(table_id, None)

    # ---------------------------------------------------------------- writer locks

    @asynccontextmanager
    async def lock(self, table_id: str) -> AsyncIterator[None]:
        """The table's writer lock (and, on SQLite, the process's one writer lock)."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock, self.sqlite_lock():
            yield

    @asynccontextmanager
    async def sqlite_lock(self) -> AsyncIterator[None]:
        """The process's one SQLite writer lock (nothing on Postgres)."""
        async with self._source.writer_lock():
            yield


# -------------------------------------------------------------------- rows to values


def replayed(row: TableRow, commands: list[CommandRow]) -> Any:
    """The table's newest state: the stored snapshot (at step ``state_seq``) with every later
    command applied again. Replay is deterministic, so this is the state each of those
    commands produced when it was accepted."""
    state = row.state
    later = [c for c in commands if c.seq > row.state_seq]
    if state is None or not later:
        return state
    game = get_game(row.game)
    for command in later:
        state, _ = game.apply(state, command.seat, command.command)
    return state


def _events(command: CommandRow) -> list[Event]:
    return _events_of(command.events)


def _events_of(stored: list[dict[str, Any]]) -> list[Event]:
    return [
        Event(type=e["type"], text=e["text"], to=e.get("to"), params=e.get("params") or {})
        for e in stored
    ]


def table_data(
    row: TableRow, seats: list[SeatRow], state: Any, commands: list[CommandRow]
) -> TableData:
    """The table as of its row, its seats and (for the log) its opening and commands."""
    opening = None if row.opening is None else tuple(_events_of(row.opening))
    log: list[Event] = list(opening or ())
    for command in commands:
        log.extend(_events(command))
    options, learning = split_options(row.options)
    return TableData(
        id=row.id,
        game=row.game,
        title=get_game(row.game).title,
        options=options,
        seed=row.seed,
        seed_sha256=row.seed_sha256,
        status=row.status,
        version=row.version,
        seats=tuple(SeatInfo(s.seat, s.name, s.bot, s.token_hash) for s in seats),
        state=state,
        log=tuple(log),
        opening=opening,
        seq=commands[-1].seq if commands else 0,
        result=row.result,
        public=bool(row.public),
        seat_log=tuple(row.seat_log or ()),
        clock=row.clock,
        due_at=row.due_at,
        rematch=row.rematch,
        creator_key=row.creator_key,
        learning=learning,
    )
