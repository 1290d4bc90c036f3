"""The chat's reads and writes of the ``chat`` table (``server.store.models.ChatRow``)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import ChatRow

from .log import Entry

# The newest seq of each table asked about: what the Postgres fan-out's sweep compares with
# the seqs it announced (``server.realtime.pg_fanout``), to catch a NOTIFY lost at the sender.
SEQS_SQL = (
    "SELECT table_id AS id, max(seq) AS version FROM chat"
    " WHERE table_id = ANY($1::text[]) GROUP BY table_id"
)

WHO_CHARS = 12  # hex digits of a spectator's ``who``: 48 bits, none alike at a table by chance


def entry(row: ChatRow) -> Entry:
    return Entry(
        seq=row.seq,
        kind=row.kind,
        room=row.room,
        seat=row.seat,
        name=row.name,
        text=row.text,
        target=row.target,
        at=row.at,
        who=spectator_mark(row.person) if row.seat is None else None,
    )


def spectator_mark(person: str | None) -> str | None:
    """What readers are told of who a spectator is (``who``): the start of the keyed,
    per-table hash of their address that the rate limit counts by. The same under every
    name they give, so that muting them holds; it reveals neither address nor table."""
    return None if person is None else person[:WHO_CHARS]


async def newest(session: AsyncSession, table_id: str, limit: int) -> list[ChatRow]:
    """The table's newest ``limit`` entries, oldest first."""
    query = (
        sa.select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.seq.desc())
    ).limit(limit)
    return list(reversed((await session.execute(query)).scalars().all()))


async def after(session: AsyncSession, table_id: str, seq: int) -> list[ChatRow]:
    """The table's entries after ``seq``, in order."""
    query = (
        sa.select(ChatRow)
        .where(ChatRow.table_id == table_id, ChatRow.seq > seq)
        .order_by(ChatRow.seq)
    )
    return list((await session.execute(query)).scalars().all())


async def room_state(session: AsyncSession, table_id: str) -> bool:
    """Whether the spectators' room is open (the newest ``room`` entry says; open if none)."""
    query = (
        sa.select(ChatRow.text)
        .where(ChatRow.table_id == table_id, ChatRow.kind == "room")
        .order_by(ChatRow.seq.desc())
        .limit(1)
    )
    return (await session.scalar(query)) != "closed"


async def messages_before(
    session: AsyncSession, table_id: str, before: int, rooms: tuple[str, ...], limit: int
) -> list[ChatRow]:
    """Up to ``limit`` messages of ``rooms`` before ``before``, newest first."""
    query = (
        sa.select(ChatRow)
        .where(
            ChatRow.table_id == table_id,
            ChatRow.seq < before,
            ChatRow.kind.in_(("text", "phrase")),
            ChatRow.room.in_(rooms),
        )
        .order_by(ChatRow.seq.desc())
        .limit(limit)
    )
    return list((await session.execute(query)).scalars().all())


async def messages(session: AsyncSession, table_id: str) -> list[ChatRow]:
    """Every message of the table, in order (the download after the end)."""
    query = (
        sa.select(ChatRow)
        .where(ChatRow.table_id == table_id, ChatRow.kind.in_(("text", "phrase")))
        .order_by(ChatRow.seq)
    )
    return list((await session.execute(query)).scalars().all())


async def repeat(session: AsyncSession, table_id: str, author: str, client_id: str) -> int | None:
    """The seq of the entry this author already wrote with ``client_id``, if any."""
    query = sa.select(ChatRow.seq).where(
        ChatRow.table_id == table_id, ChatRow.author == author, ChatRow.client_id == client_id
    )
    return await session.scalar(query)


async def times_of(session: AsyncSession, table_id: str, person: str, since: float) -> list[float]:
    """When ``person`` wrote each of their messages at the table after ``since``, ascending."""
    query = (
        sa.select(ChatRow.at)
        .where(ChatRow.table_id == table_id, ChatRow.person == person, ChatRow.at > since)
        .order_by(ChatRow.at)
    )
    return [float(at) for at in (await session.execute(query)).scalars()]


async def next_seq(session: AsyncSession, table_id: str) -> int:
    query = sa.select(sa.func.max(ChatRow.seq)).where(ChatRow.table_id == table_id)
    return int(await session.scalar(query) or 0) + 1


async def hide(session: AsyncSession, table_id: str, seq: int) -> None:
    await session.execute(
        sa.update(ChatRow)
        .where(ChatRow.table_id == table_id, ChatRow.seq == seq)
        .values(hidden=True)
    )


async def newest_by_author(
    session: AsyncSession, table_ids: list[str]
) -> dict[str, dict[int | None, int]]:
    """For each table, the newest message's seq of each author seat (None: spectators)."""
    if not table_ids:
        return {}
    query = (
        sa.select(ChatRow.table_id, ChatRow.seat, sa.func.max(ChatRow.seq))
        .where(ChatRow.table_id.in_(table_ids), ChatRow.kind.in_(("text", "phrase")))
        .group_by(ChatRow.table_id, ChatRow.seat)
    )
    found: dict[str, dict[int | None, int]] = {}
    for table_id, seat, seq in (await session.execute(query)).all():
        found.setdefault(table_id, {})[seat] = int(seq)
    return found


async def kind_of(session: AsyncSession, table_id: str, seq: int) -> str | None:
    """The kind of entry ``seq`` of the table (None: there is none)."""
    query = sa.select(ChatRow.kind).where(ChatRow.table_id == table_id, ChatRow.seq == seq)
    return await session.scalar(query)
