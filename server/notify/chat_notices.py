"""Chat notices: "Anna wrote at table …" to a player who is away from a table played over
days, on the channels of their "your move" notices, at most one an hour per table and
player, and never what was written (it passes through third parties).

What is owed is written when a message is stored (``ChatService.on_message``): each other
person of the table gets a row (``chat_notices``, one per seat, beside the "your move" rows,
which it never replaces), due at once, or an hour after the last one sent; a row already
pending stays as it is. The notices' outbox sweeps them with its own (``Outbox.sweep``):

- the table no longer plays, or its person was at the table since the message was written
  (``seats.seen_at``; or a socket is open here): they have read it, the row expires;
- a person seen less than ``GUILDHALL_NOTIFY_AFTER`` ago is held, as for "your move";
- otherwise the row is claimed (compare-and-set on ``rev``, ``due_at`` moved to the claim's
  end: of two processes one sends) and delivered on every channel, retried and dropped like
  "your move" notices. A process that dies while sending leaves it to be claimed again.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from server.engine import get_game
from server.settings import Settings
from server.store import queries
from server.store.models import ChatNoticeRow
from server.store.sessions import SessionSource
from server.tables import ServiceError, TableData, TableService

from .channel import Channel
from .notice import Notice, Outcome

log = logging.getLogger(__name__)

EVERY = 3600.0  # seconds between two chat notices of one table to one person
LEASE = 120.0  # as a "your move" notice's claim
BATCH = 100


class Sender(Protocol):
    """What chat notices take from the notices' outbox (``Outbox``): its channels, and when
    and how it sends (said here, so that this module need not import the outbox, which
    makes one of these)."""

    service: TableService
    sessions: SessionSource
    settings: Settings
    channels: dict[str, Channel]

    async def presence_wait(self, table_id: str, seat: int, now: float) -> float: ...

    async def try_channel(self, name: str, notice: Notice) -> Outcome: ...


class ChatNotices:
    """Owes and delivers chat notices, from this process, with the outbox's channels."""

    def __init__(self, outbox: Sender) -> None:
        self.outbox = outbox
        self.service = outbox.service
        self.sessions = outbox.sessions
        self.settings = outbox.settings

    # ---------------------------------------------------------------- what is owed

    async def wrote(self, data: TableData, room: str, seat: int | None) -> None:
        """A message was stored at ``data``'s table (``ChatService.on_message``): the
        players' room of a table played over days owes its other people a notice."""
        if not self.outbox.channels or room != "players" or seat is None:
            return
        mode = ((data.clock or {}).get("config") or {}).get("mode")
        if data.status != "playing" or mode != "days":
            return
        by_name = data.seats[seat].name or f"Seat {seat + 1}"
        people = [s.seat for s in data.seats if s.token_hash is not None and s.seat != seat]
        now = self.service.now()
        for _ in range(3):  # another process may write a row meanwhile: read them again
            try:
                async with self.sessions.write() as session:
                    query = sa.select(ChatNoticeRow).where(ChatNoticeRow.table_id == data.id)
                    rows = {r.seat: r for r in (await session.execute(query)).scalars()}
                    for person in people:
                        _owe(session, rows.get(person), data.id, person, by_name, now)
                    await session.commit()
                return
            except IntegrityError:
                continue

    # ---------------------------------------------------------------- sending

    async def deliver_due(self) -> int:
        """Look at every pending chat notice due by now; returns how many went out."""
        now = self.service.now()
        async with self.sessions.read() as session:
            query = (
                sa.select(ChatNoticeRow)
                .where(ChatNoticeRow.status == "pending", ChatNoticeRow.due_at <= now)
                .order_by(ChatNoticeRow.due_at)
                .limit(BATCH)
            )
            due = list((await session.execute(query)).scalars())
        sent = 0
        for row in due:
            sent += await self._consider(row, now)
        return sent

    async def _consider(self, row: ChatNoticeRow, now: float) -> bool:
        try:
            data = await self.service.get_stored(row.table_id)
        except ServiceError:
            await self._write(row, status="expired")
            return False
        info = data.seats[row.seat] if 0 <= row.seat < len(data.seats) else None
        if data.status != "playing" or info is None or info.token_hash is None:
            await self._write(row, status="expired")
            return False
        async with self.sessions.read() as session:
            seen = (await queries.seen_at(session, data.id)).get(row.seat)
        if row.seat in self.service.presence(data.id) or (
            seen is not None and seen >= row.wrote_at
        ):
            await self._write(row, status="expired")  # at the table since: read
            return False
        wait = await self.outbox.presence_wait(data.id, row.seat, now)
        if wait > 0:
            await self._write(row, due_at=now + wait)
            return False
        claimed = await self._write(row, due_at=now + LEASE, claim=now)
        if not claimed:
            return False  # another process claimed or changed it first
        row.rev += 1
        return await self._deliver(data, row, now)

    async def _deliver(self, data: TableData, row: ChatNoticeRow, now: float) -> bool:
        notice = Notice(
            table_id=data.id,
            seat=row.seat,
            kind="chat",
            table_name=f"{get_game(data.game).title} · {data.id}",
            seat_name=data.seats[row.seat].name or f"Seat {row.seat + 1}",
            seconds_left=None,
            url=f"{self.settings.public_url}/t/{data.id}",
            by_name=row.by_name,
        )
        names = list(row.channels) if row.channels is not None else list(self.outbox.channels)
        outcomes = {name: await self.outbox.try_channel(name, notice) for name in names}
        retry = [name for name, outcome in outcomes.items() if outcome == "retry"]
        took = "sent" in outcomes.values()
        if not retry:
            status = "sent" if took else "gone"
            await self._write(row, status=status, sent_at=now, channels=[])
            return took
        attempts = row.attempts + 1
        if attempts >= self.settings.notify_attempts:
            log.warning(
                "chat notice dropped after %d tries on %s",
                attempts,
                ", ".join(retry),
                extra={"table_id": row.table_id, "seat": row.seat},
            )
            await self._write(row, status="dropped", attempts=attempts, channels=retry)
            return took
        backoff = self.settings.notify_retry * 2 ** (attempts - 1)
        sent_at = now if took else row.sent_at
        await self._write(
            row, due_at=now + backoff, attempts=attempts, channels=retry, sent_at=sent_at
        )
        return took

    async def _write(self, row: ChatNoticeRow, claim: float | None = None, **values: Any) -> bool:
        """Set ``values`` on ``row`` if it is still at ``row.rev`` (with ``claim``: still
        pending and due then); False when it had moved on."""
        conditions = [ChatNoticeRow.id == row.id, ChatNoticeRow.rev == row.rev]
        if claim is not None:
            conditions += [ChatNoticeRow.status == "pending", ChatNoticeRow.due_at <= claim]
        statement = sa.update(ChatNoticeRow).where(*conditions).values(rev=row.rev + 1, **values)
        async with self.sessions.write() as session:
            result = await session.execute(statement)
            await session.commit()
        return getattr(result, "rowcount", 0) == 1


def _owe(
    session: Any, row: ChatNoticeRow | None, table_id: str, seat: int, by_name: str, now: float
) -> None:
    """Make ``seat``'s row a pending notice of a message by ``by_name`` written at ``now``,
    unless one is pending already (it says the same: someone wrote)."""
    if row is None:
        session.add(
            ChatNoticeRow(
                table_id=table_id,
                seat=seat,
                by_name=by_name,
                wrote_at=now,
                status="pending",
                due_at=now,
                attempts=0,
                rev=0,
            )
        )
        return
    if row.status == "pending":
        return
    due = now if row.sent_at is None else max(now, row.sent_at + EVERY)
    row.by_name, row.wrote_at, row.status, row.due_at = by_name, now, "pending", due
    row.attempts, row.channels, row.rev = 0, None, row.rev + 1
