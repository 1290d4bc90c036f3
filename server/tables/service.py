"""The table service: the one writer per table.

Every change goes through here, in a fixed order — table exists → not finished → seat may act
→ version → engine → commit → broadcast — inside one database transaction that appends the
command (unique ``(table_id, seq)``), saves the state snapshot and bumps ``version`` only if
it is still the version the change was computed from. In one process an ``asyncio.Lock`` per
table serializes writers; across processes the version check (and a row lock on Postgres)
does, and a writer that loses the race recomputes from the new state.

The service keeps the newest :class:`TableData` of each table it has seen (and a short
history, for reconnecting clients); it reloads from the database whenever the stored version
is newer than what it holds.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

import asyncpg
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from server import metrics
from server.clocks import model as clock_model
from server.clocks import table as table_clock
from server.engine import Command, Event, get_game
from server.settings import Settings
from server.store import queries
from server.store.db import asyncpg_dsn
from server.store.models import CommandRow, SeatRow, TableRow

from . import seats as seat_model
from .data import (
    SeatInfo,
    ServiceError,
    TableData,
    check_table_id,
    hash_token,
    new_token,
    seed_hash,
)
from .fanout import FanOut
from .seats import Access, Actor

log = logging.getLogger(__name__)
T = TypeVar("T")

HISTORY = 64  # versions kept per table so a reconnecting client can get a patch
HELD_TABLES = 2000  # beyond this many tables in memory, finished ones are forgotten
WRITE_ATTEMPTS = 5
SNAPSHOT_EVERY = 16  # steps between two stored copies of the whole state


class TableService:
    """Creates, joins, starts and plays tables; the only code that writes them."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        fanout: FanOut,
    ) -> None:
        self.settings = settings
        self._sessions = sessions
        self._engine: AsyncEngine = sessions.kw["bind"]
        self.fanout = fanout
        # A fan-out that can ride on the command's own statement (Postgres NOTIFY) saves
        # the command a second round trip after its commit.
        self._notifies_in_commit = settings.is_postgres and hasattr(fanout, "notification")
        self._command_pool: asyncpg.Pool | None = None
        self._pool_lock = asyncio.Lock()
        self._tables: dict[str, TableData] = {}
        self._history: dict[str, dict[int, TableData]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._loading: dict[str, asyncio.Future[TableData]] = {}  # reads in flight, by table
        # SQLite allows one writer; two interleaved write transactions in one process would
        # make the later one fail on a stale snapshot instead of waiting. Postgres needs none.
        self._sqlite_writer = None if settings.is_postgres else asyncio.Lock()
        self.on_change: list[Callable[[TableData], None]] = []
        # Seats with a connection in this process (the app sets it to the hub's answer).
        self.presence: Callable[[str], frozenset[int]] = lambda _table_id: frozenset()
        self._noted: dict[tuple[str, int], float] = {}  # seats seen, not yet written
        # What the turn clocks read as now (seconds since the epoch); tests inject their own.
        self.now: Callable[[], float] = time.time

    # ---------------------------------------------------------------- reading

    async def get(self, table_id: str, min_version: int = 0) -> TableData:
        """The table at ``min_version`` or newer. Raises ServiceError('unknown_table', 404)."""
        held = self._tables.get(table_id)
        if held is not None and held.version >= min_version:
            return held
        lock = self._locks.get(table_id)
        if held is not None and lock is not None and lock.locked():
            # This process is writing the table: the version asked for is most likely that
            # write's (its NOTIFY can arrive, or the fan-out's sweep see it, before the
            # writer resumes). Wait for it instead of reading what it is about to hand over.
            async with lock:
                pass
            held = self._tables.get(table_id)
            if held is not None and held.version >= min_version:
                return held
        loading = self._loading.get(table_id)
        if loading is None:
            # One read for every connection of the table that asks at once.
            loading = asyncio.ensure_future(self._reload(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda done: self._loaded(table_id, done))
        return await asyncio.shield(loading)

    async def get_stored(self, table_id: str) -> TableData:
        """The table as stored now, even if another process changed it (one cheap query when
        nothing changed). Raises ServiceError('unknown_table', 404)."""
        check_table_id(table_id)
        version = await self._read(lambda session: queries.table_version(session, table_id))
        if version is None:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}", 404)
        return await self.get(table_id, version)

    def at_version(self, table_id: str, version: int) -> TableData | None:
        """The table as it was at ``version``, if still held in memory."""
        return self._history.get(table_id, {}).get(version)

    async def list_live(self) -> list[TableData]:
        """Open and playing public tables (without their states), newest first."""
        async with self._sessions() as session:
            rows = await queries.live_tables(session, public_only=True)
            seats = await queries.seats_of_tables(session, [row.id for row in rows])
        return [_table_data(row, seats[row.id], state=None, commands=[]) for row in rows]

    async def authenticate(self, table_id: str, token: str) -> Access:
        """The seat ``token`` owns, and whether it plays it now (no bot standing in), as of
        the stored version. Raises ServiceError('bad_token', 403) when it owns none."""
        data = await self.get_stored(table_id)
        found = seat_model.access(data, self.settings.secret_key, token)
        if found is None:
            raise ServiceError("bad_token", "this token belongs to no seat of the table", 403)
        return found

    def token_hash(self, token: str) -> str:
        """What the service compares a token by (connections keep it instead of the token)."""
        return self._hash(token)

    def invite_code(self, table_id: str) -> str:
        return seat_model.invite_code(self.settings.secret_key, table_id)

    async def away(self, table_id: str) -> dict[int, float | None]:
        """Seconds each person-owned seat's player has been away (None: may be connected)."""
        async with self._sessions() as session:
            seen = await queries.seen_at(session, table_id)
        return self._away(table_id, seen)

    def _away(self, table_id: str, seen: dict[int, float | None]) -> dict[int, float | None]:
        here, now = self.presence(table_id), time.time()
        after = self.settings.handover_after
        return {
            seat: seat_model.away_seconds(at, seat in here, now, after) for seat, at in seen.items()
        }

    async def mark_seen(self, seen: dict[str, set[int]]) -> None:
        """Note that the seats in ``seen`` (by table) have a connection in this process now,
        and write the moments noted since the last call (``note_seen``)."""
        now = time.time()
        moments = {(table_id, seat): now for table_id, seats in seen.items() for seat in seats}
        departures, self._noted = self._noted, {}
        for key, at in departures.items():
            moments.setdefault(key, at)
        if not moments:
            return
        try:
            async with self._sqlite_lock(), self._sessions() as session:
                for (table_id, seat), at in moments.items():
                    await queries.mark_seen(session, table_id, seat, at)
                await session.commit()
        except BaseException:
            for key, at in departures.items():
                self._noted.setdefault(key, at)
            raise

    def note_seen(self, table_id: str, seat: int) -> None:
        """A connection of ``seat`` said hello or closed now; the next ``mark_seen`` (the
        heartbeat) writes when. A connection never waits on the database for presence: it
        also closes while the app shuts down."""
        self._noted[(table_id, seat)] = time.time()

    async def record(self, table_id: str) -> dict[str, Any]:
        """What ``guildhall verify`` replays. Raises ServiceError('not_finished') till the end."""
        async with self._sessions() as session:
            data = await self._load(session, table_id)
            rows = await queries.command_rows(session, table_id)
        if data.status != "finished":
            raise ServiceError("not_finished", "the record is published once the game ends", 409)
        return {
            "table_id": data.id,
            "game": data.game,
            "seats": len(data.seats),
            "names": [s.name for s in data.seats],
            "bots": [s.bot for s in data.seats],
            "options": data.options,
            "seed": data.seed,
            "seed_sha256": data.seed_sha256,
            "commands": [{"seat": r.seat, "cmd": r.command} for r in rows],
            "result": data.result,
        }

    # ---------------------------------------------------------------- lobby changes

    async def create_table(
        self,
        game_name: str,
        seats: int,
        options: dict[str, Any],
        bots: list[str | None],
        name: str,
        seed: str | None = None,
        public: bool = False,
        clock: dict[str, Any] | None = None,
    ) -> tuple[TableData, str]:
        """A new open table with its creator in seat 0; returns it and seat 0's token.

        ``public``: listed in the lobby, its free seats open to anyone; otherwise joining
        needs the invite secret (``invite_code``). ``clock``: the clock settings
        (``server.clocks.model.check_config``; default untimed), 'bad_clock' if refused.

        Raises RuleError for an unknown game or options the game refuses, ServiceError for a
        bad seat count or bot list. ``seed`` is for tests; tables get one from ``secrets``.
        """
        game = get_game(game_name)
        bots = _check_bots(bots, seats)
        if not game.min_seats <= seats <= game.max_seats:
            raise ServiceError(
                "bad_seats",
                f"{game.title} takes {game.min_seats}-{game.max_seats} seats, not {seats}",
            )
        defaults = game.default_options()
        # The lobby offers every game's options; one a game lacks is fine while switched off.
        chosen = {k: v for k, v in options.items() if k in defaults or v not in (False, None)}
        full_options = {**defaults, **chosen}
        seed = seed or secrets.token_hex(32)
        game.new(seats, seed, full_options)  # refuses bad options now, not at the start
        turn_clock = clock_model.new_clock(_clock_config(clock), seats)
        table_id, token = secrets.token_urlsafe(6), new_token()
        async with self._sqlite_lock(), self._sessions() as session:
            row = _new_table_row(table_id, game_name, seats, full_options, seed, public)
            row.clock = turn_clock
            session.add(row)
            await session.flush()  # the table row first: seats reference it
            for seat in range(seats):
                session.add(SeatRow(table_id=table_id, seat=seat, bot=bots[seat]))
            await session.flush()
            await queries.update_seat(
                session, table_id, 0, name=name, token_hash=self._hash(token), seen_at=time.time()
            )
            await session.commit()
        return await self._reload(table_id), token

    async def join(
        self, table_id: str, name: str, seat: int | None = None, invite: str | None = None
    ) -> tuple[int, str]:
        """Seat a person called ``name`` (see ``seats.seat_to_join`` for which seat).

        Returns (seat, token). Raises ServiceError: 'unknown_table', 'invite_required',
        'finished', 'bad_seat', 'seat_taken', 'seat_kept', 'table_full'.
        """
        invited = seat_model.is_invited(self.settings.secret_key, table_id, invite)
        token = new_token()
        chosen: dict[str, int] = {}

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            chosen["seat"] = picked = seat_model.seat_to_join(data, seat, invited)
            replaced = data.seats[picked].bot
            await queries.update_seat(
                session,
                table_id,
                picked,
                name=name,
                token_hash=self._hash(token),
                bot=None,
                seen_at=time.time(),
            )
            if data.status != "playing" or replaced is None:
                return {}
            entry = {"type": "seat_joined", "seat": picked, "name": name, "bot": replaced}
            clock = self._seat_clock(data, picked, None)
            return {**_logged_seat_change(data, entry), **clock}

        await self._change(table_id, write)
        return chosen["seat"], token

    async def assign_bot(self, table_id: str, token: str, seat: int, kind: str) -> TableData:
        """Let a bot of ``kind`` play ``seat`` (rules: ``seats.check_handover``).

        An owned seat keeps its owner, who may take it back; from this version on the
        owner's token neither plays nor reads the seat. Raises ServiceError: 'bad_token',
        'bad_seat', 'bad_bot', 'finished', 'not_your_seat', 'player_present'.
        """
        kind = _canonical_bot(kind)
        by = await self.authenticate(table_id, token)

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            seen = await queries.seen_at(session, table_id)
            away = self._away(table_id, seen).get(seat)
            seat_model.check_handover(data, by, seat, away, self.settings.handover_after)
            info = data.seats[seat]
            await queries.update_seat(session, table_id, seat, bot=kind)
            clock = self._seat_clock(data, seat, kind) if data.status == "playing" else {}
            if data.status != "playing" or info.token_hash is None or info.bot is not None:
                return clock
            entry = {"type": "bot_took_over", "seat": seat, "name": info.name, "bot": kind}
            return {**_logged_seat_change(data, {**entry, "by": by.seat}), **clock}

        return await self._change(table_id, write)

    async def reclaim(self, table_id: str, token: str, seat: int) -> TableData:
        """The owner of ``seat`` plays it again instead of the bot standing in.

        Raises ServiceError: 'bad_token', 'bad_seat', 'finished', 'not_your_seat',
        'not_stand_in'.
        """
        by = await self.authenticate(table_id, token)

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            seat_model.check_reclaim(data, by, seat)
            info = data.seats[seat]
            await queries.update_seat(session, table_id, seat, bot=None, seen_at=time.time())
            if data.status != "playing":
                return {}
            entry = {"type": "seat_reclaimed", "seat": seat, "name": info.name, "bot": info.bot}
            return {**_logged_seat_change(data, entry), **self._seat_clock(data, seat, None)}

        return await self._change(table_id, write)

    async def start(self, table_id: str, token: str) -> TableData:
        """Deal the game. Only seat 0's own token may; every seat must be a person or a bot.

        Raises ServiceError: 'bad_token', 'not_creator', 'already_started', 'seats_open'.
        """
        seat_model.check_creator(await self.authenticate(table_id, token))

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            if data.status != "open":
                raise ServiceError("already_started", "the game has already started", 409)
            free = [s.seat for s in data.seats if not s.is_taken]
            if free:
                raise ServiceError(
                    "seats_open", f"seats {free} have nobody; invite or add bots", 409
                )
            state = get_game(data.game).new(len(data.seats), data.seed, data.options)
            clock, due = table_clock.started(
                data.clock, data, state, self.now(), self.settings.bot_delay
            )
            return {"status": "playing", "state": state, "clock": clock, "due_at": due}

        return await self._change(table_id, write)

    async def set_clock(self, table_id: str, token: str, config: dict[str, Any]) -> TableData:
        """The creator changes the clock settings before the start.

        Raises ServiceError: 'bad_token', 'not_creator', 'already_started', 'bad_clock'.
        """
        seat_model.check_creator(await self.authenticate(table_id, token))
        chosen = _clock_config(config)

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            if data.status != "open":
                raise ServiceError("already_started", "the clock is set before the start", 409)
            return {"clock": clock_model.new_clock(chosen, len(data.seats))}

        return await self._change(table_id, write)

    async def change_clock(
        self,
        table_id: str,
        change: Callable[[TableData, clock_model.Clock], tuple[clock_model.Clock, dict[str, Any]]],
        version: int | None = None,
        seats: dict[int, str | None] | None = None,
    ) -> TableData:
        """Store ``change(data, clock)`` → (new clock, more table values) as one versioned step.

        ``version``: only if the table is still at that version ('moved_on', 409, otherwise:
        the compare-and-set a timeout fires through). ``seats``: seats whose bot changes with
        it (None: the person plays it again), through the seat model's stand-in.
        """

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            if version is not None and data.version != version:
                raise ServiceError("moved_on", "the table moved on first", 409)
            if data.status != "playing" or data.clock is None:
                raise ServiceError("not_started", "the table has no running clock", 409)
            clock, values = change(data, data.clock)
            changed = data
            for seat, kind in (seats or {}).items():
                await queries.update_seat(session, table_id, seat, bot=kind)
                new_seats = list(changed.seats)
                new_seats[seat] = replace(new_seats[seat], bot=kind)
                changed = replace(changed, seats=tuple(new_seats))
            due = table_clock.due(clock, changed, data.state, self.settings.bot_delay)
            return {**values, "clock": clock, "due_at": due}

        return await self._change(table_id, write)

    def _seat_clock(self, data: TableData, seat: int, bot: str | None) -> dict[str, Any]:
        """Clock values for a playing table whose ``seat`` is played by ``bot`` from now on
        (None: by its person, whose decision then starts afresh)."""
        if data.clock is None:
            return {}
        clock = data.clock
        if bot is None:
            clock = clock_model.taken_back(clock, seat, self.now())
        seats = list(data.seats)
        seats[seat] = replace(seats[seat], bot=bot)
        changed = replace(data, seats=tuple(seats))
        return {
            "clock": clock,
            "due_at": table_clock.due(clock, changed, data.state, self.settings.bot_delay),
        }

    # ---------------------------------------------------------------- game commands

    async def submit(
        self,
        table_id: str,
        seat: int,
        cmd: Command,
        client_id: str | None = None,
        by: Actor | table_clock.Cover | None = None,
    ) -> int:
        """Play ``cmd`` for ``seat``; returns the table version once it is committed.

        ``by`` is who sends it: a person's token hash or ``seats.BOT``; it must play ``seat``
        at the version the command is decided on (``seats.check_plays``), else 'seat_lost'.
        None skips that check: only for callers that are the server itself (tools, tests).
        A ``client_id`` already committed for this seat returns that command's version again.
        Raises ServiceError ('unknown_table', 'seat_lost', 'not_started', 'finished',
        'not_your_turn', 'conflict') or the engine's RuleError; nothing is stored then.
        """
        started = time.perf_counter()
        async with self._lock(table_id):
            for attempt in range(WRITE_ATTEMPTS):
                outcome = await _busy_is_none(
                    self._try_submit(table_id, seat, cmd, client_id, by, attempt > 0)
                )
                if outcome is not None:
                    break
                self._tables.pop(table_id, None)
            else:
                raise ServiceError("conflict", "the table kept changing; try again", 409)
        version, data = outcome
        if data is not None:
            metrics.record_command(time.perf_counter() - started)
            await self._announce(data, notified=self._notifies_in_commit)
        return version

    async def _try_submit(
        self,
        table_id: str,
        seat: int,
        cmd: Command,
        client_id: str | None,
        by: Actor | table_clock.Cover | None = None,
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
        data = self._tables.get(table_id)
        if data is None or repeat_first:
            data = await self._reload(table_id)
        # Checked on the version the command is decided on: if a seat change elsewhere moved
        # the table on, the write below changes nothing and the retry checks the new version.
        cover = None
        if isinstance(by, table_clock.Cover):
            cover = by
            # A timeout's bot move only on the version the timeout was seen at.
            if data.version != cover.version:
                raise ServiceError("moved_on", "the table moved on before the timeout", 409)
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
            data, state, seat, cmd, self.now(), self.settings.bot_delay, cover
        )
        seat_log = None
        if cover is not None and cover.newly:
            name = data.seats[seat].name
            entry = {"type": "timed_out", "seat": seat, "name": name, "bot": None}
            seat_log = _logged_seat_change(data, entry)["seat_log"]
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
        return new.version, self._remember(new)

    async def _append(self, write: queries.CommandWrite) -> bool:
        """Store one command: one statement on Postgres, one short transaction on SQLite."""
        if self.settings.is_postgres:
            notify = None
            if self._notifies_in_commit:
                notify = self.fanout.notification(write.table_id, write.version)  # type: ignore[attr-defined]
            pool = self._command_pool or await self._open_command_pool()
            try:
                async with pool.acquire() as conn:
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
                )
        return self._command_pool

    async def close(self) -> None:
        """Close the command path's connections (the app does this at shutdown)."""
        pool, self._command_pool = self._command_pool, None
        if pool is not None:
            await pool.close()

    async def _committed_version(self, table_id: str, seat: int, client_id: str) -> int | None:
        """The version a committed command of ``seat`` with ``client_id`` made, if any."""
        async with self._sessions() as session:
            done = await queries.command_by_client_id(session, table_id, seat, client_id)
        return None if done is None else done.version

    # ---------------------------------------------------------------- internals

    async def _change(self, table_id: str, write: Any) -> TableData:
        """Run a lobby change (``write(session, data)`` → table values) as one versioned step."""
        async with self._lock(table_id):
            for _ in range(WRITE_ATTEMPTS):
                written = await _busy_is_none(self._try_change(table_id, write))
                if written is not None:
                    new = written
                    break
                self._tables.pop(table_id, None)
            else:
                raise ServiceError("conflict", "the table kept changing; try again", 409)
        await self._announce(new)
        return new

    async def _try_change(self, table_id: str, write: Any) -> TableData | None:
        async with self._sessions() as session:
            data = await self._current(session, table_id)
            values = await write(session, data)
            if not await queries.bump_version(session, table_id, data.version, **values):
                return None
            await session.commit()
            return self._remember(await self._load(session, table_id))

    async def _announce(self, data: TableData, notified: bool = False) -> None:
        """Tell every process's connections, and local watchers (bots), about a new version.

        ``notified``: the commit itself carried the NOTIFY to the other processes, so only
        this process's listeners are told here.
        """
        if notified:
            self.fanout.announce_local(data.id, data.version)  # type: ignore[attr-defined]
        else:
            await self.fanout.publish(data.id, data.version)
        metrics.set_active_tables(sum(t.status == "playing" for t in self._tables.values()))
        for callback in list(self.on_change):
            callback(data)

    @asynccontextmanager
    async def _lock(self, table_id: str) -> AsyncIterator[None]:
        """The table's writer lock (and, on SQLite, the process's one writer lock)."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock, self._sqlite_lock():
            yield

    @asynccontextmanager
    async def _sqlite_lock(self) -> AsyncIterator[None]:
        if self._sqlite_writer is None:
            yield
            return
        async with self._sqlite_writer:
            yield

    async def _current(self, session: AsyncSession, table_id: str) -> TableData:
        """The table as stored now (row-locked on Postgres), from memory when that is current.

        Only the version is read (and locked) first; the row with its state only when the
        held copy is out of date.
        """
        check_table_id(table_id)
        version = await queries.table_version(session, table_id, lock=True)
        if version is None:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}", 404)
        held = self._tables.get(table_id)
        if held is not None and held.version == version:
            return held
        return self._remember(await self._load(session, table_id))

    def _loaded(self, table_id: str, done: asyncio.Future[TableData]) -> None:
        if self._loading.get(table_id) is done:
            del self._loading[table_id]
        if not done.cancelled():
            done.exception()  # retrieved here too, in case every asker has gone

    async def _reload(self, table_id: str) -> TableData:
        return self._remember(await self._read(lambda session: self._load(session, table_id)))

    async def _read(self, query: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run a read in a session, once more on a fresh connection if the pooled one had
        died (connections are not pinged before use: the first error finds a dead one)."""
        for attempt in (1, 2):
            try:
                async with self._sessions() as session:
                    return await query(session)
            except DBAPIError as exc:
                if not exc.connection_invalidated or attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _load(
        self, session: AsyncSession, table_id: str, row: TableRow | None = None
    ) -> TableData:
        check_table_id(table_id)
        held = self._tables.get(table_id)
        if row is None and held is not None and held.state is not None:
            return await self._load_newer(session, held)
        row = row or await queries.table_row(session, table_id)
        if row is None:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}", 404)
        seats = await queries.seat_rows(session, table_id)
        commands = await queries.command_rows(session, table_id)
        return _table_data(row, seats, _replayed(row, commands), commands)

    async def _load_newer(self, session: AsyncSession, held: TableData) -> TableData:
        """The table as stored, from the copy held here: only the row without its state, the
        seats, and the commands after the held step are read, and those commands applied
        to the held state (what another process accepted is replayed, not re-read)."""
        row = await queries.table_row(session, held.id, with_state=False)
        if row is None:
            raise ServiceError("unknown_table", f"there is no table {held.id!r}", 404)
        seats = await queries.seat_rows(session, held.id)
        newer = await queries.command_rows(session, held.id, after=held.seq)
        game = get_game(held.game)
        state: Any = held.state
        log = list(held.log)
        for command in newer:
            state, _ = game.apply(state, command.seat, command.command)
            log.extend(_events(command))
        fresh = _table_data(row, seats, state, [])
        return replace(fresh, log=tuple(log), seq=newer[-1].seq if newer else held.seq, state=state)

    def _remember(self, data: TableData) -> TableData:
        """Hold ``data`` unless something newer is held; returns the newest held."""
        held = self._tables.get(data.id)
        if held is not None and held.version > data.version:
            return held
        self._tables[data.id] = data
        history = self._history.setdefault(data.id, {})
        history[data.version] = data
        for old in sorted(history)[:-HISTORY]:
            del history[old]
        if len(self._tables) > HELD_TABLES:
            self._forget_finished()
        return data

    def _forget_finished(self) -> None:
        """Drop finished tables from memory (they reload from the database when asked for)."""
        for table_id in [t.id for t in self._tables.values() if t.status == "finished"]:
            self._tables.pop(table_id, None)
            self._history.pop(table_id, None)

    def _hash(self, token: str) -> str:
        return hash_token(self.settings.secret_key, token)


