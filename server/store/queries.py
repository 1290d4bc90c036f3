"""The few queries the table service needs. Each takes an open session; the caller commits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import defer

from server import jsontext

from .models import ClockBeat, CommandRow, SeatRow, TableRow


async def table_row(
    session: AsyncSession, table_id: str, lock: bool = False, with_state: bool = True
) -> TableRow | None:
    """The table row, or None. ``lock`` takes a row lock on Postgres (SQLite ignores it);
    without ``with_state`` the state snapshot is not read (touching it then raises)."""
    query = sa.select(TableRow).where(TableRow.id == table_id)
    if not with_state:
        query = query.options(defer(TableRow.state, raiseload=True))
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


async def table_versions(session: AsyncSession, table_ids: list[str]) -> dict[str, int]:
    """The stored version of each of ``table_ids`` that exists, by id (one query)."""
    if not table_ids:
        return {}
    query = sa.select(TableRow.id, TableRow.version).where(TableRow.id.in_(table_ids))
    return {table_id: version for table_id, version in (await session.execute(query)).all()}


async def seat_rows(session: AsyncSession, table_id: str) -> list[SeatRow]:
    query = sa.select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
    return list((await session.execute(query)).scalars())


async def command_rows(
    session: AsyncSession, table_id: str, after: int = 0, upto_version: int | None = None
) -> list[CommandRow]:
    """The table's commands after step ``after``, in order; with ``upto_version``, only those
    that made a table version up to that one."""
    query = sa.select(CommandRow).where(CommandRow.table_id == table_id, CommandRow.seq > after)
    if upto_version is not None:
        query = query.where(CommandRow.version <= upto_version)
    return list((await session.execute(query.order_by(CommandRow.seq))).scalars())


def record_entry(row: CommandRow) -> dict[str, Any]:
    """A stored command as a game record lists it: ``{seat, cmd}``, and ``by`` only when a
    bot made it, so that the record of a game people played alone reads as it always did."""
    entry: dict[str, Any] = {"seat": row.seat, "cmd": row.command}
    if row.by is not None:
        entry["by"] = row.by
    return entry


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


async def live_tables(
    session: AsyncSession,
    limit: int = 200,
    public_only: bool = False,
    changed_since: datetime | None = None,
) -> list[TableRow]:
    """Open and playing tables (only the public ones with ``public_only``; only those that
    changed after ``changed_since``, if given), newest first."""
    query = (
        sa.select(TableRow)
        .options(defer(TableRow.state))
        .where(TableRow.status.in_(("open", "playing")))
        .order_by(TableRow.created_at.desc(), TableRow.id)
        .limit(limit)
    )
    if public_only:
        query = query.where(TableRow.public.is_(True))
    if changed_since is not None:
        query = query.where(TableRow.updated_at >= changed_since)
    return list((await session.execute(query)).scalars())


def _stale(before: datetime, statuses: tuple[str, ...]) -> sa.ColumnElement[bool]:
    return sa.and_(TableRow.updated_at < before, TableRow.status.in_(statuses))


async def stale_tables(
    session: AsyncSession, before: datetime, statuses: tuple[str, ...]
) -> dict[str, int]:
    """How many tables of each of ``statuses`` last changed before ``before``."""
    query = (
        sa.select(TableRow.status, sa.func.count())
        .where(_stale(before, statuses))
        .group_by(TableRow.status)
    )
    return {status: int(count) for status, count in (await session.execute(query)).all()}


async def delete_stale_tables(
    session: AsyncSession, before: datetime, statuses: tuple[str, ...]
) -> dict[str, int]:
    """Delete the tables ``stale_tables`` counts, with their seats and commands (the foreign
    keys cascade); returns how many of each status went.

    The age is checked by the DELETE itself, so a table that changed meanwhile stays. A
    finished table whose rematch went loses the link to it (with a new version, so every
    process's held copy is read again).
    """
    statement = (
        sa.delete(TableRow).where(_stale(before, statuses)).returning(TableRow.id, TableRow.status)
    )
    gone = (await session.execute(statement)).all()
    ids = [table_id for table_id, _status in gone]
    for start in range(0, len(ids), 500):
        await session.execute(
            sa.update(TableRow)
            .where(TableRow.rematch.in_(ids[start : start + 500]))
            .values(rematch=None, version=TableRow.version + 1)
        )
    counts: dict[str, int] = {}
    for _table_id, status in gone:
        counts[status] = counts.get(status, 0) + 1
    return counts


async def seen_at(session: AsyncSession, table_id: str) -> dict[int, float | None]:
    """When each person-owned seat's player was last seen (see SeatRow.seen_at), by seat."""
    query = sa.select(SeatRow.seat, SeatRow.seen_at).where(
        SeatRow.table_id == table_id, SeatRow.token_hash.is_not(None)
    )
    return {seat: at for seat, at in (await session.execute(query)).all()}


async def mark_seen(session: AsyncSession, table_id: str, seat: int, at: float) -> None:
    """Move ``seen_at`` of the seat forward to ``at`` (never back: another process may have
    seen it later). The table is not changed: no new version."""
    await mark_seen_many(session, {(table_id, seat): at})


_SEATS = cast(sa.Table, SeatRow.__table__)
# One statement for many seats, executed once per seat's parameters (an executemany: the
# driver sends them together rather than one round trip and one ORM statement each).
_MARK_SEEN = (
    sa.update(_SEATS)
    .where(
        _SEATS.c.table_id == sa.bindparam("seen_table"),
        _SEATS.c.seat == sa.bindparam("seen_seat"),
        sa.or_(_SEATS.c.seen_at.is_(None), _SEATS.c.seen_at < sa.bindparam("seen_moment")),
    )
    .values(seen_at=sa.bindparam("seen_moment"))
)


async def mark_seen_many(session: AsyncSession, moments: dict[tuple[str, int], float]) -> None:
    """``mark_seen`` for every (table, seat) of ``moments`` at once."""
    if not moments:
        return
    params = [
        {"seen_table": table_id, "seen_seat": seat, "seen_moment": at}
        for (table_id, seat), at in moments.items()
    ]
    await session.execute(_MARK_SEEN, params)


async def seats_of_tables(session: AsyncSession, table_ids: list[str]) -> dict[str, list[SeatRow]]:
    """Seats of several tables at once, by table id."""
    if not table_ids:
        return {}
    query = sa.select(SeatRow).where(SeatRow.table_id.in_(table_ids)).order_by(SeatRow.seat)
    grouped: dict[str, list[SeatRow]] = {tid: [] for tid in table_ids}
    for row in (await session.execute(query)).scalars():
        grouped[row.table_id].append(row)
    return grouped


# -------------------------------------------------------------------- the command hot path


@dataclass(frozen=True)
class CommandWrite:
    """One accepted command as stored: its row, and the table values it moves to.

    ``expected`` is the version the command was computed from: the write happens only if the
    table is still there (the optimistic check), and makes it ``expected + 1``.
    """

    table_id: str
    expected: int
    seq: int
    seat: int
    client_id: str | None
    command: dict[str, Any]
    events: list[dict[str, Any]]
    status: str
    result: dict[str, Any] | None
    state: dict[str, Any] | None  # the new snapshot, or None to keep the stored one
    clock: dict[str, Any] | None = None  # the turn clock after the command
    due_at: float | None = None  # when the clock next wants something (indexed for the sweep)
    seat_log: list[dict[str, Any]] | None = None  # a new seat log, or None to keep it
    by: str | None = None  # who made it: None for the seat's person, BY_BOT or BY_CLOCK

    @property
    def version(self) -> int:
        return self.expected + 1


# One statement, so one round trip, and atomic on its own (autocommit): the UPDATE is the
# optimistic check (no row: another writer moved the table on, and nothing is inserted);
# the INSERT appends the command only when the UPDATE matched; the final SELECT tells which
# happened and, with a channel, sends the fan-out NOTIFY, which Postgres delivers only
# when the statement commits.
_APPEND_PG = """
WITH bumped AS (
    UPDATE tables SET version = $3, status = $4, result = $5::json,
        state = coalesce($6::json, state),
        state_seq = CASE WHEN $6::json IS NULL THEN state_seq ELSE $7 END,
        clock = $12::json, due_at = $13, seat_log = coalesce($14::json, seat_log),
        updated_at = now()
    WHERE id = $1 AND version = $2
    RETURNING id
), added AS (
    INSERT INTO commands (table_id, seq, version, seat, client_id, command, events, "by")
    SELECT id, $7, $3, $8, $9, $10::json, $11::json, $15 FROM bumped
    RETURNING seq
)
SELECT seq{notify} FROM added
"""
APPEND_PG = _APPEND_PG.format(notify="")
APPEND_PG_NOTIFY = _APPEND_PG.format(notify=", pg_notify($16, $17)")


async def append_command_pg(
    driver: Any, write: CommandWrite, notify: tuple[str, str] | None = None
) -> bool:
    """Store ``write`` on Postgres in one statement over the asyncpg connection ``driver``.

    False when the optimistic check failed (nothing was written). ``notify`` (channel,
    payload) is sent with the commit. A unique key refusing the row (a repeated client id,
    or step ``seq`` taken) raises asyncpg's UniqueViolationError; nothing is written then.
    """
    args: list[Any] = [
        write.table_id,
        write.expected,
        write.version,
        write.status,
        None if write.result is None else _json(write.result),
        None if write.state is None else _json(write.state),
        write.seq,
        write.seat,
        write.client_id,
        _json(write.command),
        _json(write.events),
        None if write.clock is None else _json(write.clock),
        write.due_at,
        None if write.seat_log is None else _json(write.seat_log),
        write.by,
    ]
    if notify is not None:
        rows = await driver.fetch(APPEND_PG_NOTIFY, *args, *notify)
    else:
        rows = await driver.fetch(APPEND_PG, *args)
    return len(rows) == 1


async def append_command(conn: AsyncConnection, write: CommandWrite) -> bool:
    """Store ``write`` with two Core statements in ``conn``'s transaction (SQLite, where a
    statement cannot both update and insert); False when the optimistic check failed.

    The caller commits on True and rolls back on False.
    """
    updated = await conn.execute(
        sa.update(TableRow)
        .where(TableRow.id == write.table_id, TableRow.version == write.expected)
        .values(
            version=write.version,
            status=write.status,
            result=write.result,
            updated_at=sa.func.now(),
            clock=write.clock,
            due_at=write.due_at,
            **({} if write.state is None else {"state": write.state, "state_seq": write.seq}),
            **({} if write.seat_log is None else {"seat_log": write.seat_log}),
        )
    )
    if getattr(updated, "rowcount", 0) != 1:
        return False
    await conn.execute(
        sa.insert(CommandRow).values(
            table_id=write.table_id,
            seq=write.seq,
            version=write.version,
            seat=write.seat,
            client_id=write.client_id,
            command=write.command,
            events=write.events,
            by=write.by,
        )
    )
    return True


def _json(value: Any) -> str:
    return jsontext.dumps(value)


# -------------------------------------------------------------------- the clocks' sweep


async def due_tables(
    session: AsyncSession, now: float, limit: int = 100
) -> list[tuple[str, float]]:
    """(id, due_at) of playing tables whose clock wants something by ``now``, soonest first."""
    query = (
        sa.select(TableRow.id, TableRow.due_at)
        .where(TableRow.due_at <= now, TableRow.status == "playing")
        .order_by(TableRow.due_at)
        .limit(limit)
    )
    rows = (await session.execute(query)).all()
    return [(table_id, float(due)) for table_id, due in rows if due is not None]


async def next_due(session: AsyncSession, after: float) -> float | None:
    """The soonest ``due_at`` after ``after`` of any playing table (None: none)."""
    query = sa.select(sa.func.min(TableRow.due_at)).where(
        TableRow.status == "playing", TableRow.due_at > after
    )
    value = (await session.execute(query)).scalar_one_or_none()
    return None if value is None else float(value)


async def live_clock_tables(session: AsyncSession) -> list[str]:
    """Playing tables with a clock (the downtime extension looks at each)."""
    query = sa.select(TableRow.id).where(TableRow.status == "playing", TableRow.clock.is_not(None))
    return list((await session.execute(query)).scalars())


async def last_beat(session: AsyncSession) -> float | None:
    """When a process last swept the clocks (None: never), without moving it."""
    query = sa.select(ClockBeat.at).where(ClockBeat.id == 1)
    value = (await session.execute(query)).scalar_one_or_none()
    return None if value is None else float(value)


async def beat(session: AsyncSession, now: float) -> float | None:
    """Note that a process swept the clocks at ``now``; returns the previous beat (None: the
    first ever). Only the caller that moved it from that previous value gets it back: two
    processes starting together do not both see the same downtime."""
    before = (
        await session.execute(sa.select(ClockBeat.at).where(ClockBeat.id == 1))
    ).scalar_one_or_none()
    if before is None:
        try:
            async with session.begin_nested():  # two processes starting on a new database
                session.add(ClockBeat(id=1, at=now))
        except IntegrityError:
            return now  # the other one wrote the first beat: no downtime for this one
        return None
    moved = await session.execute(
        sa.update(ClockBeat).where(ClockBeat.id == 1, ClockBeat.at == before).values(at=now)
    )
    if getattr(moved, "rowcount", 0) != 1:
        return now  # another process beat just now: no downtime for this one to extend
    return float(before)
