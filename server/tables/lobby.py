"""Lobby changes: making a table, taking and handing over seats, and dealing the game.

Each change is one versioned step: inside the table's writer lock, read the table as stored
(row-locked on Postgres), let the change check it and write its seat rows, then bump the
version only if it is still the one the change was computed from; a change that loses the race
is computed again on the new version. The rules of who may take which seat are in ``seats``.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.bots.kinds import canonical_kind
from server.clocks import model as clock_model
from server.engine import get_game, get_manifest, opening
from server.settings import Settings
from server.store import queries
from server.store.models import SeatRow, TableRow

from . import clock as table_clock
from . import limits, rematch
from . import seats as seat_model
from .cache import TableCache
from .data import ServiceError, TableData, hash_token, new_token, seed_hash, stored_options
from .seats import Access
from .writes import WRITE_ATTEMPTS, busy_is_none, kept_changing

Announce = Callable[[TableData], Awaitable[None]]
# A change's own step: check the table and write seat rows in the session; returns the table
# values (``queries.bump_version`` keywords) the step sets.
Write = Callable[[AsyncSession, TableData], Awaitable[dict[str, Any]]]


class Lobby:
    """Creates, joins, hands over, reclaims and starts tables, and sets their clocks."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        cache: TableCache,
        announce: Announce,
        away: Callable[[str, dict[int, float | None]], dict[int, float | None]],
        now: Callable[[], float],
    ) -> None:
        self.settings = settings
        self._sessions = sessions
        self._cache = cache
        self._announce = announce
        self._away = away
        self._now = now  # what the turn clocks read as now

    async def authenticate(self, table_id: str, token: str) -> Access:
        """The seat ``token`` owns, and whether it plays it now (no bot standing in), as of
        the stored version. Raises ServiceError('bad_token', 403) when it owns none."""
        data = await self._cache.get_stored(table_id)
        return seat_model.known_access(data, self.settings.secret_key, token)

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
        """A new open table with its creator in seat 0; returns it and seat 0's token.

        ``public``: listed in the lobby, its free seats open to anyone; otherwise joining
        needs the invite secret (``seats.invite_code``). ``clock``: the clock settings
        (``server.clocks.model.check_config``; default untimed), 'bad_clock' if refused.
        ``address``: the client's, for the creation limits (``limits.check_create``); None
        (the server's own tools) is not limited. ``learning``: each seat may ask what the
        strong bot would do (``server.tables.suggest``).

        Raises RuleError for an unknown game or options the game refuses, ServiceError for a
        bad seat count or bot list, or a limit. ``seed`` is for tests; tables get one from
        ``secrets``.
        """
        game = get_game(game_name)
        bots = _check_bots(bots, seats)
        if not game.min_seats <= seats <= game.max_seats:
            raise ServiceError(
                "bad_seats",
                f"{game.title} takes {game.min_seats}-{game.max_seats} seats, not {seats}",
            )
        # The game's manifest says which options it offers and what each may be (an option
        # it lacks is fine while switched off); the game itself then refuses what its rules
        # cannot play.
        full_options = {**game.default_options(), **get_manifest(game_name).check_options(options)}
        seed = seed or secrets.token_hex(32)
        game.new(seats, seed, full_options)  # refuses bad options now, not at the start
        turn_clock = clock_model.new_clock(_clock_config(clock), seats)
        table_id, token = secrets.token_urlsafe(6), new_token()
        creator = None if address is None else limits.address_key(self.settings.secret_key, address)
        async with self._cache.sqlite_lock(), self._sessions() as session:
            if creator is not None:
                await limits.check_create(session, self.settings, creator)
            row = _new_table_row(table_id, game_name, seats, full_options, seed, public, learning)
            row.clock, row.creator_key = turn_clock, creator
            session.add(row)
            await session.flush()  # the table row first: seats reference it
            for seat in range(seats):
                session.add(SeatRow(table_id=table_id, seat=seat, bot=bots[seat]))
            await session.flush()
            await queries.update_seat(
                session, table_id, 0, name=name, token_hash=self._hash(token), seen_at=time.time()
            )
            await session.commit()
        return await self._cache.reload(table_id), token

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
            # Joining is no visit: the seat is seen once its page connects. Until then its
            # player is not taken for connected (nor told "connected" to the creator).
            await queries.update_seat(
                session,
                table_id,
                picked,
                name=name,
                token_hash=self._hash(token),
                bot=None,
                seen_at=None,
            )
            if data.status != "playing" or replaced is None:
                return {}
            entry = {"type": "seat_joined", "seat": picked, "name": name, "bot": replaced}
            clock = self._seat_clock(data, picked, None)
            return {**seat_model.logged_change(data, entry), **clock}

        await self.change(table_id, write)
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
            if data.status == "playing" and all(s.bot for s in data.seats if s.seat != seat):
                await limits.check_bot_table(session, self.settings, table_id)
            info = data.seats[seat]
            await queries.update_seat(session, table_id, seat, bot=kind)
            clock = self._seat_clock(data, seat, kind) if data.status == "playing" else {}
            if data.status != "playing" or info.token_hash is None or info.bot is not None:
                return clock
            entry = {"type": "bot_took_over", "seat": seat, "name": info.name, "bot": kind}
            return {**seat_model.logged_change(data, {**entry, "by": by.seat}), **clock}

        return await self.change(table_id, write, actor=by.seat)

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
            return {**seat_model.logged_change(data, entry), **self._seat_clock(data, seat, None)}

        return await self.change(table_id, write, actor=by.seat)

    async def start(self, table_id: str, token: str) -> TableData:
        """Deal the game. Only seat 0's own token may; every seat must be a person or a bot.

        Raises ServiceError: 'bad_token', 'not_creator', 'already_started', 'seats_open'.
        """
        seat_model.check_creator(await self.authenticate(table_id, token))
        return await self.change(table_id, self._deal)

    async def _deal(self, session: AsyncSession, data: TableData) -> dict[str, Any]:
        if data.status != "open":
            raise ServiceError("already_started", "the game has already started")
        free = [s.seat for s in data.seats if not s.is_taken]
        if free:
            raise ServiceError("seats_open", f"seats {free} have nobody; invite or add bots")
        if all(s.bot for s in data.seats):
            await limits.check_bot_table(session, self.settings, data.id)
        game = get_game(data.game)
        state, events = opening(game, len(data.seats), data.seed, data.options)
        clock, due = table_clock.started(
            data.clock, data, state, self._now(), self.settings.bot_delay
        )
        # The opening's events are the log's first, stored as dealt (as a command's are).
        opened = [dict(ev) for ev in events]
        return {
            "status": "playing",
            "state": state,
            "clock": clock,
            "due_at": due,
            "opening": opened,
        }

    async def rematch(self, table_id: str, token: str) -> tuple[str, int, str]:
        """The rematch of the finished ``table_id`` for the person whose seat ``token`` owns:
        made by the first who asks, joined by every later ask (``rematch`` module).

        Returns (the rematch's id, the person's seat there, their seat token there). Asking
        counts as coming to the new table; it is dealt once every person has come. Raises
        ServiceError: 'unknown_table', 'bad_token', 'not_finished'.
        """
        data = await self._cache.get_stored(table_id)
        asking = seat_model.access(data, self.settings.secret_key, token)
        if asking is None:
            raise ServiceError("bad_token", "this token belongs to no seat of the table")
        rematch.check_finished(data)
        await self._count_act(table_id, asking.seat)
        new_id = data.rematch or await self._make_rematch(table_id)
        new_token = rematch.seat_token(self.settings.secret_key, new_id, self._hash(token))
        return new_id, await self._come_to(new_id, new_token), new_token

    async def _count_act(self, table_id: str, seat: int) -> None:
        """Count an act of ``seat``'s token that changes no version (``limits.check_act``),
        in a transaction of its own that locks the table row as a change would."""
        async with self._cache.sqlite_lock(), self._sessions() as session:
            await self._cache.current(session, table_id)
            await limits.check_act(session, self.settings, table_id, seat, self._now())
            await session.commit()

    async def _make_rematch(self, table_id: str) -> str:
        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            rematch.check_finished(data)
            if data.rematch is not None:
                raise rematch.AlreadyMade(data.rematch)
            new_id = secrets.token_urlsafe(6)
            options, config = data.options, rematch.clock_config(data)
            # The rematch is the same kind of table: a learning table's is one too.
            row = _new_table_row(
                new_id,
                data.game,
                len(data.seats),
                options,
                secrets.token_hex(32),
                data.public,
                data.learning,
            )
            # Not charged to an address: one rematch per finished game cannot flood anything.
            row.clock = clock_model.new_clock(config, len(data.seats))
            session.add(row)
            await session.flush()  # the table row first: seats reference it
            session.add_all(rematch.seat_rows(data, new_id, self.settings.secret_key))
            await session.flush()
            return {"rematch": new_id}

        try:
            made = (await self.change(table_id, write)).rematch
        except rematch.AlreadyMade as exc:  # another ask, maybe in another process, was first
            return exc.table_id
        assert made is not None
        return made

    async def _come_to(self, table_id: str, token: str) -> int:
        """Note that the owner of ``token`` has come to the rematch ``table_id``; deal it when
        every person has. Returns their seat."""
        data = await self._cache.get_stored(table_id)
        found = seat_model.access(data, self.settings.secret_key, token)
        if found is None:
            raise ServiceError("bad_token", "this token has no seat at the rematch")
        async with self._cache.sqlite_lock(), self._sessions() as session:
            await queries.mark_seen(session, table_id, found.seat, time.time())
            await session.commit()
        if data.status == "open":
            await self._deal_when_everyone_came(table_id)
        return found.seat

    async def _deal_when_everyone_came(self, table_id: str) -> None:
        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            seen = await queries.seen_at(session, table_id)
            if data.status != "open" or any(at is None for at in seen.values()):
                raise _NothingToDo
            return await self._deal(session, data)

        # _NothingToDo: somebody has not come yet (or another ask dealt it first).
        with contextlib.suppress(_NothingToDo):
            await self.change(table_id, write)

    async def set_clock(self, table_id: str, token: str, config: dict[str, Any]) -> TableData:
        """The creator changes the clock settings before the start.

        Raises ServiceError: 'bad_token', 'not_creator', 'already_started', 'bad_clock'.
        """
        seat_model.check_creator(await self.authenticate(table_id, token))
        chosen = _clock_config(config)

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            if data.status != "open":
                raise ServiceError("already_started", "the clock is set before the start")
            return {"clock": clock_model.new_clock(chosen, len(data.seats))}

        return await self.change(table_id, write, actor=seat_model.CREATOR_SEAT)

    async def change_clock(
        self,
        table_id: str,
        change: Callable[[TableData, clock_model.Clock], tuple[clock_model.Clock, dict[str, Any]]],
        version: int | None = None,
        seats: dict[int, str | None] | None = None,
        actor: int | None = None,
    ) -> TableData:
        """Store ``change(data, clock)`` → (new clock, more table values) as one versioned step.

        ``version``: only if the table is still at that version ('moved_on', 409, otherwise:
        the compare-and-set a timeout fires through). ``seats``: seats whose bot changes with
        it (None: the person plays it again), through the seat model's stand-in; the change
        may name more in its values' ``stand_ins`` (a vote that hands a seat over).
        ``actor``: the seat whose token acts (its act is counted, ``change``); None for the
        clock's own changes.
        """

        async def write(session: AsyncSession, data: TableData) -> dict[str, Any]:
            if version is not None and data.version != version:
                raise ServiceError("moved_on", "the table moved on first")
            if data.status == "finished":
                raise ServiceError("finished", "the game is over")
            if data.status != "playing" or data.clock is None:
                raise ServiceError("not_started", "the table has no running clock")
            clock, values = change(data, data.clock)
            changed = data
            handed = {**(seats or {}), **values.pop("stand_ins", {})}
            for seat, kind in handed.items():
                await queries.update_seat(session, table_id, seat, bot=kind)
                new_seats = list(changed.seats)
                new_seats[seat] = replace(new_seats[seat], bot=kind)
                changed = replace(changed, seats=tuple(new_seats))
            due = table_clock.due(clock, changed, data.state, self.settings.bot_delay)
            return {**values, "clock": clock, "due_at": due}

        return await self.change(table_id, write, actor=actor)

    def _seat_clock(self, data: TableData, seat: int, bot: str | None) -> dict[str, Any]:
        """Clock values for a playing table whose ``seat`` is played by ``bot`` from now on
        (None: by its person, whose decision then starts afresh)."""
        if data.clock is None:
            return {}
        clock = data.clock
        if bot is None:
            clock = clock_model.taken_back(clock, seat, self._now())
        seats = list(data.seats)
        seats[seat] = replace(seats[seat], bot=bot)
        changed = replace(data, seats=tuple(seats))
        return {
            "clock": clock,
            "due_at": table_clock.due(clock, changed, data.state, self.settings.bot_delay),
        }

    async def change(self, table_id: str, write: Write, actor: int | None = None) -> TableData:
        """Run a lobby change as one versioned step; announces the new version.

        ``actor``: the seat whose token asked for it, a table act, which the act rate limit
        counts in the same step (``limits.check_act``: 'rate_limited', 429); None for what
        the server itself changes (a bot, a clock) and for joining (no token yet).
        """
        async with self._cache.lock(table_id):
            for _ in range(WRITE_ATTEMPTS):
                written = await busy_is_none(self._try_change(table_id, write, actor))
                if written is not None:
                    new = written
                    break
                self._cache.forget(table_id)
            else:
                raise kept_changing()
        await self._announce(new)
        return new

    async def _try_change(
        self, table_id: str, write: Write, actor: int | None = None
    ) -> TableData | None:
        async with self._sessions() as session:
            data = await self._cache.current(session, table_id)
            if actor is not None:
                await limits.check_act(session, self.settings, table_id, actor, self._now())
            values = await write(session, data)
            if not await queries.bump_version(session, table_id, data.version, **values):
                return None
            await session.commit()
            return self._cache.remember(await self._cache.load(session, table_id))

    def _hash(self, token: str) -> str:
        return hash_token(self.settings.secret_key, token)


class _NothingToDo(Exception):
    """A change that, on the table as it is now, has nothing to do (nothing is written)."""


def _clock_config(raw: dict[str, Any] | None) -> dict[str, Any]:
    try:
        return clock_model.check_config(raw)
    except clock_model.ClockError as exc:
        raise ServiceError(exc.code, exc.message) from None


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
    try:
        return canonical_kind(kind)
    except ValueError as exc:
        raise ServiceError("bad_bot", str(exc)) from None


def _new_table_row(
    table_id: str,
    game: str,
    seats: int,
    options: dict[str, Any],
    seed: str,
    public: bool,
    learning: bool = False,
) -> TableRow:
    return TableRow(
        id=table_id,
        game=game,
        seats=seats,
        options=stored_options(options, learning),
        seed=seed,
        seed_sha256=seed_hash(seed),
        status="open",
        version=1,
        public=public,
        seat_log=[],
    )
