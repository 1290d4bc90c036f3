"""The outbox of "your move" notices: durable, retried, sent once, from whichever process.

Channels
--------
A notice goes out on every channel of ``CHANNELS`` that has an address for the seat. A
channel is a :class:`server.notify.channel.Channel`: a ``name``, ``deliver(notice) ->
"sent" | "retry" | "gone"`` and ``addressed(session)`` (the seats it can reach). To add one,
write a factory ``(ChannelContext) -> Channel | None`` (None: not configured here) and add it
to ``CHANNELS`` below; nothing else changes. ``docs/notifications.md`` describes the contract.

What is owed
------------
Nothing is written on the command path. Each sweep derives what is owed from what every
change already stores durably, the turn clock (``tables.clock``): a seat whose clock runs is
asked to act, since ``since``; that moment names the *decision*. A person's seat (no bot, no
stand-in) that a channel can reach is owed one notice per decision, and on a timed table a
reminder once 80 % of the decision's time is used (``notice.wanted``); a nudge by another
player (``nudged``, told by the clock acts) owes one more. The outbox holds one
row per seat (``notices``): the newest notice owed, and how far its delivery got. A newer
notice (the next decision, the reminder) replaces the row, sent or not, so a seat never has
two pending. A crash loses nothing: the clock is stored with the move, and the row with
whatever a send did.

Sending
-------
Each pending row due by now is looked at against the table as stored:

- the decision ended (moved on, a bot covers it, paused, finished): the row is ``expired``;
- a socket of the seat is open in this process, or the seat was seen by another within two
  heartbeats (``seats.seen_at``, docs/seats.md), or its player has been away less than
  ``GUILDHALL_NOTIFY_AFTER``: the row is held (its ``due_at`` moved on), to look again later;
- otherwise it is *claimed*, with a compare-and-set on its ``rev`` that moves its ``due_at``
  to the end of the claim (``LEASE``): of two processes on one database only one wins, and
  a process that dies while sending leaves the row to be claimed again once the claim ends.
  Every channel still owed is tried: ``sent`` and ``gone`` are done with, ``retry`` keeps
  the channel for the next try, after ``GUILDHALL_NOTIFY_RETRY`` seconds, doubled each time;
  after ``GUILDHALL_NOTIFY_ATTEMPTS`` tries the row is ``dropped`` with a log line.

Every write of a row is a compare-and-set on ``rev``: a send that finishes after the row was
replaced (a new decision came) changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.engine import get_game
from server.store import queries
from server.store.models import NoticeRow, SeatRow, TableRow
from server.store.sessions import SessionSource
from server.tables import ServiceError, TableData, TableService
from server.tables import seats as seat_model

from . import mail, push_channel, webhook
from . import notice as rules
from .channel import Channel, ChannelContext, ChannelFactory
from .chat_notices import ChatNotices
from .notice import Notice, Outcome

log = logging.getLogger(__name__)

# The channels there are, by name; each factory returns None when its channel is off.
CHANNELS: dict[str, ChannelFactory] = {
    "email": mail.channel,
    "push": push_channel.channel,
    "webhook": webhook.channel,
}

LEASE = 120.0  # seconds a claimed notice is its claimer's before another process may retry
BATCH = 100  # notices claimed per sweep at most


@dataclass(frozen=True)
class Row:
    """A notice row as read: enough to claim it and to write what became of it."""

    id: int
    table_id: str
    seat: int
    decision: float
    kind: str
    attempts: int
    channels: list[str] | None
    rev: int


def build_channels(context: ChannelContext) -> list[Channel]:
    """Every configured channel of ``CHANNELS``."""
    made = (factory(context) for factory in CHANNELS.values())
    return [channel for channel in made if channel is not None]


class Outbox:
    """Derives the notices owed and delivers them, from this process."""

    def __init__(
        self, service: TableService, channels: list[Channel], sessions: SessionSource
    ) -> None:
        """``sessions``: the table service's session source (its SQLite writer lock)."""
        self.service = service
        self.sessions = sessions
        self.settings = service.settings
        self.channels = {channel.name: channel for channel in channels}
        self._task: asyncio.Task[None] | None = None
        self.sent = 0  # notices this process delivered on at least one channel
        self.dropped = 0
        self.chat = ChatNotices(self)  # "Anna wrote at table …", swept with the rest

    # ---------------------------------------------------------------- running

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("notice sweep failed")
            await asyncio.sleep(self.settings.notify_sweep)

    async def sweep(self) -> int:
        """Note what is owed, then deliver what is due; returns how many were delivered."""
        if not self.channels:
            return 0
        await self.derive()
        return await self.deliver_due() + await self.chat.deliver_due()

    # ---------------------------------------------------------------- what is owed

    async def derive(self) -> None:
        """Write the notice each reachable person's seat is owed now into its row, where it
        replaces what the row holds (``notice.replaces``)."""
        now = self.service.now()
        async with self.sessions.write() as session:
            reachable: set[tuple[str, int]] = set()
            for channel in self.channels.values():
                reachable |= await channel.addressed(session)
            table_ids = sorted({table_id for table_id, _seat in reachable})
            if not table_ids:
                return
            clocks = await _clocks(session, table_ids)
            people = await _people(session, table_ids)
            rows = await _rows(session, table_ids)
            for table_id, seat in sorted(reachable):
                clock = clocks.get(table_id)
                if clock is None or (table_id, seat) not in people:
                    continue
                want = rules.wanted(clock, seat, now)
                if want is None:
                    continue
                row = rows.get((table_id, seat))
                if row is None or rules.replaces(row.decision, row.kind, *want):
                    await _offer(session, row, table_id, seat, want, now)
            await session.commit()

    async def nudged(self, data: TableData, seat: int, by: int) -> None:
        """Another player nudged ``seat`` (``ClockActs.on_nudge``): its row becomes a nudge
        of the running decision, due now; like every notice it goes out once the player is
        away. Each nudge (at most one per person an hour) sends one more."""
        if not self.channels or data.clock is None:
            return
        since = data.clock["seats"][seat]["since"]
        if since is None:
            return
        want: tuple[float, rules.Kind] = (float(since), "nudge")
        now = self.service.now()
        for _ in range(3):  # a sweep may write the row meanwhile: read it again, once or twice
            async with self.sessions.write() as session:
                row = (await _rows(session, [data.id])).get((data.id, seat))
                if await _offer(session, row, data.id, seat, want, now):
                    await session.commit()
                    return

    # ---------------------------------------------------------------- sending

    async def deliver_due(self) -> int:
        """Claim and deliver every pending notice due by now; returns how many were sent."""
        now = self.service.now()
        async with self.sessions.read() as session:
            query = (
                sa.select(NoticeRow)
                .where(NoticeRow.status == "pending", NoticeRow.due_at <= now)
                .order_by(NoticeRow.due_at)
                .limit(BATCH)
            )
            due = [_as_row(row) for row in (await session.execute(query)).scalars()]
        sent = 0
        for row in due:
            if await self._consider(row, now):
                sent += 1
        return sent

    async def _consider(self, row: Row, now: float) -> bool:
        """Expire, hold or deliver a due row; True when a channel took it.

        Only a row about to be sent is claimed: a held one is merely moved on (both by a
        compare-and-set), so a process that dies while holding leaves it due at once.
        """
        try:
            data = await self.service.get_stored(row.table_id)
        except ServiceError:
            await self._write(row, status="expired")
            return False
        if not _still_owed(data, row):
            await self._write(row, status="expired")
            return False
        wait = await self.presence_wait(data.id, row.seat, now)
        if wait > 0:
            await self._write(row, status="pending", due_at=now + wait)
            return False
        claimed = await self._write(row, due_at=now + LEASE, now=now)
        if claimed is None:
            return False  # another process claimed or replaced it first
        return await self._deliver(data, replace(row, rev=claimed))

    async def _deliver(self, data: TableData, row: Row) -> bool:
        """Deliver a claimed row on every channel still owed; True when one took it."""
        now = self.service.now()
        notice = self._notice(data, row, now)
        names = row.channels if row.channels is not None else list(self.channels)
        outcomes = {name: await self.try_channel(name, notice) for name in names}
        retry = [name for name, outcome in outcomes.items() if outcome == "retry"]
        took = "sent" in outcomes.values()
        if took:
            self.sent += 1
        if not retry:
            await self._write(row, status="sent" if took else "gone", channels=[])
            return took
        attempts = row.attempts + 1
        if attempts >= self.settings.notify_attempts:
            self.dropped += 1
            log.warning(
                "notice dropped after %d tries on %s",
                attempts,
                ", ".join(retry),
                extra={"table_id": row.table_id, "seat": row.seat},
            )
            await self._write(row, status="dropped", attempts=attempts, channels=retry)
            return took
        backoff = self.settings.notify_retry * 2 ** (attempts - 1)
        await self._write(
            row, status="pending", due_at=now + backoff, attempts=attempts, channels=retry
        )
        return took

    async def try_channel(self, name: str, notice: Notice) -> Outcome:
        channel = self.channels.get(name)
        if channel is None:
            return "gone"  # a channel no longer configured here
        try:
            return await channel.deliver(notice)
        except Exception:
            log.exception("notice channel %s failed", name, extra={"table_id": notice.table_id})
            return "retry"

    async def presence_wait(self, table_id: str, seat: int, now: float) -> float:
        """Seconds to hold a notice before the seat counts as away long enough (0: send)."""
        async with self.sessions.read() as session:
            seen = await queries.seen_at(session, table_id)
        here = seat in self.service.presence(table_id)
        away = seat_model.away_seconds(seen.get(seat), here, now, self.settings.handover_after)
        sweep = self.settings.notify_sweep
        if away is None:
            return sweep  # connected, maybe through another process: look again later
        return 0.0 if away >= self.settings.notify_after else self.settings.notify_after - away

    def _notice(self, data: TableData, row: Row, now: float) -> Notice:
        info = data.seats[row.seat]
        title = get_game(data.game).title
        kind: rules.Kind = row.kind if row.kind in rules.KINDS else "turn"
        return Notice(
            table_id=data.id,
            seat=row.seat,
            kind=kind,
            by_name=_nudger(data, row.seat) if kind == "nudge" else None,
            table_name=rules.table_name(title, data.id),
            seat_name=info.name or f"Seat {row.seat + 1}",
            seconds_left=rules.left(data.clock, row.seat, now),
            url=f"{self.settings.public_url}/t/{data.id}",
        )

    async def _write(self, row: Row, now: float | None = None, **values: Any) -> int | None:
        """Set ``values`` on ``row`` if it is still at ``row.rev`` (and, with ``now``, still
        pending and due: a claim); returns the new rev, or None if it had moved on."""
        conditions = [NoticeRow.id == row.id, NoticeRow.rev == row.rev]
        if now is not None:
            conditions += [NoticeRow.status == "pending", NoticeRow.due_at <= now]
        statement = sa.update(NoticeRow).where(*conditions).values(rev=row.rev + 1, **values)
        async with self.sessions.write() as session:
            result = await session.execute(statement)
            await session.commit()
        return row.rev + 1 if getattr(result, "rowcount", 0) == 1 else None