# -------------------------------------------------------------------- helpers


class _Outraced(Exception):
    """The optimistic check failed: another writer moved the table on first."""


class DroppedConnection(Exception):
    """A pooled database connection turned out dead; it was discarded, nothing committed."""


# What the asyncpg driver raises on a connection that died while idle in the pool (the
# server restarted, or an administrator ended the session); a connection killed that way
# can also leave asyncpg mid-operation, which it reports as an InternalClientError.
DRIVER_CONNECTION_ERRORS = (
    OSError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
)


async def _busy_is_none(attempt: Awaitable[T]) -> T | None:
    """The attempt's value, or None when it should simply be tried again: another process
    took step ``seq`` (the unique key refuses ours), holds SQLite's write lock, or the
    connection had died in the pool."""
    try:
        return await attempt
    except (IntegrityError, asyncpg.UniqueViolationError, DroppedConnection):
        return None
    except DBAPIError as exc:
        if exc.connection_invalidated:
            return None  # the pool has dropped that connection; the next one is fresh
        if not isinstance(exc, OperationalError):
            raise
        if "locked" not in str(exc.orig) and "busy" not in str(exc.orig).lower():
            raise
        await asyncio.sleep(0.02)
        return None


def _clock_config(raw: dict[str, Any] | None) -> dict[str, Any]:
    try:
        return clock_model.check_config(raw)
    except clock_model.ClockError as exc:
        raise ServiceError(exc.code, exc.message) from None


