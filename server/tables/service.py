"""The table service: the one writer per table, put together from its three jobs.

- ``cache.TableCache``: the newest :class:`TableData` of each table this process has seen, a
  short history (for reconnecting clients), the reads that refresh them and the writer locks;
- ``lobby.Lobby``: making tables, taking and handing over seats, dealing the game;
- ``play.Play``: game commands, appended one versioned step at a time.

This module wires them to the fan-out and to local watchers (``on_change``), and answers what
is read beside them: who a token is, who is away, the published record. Every write, lobby or
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
from server.settings import Settings
from server.store import queries

from . import mine
from . import seats as seat_model
from .cache import TableCache, table_data
from .data import ServiceError, TableData, hash_token, is_table_id, unknown_table
from .fanout import FanOut
from .lobby import Lobby
from .play import Play
from .suggest import Suggester


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
        self.fanout = fanout
        self.on_change: list[Callable[[TableData], None]] = []
        # Seats with a connection in this process (the app sets it to the hub's answer).
        self.presence: Callable[[str], frozenset[int]] = lambda _table_id: frozenset()
        self._noted: dict[tuple[str, int], float] = {}  # seats seen, not yet written
        # What the turn clocks read as now (seconds since the epoch); tests inject their own.
        self.now: Callable[[], float] = time.time

        self.cache = TableCache(settings, sessions)
        now = lambda: self.now()  # noqa: E731 - read when called: tests replace ``now``
        self.lobby = Lobby(settings, sessions, self.cache, self._announce_change, self._away, now)
        self.play = Play(settings, sessions, self.cache, fanout, self._announce, now)

        # Reading (the cache).
        self.get = self.cache.get
        self.get_stored = self.cache.get_stored
        self.at_version = self.cache.at_version
        # Lobby changes.
        self.authenticate = self.lobby.authenticate
        self.create_table = self.lobby.create_table
        self.join = self.lobby.join
        self.assign_bot = self.lobby.assign_bot
        self.reclaim = self.lobby.reclaim
        self.start = self.lobby.start
        self.rematch = self.lobby.rematch
        self.set_clock = self.lobby.set_clock
        self.change_clock = self.lobby.change_clock
        # Play.
        self.submit = self.play.submit
        self.close = self.play.close
        # A learning table's "what would the bot do?".
        self.suggester = Suggester(settings.secret_key, self.cache)
        self.suggest = self.suggester.ask

    # ---------------------------------------------------------------- reading beside the cache

    async def list_live(self) -> list[TableData]:
        """Open and playing public tables (without their states) that changed within
        ``GUILDHALL_STALE_AFTER`` days, newest first."""
        since = datetime.now(UTC) - timedelta(days=self.settings.stale_after)
        async with self._sessions() as session:
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
            raise ServiceError("not_finished", "the record is published once the game ends", 409)
        async with self._sessions() as session:
            data = await self.cache.load(session, table_id)
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
            "learning": data.learning,
            "seed": data.seed,
            "seed_sha256": data.seed_sha256,
            "commands": [{"seat": r.seat, "cmd": r.command} for r in rows],
            "result": data.result,
            "seat_log": list(data.seat_log),
        }

    # ---------------------------------------------------------------- presence

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
            async with self.cache.sqlite_lock(), self._sessions() as session:
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