# -------------------------------------------------------------------- rows


def _as_row(row: NoticeRow) -> Row:
    return Row(
        id=row.id,
        table_id=row.table_id,
        seat=row.seat,
        decision=row.decision,
        kind=row.kind,
        attempts=row.attempts,
        channels=None if row.channels is None else list(row.channels),
        rev=row.rev,
    )


def _nudger(data: TableData, seat: int) -> str | None:
    """The name of whoever nudged ``seat`` last (the seat log, which everyone sees)."""
    for entry in reversed(data.seat_log):
        if entry.get("type") == "nudged" and entry.get("seat") == seat:
            name: str | None = entry.get("by_name")
            return name
    return None


def _still_owed(data: TableData, row: Row) -> bool:
    """Whether ``row``'s decision is still the seat's, played by its person."""
    if data.status != "playing" or data.clock is None or not 0 <= row.seat < len(data.seats):
        return False
    info = data.seats[row.seat]
    if info.bot is not None or info.token_hash is None:
        return False
    entry = data.clock["seats"][row.seat]
    running = entry["since"] is not None and not entry["covered"]
    return running and data.clock["paused"] is None and entry["since"] == row.decision


async def _clocks(session: AsyncSession, table_ids: list[str]) -> dict[str, dict[str, Any]]:
    query = sa.select(TableRow.id, TableRow.clock).where(
        TableRow.id.in_(table_ids), TableRow.status == "playing", TableRow.clock.is_not(None)
    )
    return {table_id: clock for table_id, clock in (await session.execute(query)).all()}


