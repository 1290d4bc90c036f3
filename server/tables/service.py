"""The table service: the one writer per table, put together from its three jobs.

- ``cache.TableCache``: the newest :class:`TableData` of each table this process has seen, a
  short history (for reconnecting clients), the reads that refresh them and the writer locks;
- ``lobby.Lobby``: making tables, taking and handing over seats, dealing the game;
- ``play.Play``: game commands, appended one versioned step at a time.

This module wires them to the fan-out and to local watchers (``on_change``), and answers what
is read beside them: who a token is, who is away, the published record. Its methods are the
whole face other packages see: each one a real method (not a name bound to a part's method),
so that every call path shows in a traceback, a type check and an editor. What else reads or
writes the database beside the tables gets the service's session source (``sessions``), with
the one SQLite writer lock the tables write behind. Every write, lobby or
play, runs inside the table's writer lock and one database transaction that bumps ``version``
only if it is still the version the change was computed from; in one process the lock
serializes writers, across processes the version check (and a row lock on Postgres) does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import metrics
from server.clocks import model as clock_model
from server.engine import Command
from server.settings import Settings
from server.store import queries
from server.store.sessions import SessionSource

from . import clock as table_clock
from . import mine
from . import seats as seat_model
from .cache import TableCache, table_data
from .data import ServiceError, TableData, hash_token, is_table_id, unknown_table
from .fanout import FanOut
from .lobby import Lobby
from .play import CLOSE_GRACE, Play
from .seats import Access, Actor
from .suggest import Suggester

ClockChange = Callable[[TableData, clock_model.Clock], tuple[clock_model.Clock, dict[str, Any]]]


class TableService:
    """Creates, joins, starts and plays tables; the only code that writes them."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        fanout: FanOut,
    ) -> None:
        self.settings = settings
        # Handed to whatever else reads or writes beside the tables (the keeper, the outbox).
        self.sessions = SessionSource(sessions, one_writer=not settings.is_postgres)
        self.fanout = fanout
        self.on_change: list[Callable[[TableData], None]] = []
        # Seats with a connection in this process (the app sets it to the hub's answer).
        self.presence: Callable[[str], frozenset[int]] = lambda _table_id: frozenset()
        self._noted: dict[tuple[str, int], float] = {}  # seats seen, not yet written
        # What the turn clocks read as now (seconds since the epoch); tests inject their own.
        self.now: Callable[[], float] = time.time

        self.cache = TableCache(settings, sessions, self.sessions)
        now = lambda: self.now()  # noqa: E731 - read when called: tests replace ``now``
        self.lobby = Lobby(settings, sessions, self.cache, self._announce_change, self._away, now)
        self.play = Play(settings, sessions, self.cache, fanout, self._announce, now)
        # A learning table's "what would the bot do?".
        self.suggester = Suggester(settings.secret_key, self.cache)

    # ---------------------------------------------------------------- reading (the cache)

    async def get(self, table_id: str, min_version: int = 0) -> TableData:
        """The table at ``min_version`` or newer. Raises ServiceError('unknown_table')."""
        return await self.cache.get(table_id, min_version)

    async def get_stored(self, table_id: str) -> TableData:
        """The table as stored now, even if another process changed it since it was held."""
        return await self.cache.get_stored(table_id)

    def at_version(self, table_id: str, version: int) -> TableData | None:
        """The table as it was at ``version``, if still held in memory."""
        return self.cache.at_version(table_id, version)

    # ---------------------------------------------------------------- lobby changes

    async def authenticate(self, table_id: str, token: str) -> Access:
        """The seat ``token`` owns, and whether it plays it now. Raises
        ServiceError('bad_token', 'unknown_table')."""
        return await self.lobby.authenticate(table_id, token)

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
        address: str | None = None,
        learning: bool = False,
    ) -> tuple[TableData, str]:
        """A new open table with its creator in seat 0; returns it and seat 0's token
        (``learning``: the bot's suggestions are on)."""
        return await self.lobby.create_table(
            game_name, seats, options, bots, name, seed, public, clock, address, learning
        )

    async def join(
        self, table_id: str, name: str, seat: int | None = None, invite: str | None = None
    ) -> tuple[int, str]:
        """Seat a person called ``name``; returns the seat and its token."""
        return await self.lobby.join(table_id, name, seat, invite)

    async def assign_bot(self, table_id: str, token: str, seat: int, kind: str) -> TableData:
        """Let a bot of ``kind`` play ``seat`` (rules: ``seats.check_handover``)."""
        return await self.lobby.assign_bot(table_id, token, seat, kind)

    async def reclaim(self, table_id: str, token: str, seat: int) -> TableData:
        """The owner of ``seat`` plays it again instead of the bot standing in."""
        return await self.lobby.reclaim(table_id, token, seat)

    async def start(self, table_id: str, token: str) -> TableData:
        """Deal the game; only seat 0's own token may."""
        return await self.lobby.start(table_id, token)

    async def rematch(self, table_id: str, token: str) -> tuple[str, int, str]:
        """The rematch of the finished ``table_id`` for the person whose seat ``token``
        owns: (new table id, their seat there, their token there)."""
        return await self.lobby.rematch(table_id, token)

    async def set_clock(self, table_id: str, token: str, config: dict[str, Any]) -> TableData:
        """The creator changes the clock settings before the start."""
        return await self.lobby.set_clock(table_id, token, config)

    async def change_clock(
        self,
        table_id: str,
        change: ClockChange,
        version: int | None = None,
        seats: dict[int, str | None] | None = None,
        actor: int | None = None,
    ) -> TableData:
        """Store ``change(data, clock)`` → (new clock, more table values) as one versioned
        step (the clock acts and the keeper)."""
        return await self.lobby.change_clock(table_id, change, version, seats, actor)

    # ---------------------------------------------------------------- play

    async def submit(
        self,
        table_id: str,
        seat: int,
        cmd: Command,
        client_id: str | None = None,
        by: Actor | table_clock.Cover | table_clock.BotTurn | None = None,
    ) -> int:
        """Play ``cmd`` for ``seat``; returns the table version once it is committed."""
        return await self.play.submit(table_id, seat, cmd, client_id, by)

    async def close(self, grace: float = CLOSE_GRACE) -> None:
        """Close the command path's connections (the app does this at shutdown), waiting at
        most ``grace`` seconds for those still out."""
        await self.play.close(grace)

    # ---------------------------------------------------------------- a learning table

    async def suggest(self, table_id: str, token: str, seat: int) -> dict[str, Any]:
        """The bot's three best moves for ``seat``, from its own view (``Suggester.ask``)."""
        return await self.suggester.ask(table_id, token, seat)

    # ---------------------------------------------------------------- reading beside the cache

    async def list_live(self) -> list[TableData]:
        """Open and playing public tables (without their states) that changed within
        ``GUILDHALL_STALE_AFTER`` days, newest first."""
        since = datetime.now(UTC) - timedelta(days=self.settings.stale_after)
        async with self.sessions.read() as session:
            rows = await queries.live_tables(session, public_only=True, changed_since=since)
            seats = await queries.seats_of_tables(session, [row.id for row in rows])
        return [table_data(row, seats[row.id], state=None, commands=[]) for row in rows]

    async def list_mine(self, asked: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """``mine.seat_status`` of each (table id, seat token) in ``asked``, in order; an
        entry the server cannot answer is ``{table_id, error}`` with 'unknown_table' (no such
        table, or not a table id) or 'bad_token' (the token owns no seat of it), and nothing
        else."""
        asked = asked[: mine.MAX_ASKED]
        ids = sorted({table_id for table_id, _ in asked if is_table_id(table_id)})
        # One query for every table's version; only tables changed since they were last
        # held here are read again.
        versions = await self.cache.read(lambda session: queries.table_versions(session, ids))
        answers = []
        for table_id, token in asked:
            try:
                if table_id not in versions:
                    raise unknown_table(table_id)
                data = await self.cache.get(table_id, versions[table_id])
            except ServiceError as exc:  # also a table deleted since the query
                answers.append({"table_id": table_id, "error": exc.code})
                continue
            found = seat_model.access(data, self.settings.secret_key, token)
            if found is None:
                answers.append({"table_id": table_id, "error": "bad_token"})
                continue
            answers.append(mine.seat_status(data, found))
        return answers

    def token_hash(self, token: str) -> str:
        """What the service compares a token by (connections keep it instead of the token)."""
        return hash_token(self.settings.secret_key, token)

    def invite_code(self, table_id: str) -> str:
        return seat_model.invite_code(self.settings.secret_key, table_id)

    async def record(self, table_id: str) -> dict[str, Any]:
        """What ``guildhall verify`` replays. Raises ServiceError('not_finished') till the end.

        A table not finished costs one version query (from the copy held here): asking for
        a live table's record, or its replay, again and again never loads its commands.
        """
        if (await self.cache.get_stored(table_id)).status != "finished":
            raise ServiceError("not_finished", "the record is published once the game ends")
        async with self.sessions.read() as session:
            data = await self.cache.load(session, table_id)
            rows = await queries.command_rows(session, table_id)
        if data.status != "finished":
            raise ServiceError("not_finished", "the record is published once the game ends")
        return {
            "table_id": data.id,
            "game": data.game,
            "seats": len(data.seats),
            "names": [s.name for s in data.seats],
            "bots": [s.bot for s in data.seats],
            "options": data.options,
            "learning": data.learning,
            "seed": data.seed,
            "seed_sha256": data.seed_sha256,
            # ``by`` only on a command a bot made (``queries.record_entry``).
            "commands": [queries.record_entry(r) for r in rows],
            "result": data.result,
            "seat_log": list(data.seat_log),
            # Since openings are stored: what the log began with (null: dealt before).
            "opening": None if data.opening is None else [dict(e) for e in data.opening],
        }

    # ---------------------------------------------------------------- presence

    async def away(self, table_id: str) -> dict[int, float | None]:
        """Seconds each person-owned seat's player has been away (None: may be connected)."""
        async with self.sessions.read() as session:
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
            async with self.sessions.write() as session:
                await queries.mark_seen_many(session, moments)
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

    # ---------------------------------------------------------------- telling others

    async def _announce_change(self, data: TableData) -> None:
        await self._announce(data, False)

    async def _announce(self, data: TableData, notified: bool) -> None:
        """Tell every process's connections, and local watchers (bots), about a new version.

        ``notified``: the commit itself carried the NOTIFY to the other processes, so only
        this process's listeners are told here.
        """
        if notified:
            self.fanout.announce_local(data.id, data.version)  # type: ignore[attr-defined]
        else:
            await self.fanout.publish(data.id, data.version)
        metrics.set_active_tables(self.cache.playing())
        for callback in list(self.on_change):
            callback(data)