def _snapshot_due(data: TableData, status: str, seq: int) -> bool:
    """Whether step ``seq`` stores the whole state, or only its command.

    Every SNAPSHOT_EVERY steps and at the end of the game; in between, loading a table
    replays at most SNAPSHOT_EVERY - 1 commands onto the stored state (``apply`` is
    deterministic), so each of those steps writes its command row and the version only.
    """
    return status != data.status or seq % SNAPSHOT_EVERY == 0


def _check_may_act(data: TableData, seat: int) -> None:
    if data.status == "open":
        raise ServiceError("not_started", "the game has not started yet", 409)
    if data.status == "finished" or data.state is None:
        raise ServiceError("finished", "the game is over", 409)
    game = get_game(data.game)
    # A seat outside ``to_act`` may still have a command (taking a sealed plan back).
    if seat not in game.to_act(data.state) and not game.legal(data.state, seat):
        raise ServiceError("not_your_turn", f"seat {seat} may not act now", 409)


def _check_bots(bots: list[str | None], seats: int) -> list[str | None]:
    """One entry per seat (missing: all people); seat 0 is the creator, never a bot."""
    if not bots:
        return [None] * seats
    if len(bots) != seats:
        raise ServiceError("bad_bots", f"bots lists {len(bots)} seats, the table has {seats}")
    if bots[0] is not None:
        raise ServiceError("bad_bots", "seat 0 is the creator's and cannot be a bot")
    return [None if kind is None else _canonical_bot(kind) for kind in bots]


