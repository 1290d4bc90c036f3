"""The few queries the table service needs. Each takes an open session; the caller commits."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from .models import CommandRow, SeatRow, TableRow


async def table_row(session: AsyncSession, table_id: str, lock: bool = False) -> TableRow | None:
    """The table row, or None. ``lock`` takes a row lock on Postgres (SQLite ignores it)."""
    query = sa.select(TableRow).where(TableRow.id == table_id)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def table_version(session: AsyncSession, table_id: str, lock: bool = False) -> int | None:
    """The stored version of a table, or None when there is no such table.

    ``lock`` takes the row lock on Postgres (SQLite ignores it), as ``table_row`` does.
    """
    query = sa.select(TableRow.version).where(TableRow.id == table_id)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def seat_rows(session: AsyncSession, table_id: str) -> list[SeatRow]:
    query = sa.select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
    return list((await session.execute(query)).scalars())


async def command_rows(session: AsyncSession, table_id: str) -> list[CommandRow]:
    query = sa.select(CommandRow).where(CommandRow.table_id == table_id).order_by(CommandRow.seq)
    return list((await session.execute(query)).scalars())


async def command_by_client_id(
    session: AsyncSession, table_id: str, seat: int, client_id: str
) -> CommandRow | None:
    """The committed command a client sent with ``client_id`` (for idempotent retries)."""
    query = sa.select(CommandRow).where(
        CommandRow.table_id == table_id,
        CommandRow.seat == seat,
        CommandRow.client_id == client_id,
    )
    return (await session.execute(query)).scalar_one_or_none()


async def bump_version(session: AsyncSession, table_id: str, expected: int, **values: Any) -> bool:
    """Set ``version = expected + 1`` (and ``values``) only if the row is still at ``expected``.

    Returns False when another writer got there first: the optimistic check.
    """
    statement = (
        sa.update(TableRow)
        .where(TableRow.id == table_id, TableRow.version == expected)
        .values(version=expected + 1, updated_at=sa.func.now(), **values)
    )
    result = await session.execute(statement)
    return bool(getattr(result, "rowcount", 0) == 1)


async def update_seat(session: AsyncSession, table_id: str, seat: int, **values: Any) -> None:
    statement = (
        sa.update(SeatRow)
        .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
        .values(**values)
    )
    await session.execute(statement)


async def live_tables(session: AsyncSession, limit: int = 200) -> list[TableRow]:
    """Open and playing tables, newest first."""
    query = (
        sa.select(TableRow)
        .options(defer(TableRow.state))
        .where(TableRow.status.in_(("open", "playing")))
        .order_by(TableRow.created_at.desc(), TableRow.id)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def seats_of_tables(session: AsyncSession, table_ids: list[str]) -> dict[str, list[SeatRow]]:
    """Seats of several tables at once, by table id."""
    if not table_ids:
        return {}
    query = sa.select(SeatRow).where(SeatRow.table_id.in_(table_ids)).order_by(SeatRow.seat)
    grouped: dict[str, list[SeatRow]] = {tid: [] for tid in table_ids}
    for row in (await session.execute(query)).scalars():
        grouped[row.table_id].append(row)
    return grouped