async def _people(session: AsyncSession, table_ids: list[str]) -> set[tuple[str, int]]:
    """Seats a person plays (owned, no bot standing in)."""
    query = sa.select(SeatRow.table_id, SeatRow.seat).where(
        SeatRow.table_id.in_(table_ids), SeatRow.token_hash.is_not(None), SeatRow.bot.is_(None)
    )
    return {(t, s) for t, s in (await session.execute(query)).all()}


async def _rows(session: AsyncSession, table_ids: list[str]) -> dict[tuple[str, int], Row]:
    query = sa.select(NoticeRow).where(NoticeRow.table_id.in_(table_ids))
    rows = (await session.execute(query)).scalars()
    return {(row.table_id, row.seat): _as_row(row) for row in rows}


async def _offer(
    session: AsyncSession,
    row: Row | None,
    table_id: str,
    seat: int,
    want: tuple[float, rules.Kind],
    now: float,
) -> bool:
    """Put the notice ``want`` in the seat's row: a new row, or (compare-and-set) in place
    of ``row``. A process that loses the race leaves the winner's row as it is (False)."""
    decision, kind = want
    values = {
        "decision": decision,
        "kind": kind,
        "status": "pending",
        "due_at": now,
        "attempts": 0,
        "channels": None,
    }
    if row is None:
        try:
            async with session.begin_nested():
                session.add(NoticeRow(table_id=table_id, seat=seat, rev=0, **values))
        except IntegrityError:
            return False  # another process wrote the seat's row first
        return True
    written = await session.execute(
        sa.update(NoticeRow)
        .where(NoticeRow.id == row.id, NoticeRow.rev == row.rev)
        .values(rev=row.rev + 1, **values)
    )
    return getattr(written, "rowcount", 0) == 1