def _canonical_bot(kind: str) -> str:
    from server.bots import canonical_kind  # the bots import the games; only load them here

    try:
        return canonical_kind(kind)
    except ValueError as exc:
        raise ServiceError("bad_bot", str(exc)) from None


def _logged_seat_change(data: TableData, entry: dict[str, Any]) -> dict[str, Any]:
    """The table values that add ``entry`` to the seat log, placed after the log so far."""
    return {"seat_log": [*data.seat_log, {**entry, "at": len(data.log)}]}


def _new_table_row(
    table_id: str, game: str, seats: int, options: dict[str, Any], seed: str, public: bool
) -> TableRow:
    return TableRow(
        id=table_id,
        game=game,
        seats=seats,
        options=options,
        seed=seed,
        seed_sha256=seed_hash(seed),
        status="open",
        version=1,
        public=public,
        seat_log=[],
    )


def _replayed(row: TableRow, commands: list[CommandRow]) -> Any:
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
    return [
        Event(type=e["type"], text=e["text"], to=e.get("to"), params=e.get("params") or {})
        for e in command.events
    ]


def _table_data(
    row: TableRow, seats: list[SeatRow], state: Any, commands: list[CommandRow]
) -> TableData:
    log: list[Event] = []
    for command in commands:
        log.extend(_events(command))
    return TableData(
        id=row.id,
        game=row.game,
        title=get_game(row.game).title,
        options=dict(row.options),
        seed=row.seed,
        seed_sha256=row.seed_sha256,
        status=row.status,
        version=row.version,
        seats=tuple(SeatInfo(s.seat, s.name, s.bot, s.token_hash) for s in seats),
        state=state,
        log=tuple(log),
        seq=commands[-1].seq if commands else 0,
        result=row.result,
        public=bool(row.public),
        seat_log=tuple(row.seat_log or ()),
        clock=row.clock,
        due_at=row.due_at,
    )
