"""Abuse limits on making tables and on tables that only bots play (docs/self-hosting.md).

Every count is taken in the database, inside the transaction that would add the table (or
make it all-bot), so the limits hold however many app processes share the database: on
Postgres a transaction-scoped advisory lock makes the count and the write one step for all
of them; on SQLite one process writes at a time anyway.

- **Table acts**: a seat token may make ``GUILDHALL_ACT_RATE`` table acts (those that change
  what every seat downloads: a pause asked or answered, "away", a nudge, a vote, added time,
  a seat handed over or taken back, a rematch ask) in any ``ACT_WINDOW`` seconds, all tokens
  of one table together ``GUILDHALL_TABLE_ACT_RATE``; counted from ``table_acts`` rows written
  in the act's own transaction, after the table row is locked.
- **Creation rate**: at most ``GUILDHALL_CREATE_RATE`` tables from one client address in any
  ``CREATE_WINDOW`` seconds, counted from the tables' own rows (``creator_key``,
  ``created_at``).
- **Unjoined tables**: a live (open or playing) table on which no second person has taken a
  seat costs the server a row and maybe bots, and gives nobody a game with friends. One
  address may have ``GUILDHALL_UNJOINED_PER_ADDRESS`` of them, all addresses together
  ``GUILDHALL_UNJOINED_TABLES``. One left alone for ``UNJOINED_IDLE`` stops counting.
- **All-bot tables**: one address may have ``GUILDHALL_BOT_TABLES_PER_ADDRESS`` tables playing
  at once with a bot on every seat, all addresses together ``GUILDHALL_BOT_TABLES``; starting
  one more, or handing the last person's seat of one to a bot, is refused. Such a table is
  charged to the address that created it.

Every global cap has a per-address share, so one address cannot fill it, and **an address's
first is never refused because of other people's**: the total is enforced only on an
address that already holds one (a solo player's own "let a bot play for me", or their first
table, goes through when strangers have filled the server). That lets the total exceed its
cap by at most one table per address that had none; what one address can add is still
bounded by the creation rate and its shares.

An address is never stored: ``creator_key`` is a keyed hash of it. IPv6 addresses count by
their /64 network, which one household (or one attacker) usually holds whole.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.settings import Settings
from server.store.models import SeatRow, TableActRow, TableRow

from .data import ServiceError

CREATE_WINDOW = 60.0  # seconds over which GUILDHALL_CREATE_RATE counts
ACT_WINDOW = 60.0  # seconds over which GUILDHALL_ACT_RATE and GUILDHALL_TABLE_ACT_RATE count
UNJOINED_IDLE = timedelta(hours=24)  # an unjoined table untouched this long stops counting
LIVE = ("open", "playing")
# Keys of Postgres advisory locks (any fixed 64-bit numbers; "ghcreate", "ghbots").
_CREATE_LOCK = int.from_bytes(b"ghcreate", "big") & 0x7FFF_FFFF_FFFF_FFFF
_BOT_TABLES_LOCK = int.from_bytes(b"ghbots\0\0", "big")


def address_key(secret_key: str, address: str) -> str:
    """What the limits count an address by: a keyed hash of it (of its /64 for IPv6)."""
    counted = address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        pass  # not an address (a test client's name): counted as it is
    else:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            counted = str(ip.ipv4_mapped)
        elif isinstance(ip, ipaddress.IPv6Address):
            counted = str(ipaddress.ip_network(f"{ip}/64", strict=False))
        else:
            counted = str(ip)
    digest = hmac.new(secret_key.encode(), f"address:{counted}".encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _utc(moment: datetime) -> datetime:
    # SQLite gives timestamps back without a zone; they are UTC (CURRENT_TIMESTAMP).
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def _lock(session: AsyncSession, settings: Settings, key: int) -> None:
    """Make this transaction the only one, in every process, past this point until it ends."""
    if settings.is_postgres:
        await session.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _unjoined(now: datetime) -> sa.ColumnElement[bool]:
    """Live tables, touched within UNJOINED_IDLE, where no seat but the creator's has an owner."""
    guest = (
        sa.select(SeatRow.seat)
        .where(SeatRow.table_id == TableRow.id, SeatRow.seat != 0)
        .where(SeatRow.token_hash.is_not(None))
        .exists()
    )
    return sa.and_(TableRow.status.in_(LIVE), TableRow.updated_at > now - UNJOINED_IDLE, ~guest)


async def check_create(
    session: AsyncSession, settings: Settings, creator_key: str, now: datetime | None = None
) -> None:
    """May the address with ``creator_key`` create one more table now?

    Call inside the creating transaction (it takes the creation lock on Postgres). Raises
    ServiceError: 'too_many_tables' (429), 'too_many_unjoined_tables' (429), 'server_full'
    (503).
    """
    now = now or datetime.now(UTC)
    await _lock(session, settings, _CREATE_LOCK)
    since = now - timedelta(seconds=CREATE_WINDOW)
    recent = sa.select(sa.func.count(), sa.func.min(TableRow.created_at)).where(
        TableRow.creator_key == creator_key, TableRow.created_at > since
    )
    count, oldest = (await session.execute(recent)).one()
    if count >= settings.create_rate:
        left = CREATE_WINDOW - (now - _utc(oldest)).total_seconds() if oldest else CREATE_WINDOW
        wait = max(1, math.ceil(left))
        raise ServiceError(
            "too_many_tables",
            f"at most {settings.create_rate} new tables a minute from one address; "
            f"try again in {wait} s",
            retry_after=wait,
        )
    mine = sa.func.count(sa.case((TableRow.creator_key == creator_key, 1)))
    unjoined = sa.select(sa.func.count(), mine).where(_unjoined(now))
    total, own = (await session.execute(unjoined)).one()
    if own >= settings.unjoined_per_address:
        raise ServiceError(
            "too_many_unjoined_tables",
            f"you already have {own} tables nobody else has joined (at most "
            f"{settings.unjoined_per_address}); invite someone to one, or finish one, first",
        )
    if own > 0 and total >= settings.unjoined_tables:  # an address's first always goes
        raise ServiceError(
            "server_full",
            f"this server holds {total} tables nobody has joined yet, its most; try again later",
        )


async def check_bot_table(session: AsyncSession, settings: Settings, table_id: str) -> None:
    """May ``table_id`` play on with a bot on every seat? Call inside the transaction that
    makes it so (it takes the all-bot lock on Postgres).

    The table is charged to the address that created it (``creator_key``; a table of none,
    a rematch or one the server's tools made, has no share and meets the total alone).
    Raises ServiceError: 'too_many_own_bot_tables' (429), 'too_many_bot_tables' (503).
    """
    await _lock(session, settings, _BOT_TABLES_LOCK)
    creator = (
        await session.execute(sa.select(TableRow.creator_key).where(TableRow.id == table_id))
    ).scalar_one_or_none()
    person = (
        sa.select(SeatRow.seat)
        .where(SeatRow.table_id == TableRow.id, SeatRow.bot.is_(None))
        .exists()
    )
    mine = sa.func.count(sa.case((TableRow.creator_key == creator, 1)))
    others = sa.select(sa.func.count(), mine).where(
        TableRow.status == "playing", TableRow.id != table_id, ~person
    )
    playing, own = (await session.execute(others)).one()
    if creator is not None and own >= settings.bot_tables_per_address:
        raise ServiceError(
            "too_many_own_bot_tables",
            f"{own} tables made from your address already play with bots alone (at most "
            f"{settings.bot_tables_per_address}); keep a person on a seat, or finish one",
        )
    first_of_address = creator is not None and own == 0 and settings.bot_tables > 0
    if playing >= settings.bot_tables and not first_of_address:
        raise ServiceError(
            "too_many_bot_tables",
            f"{playing} tables are already played by bots alone, this server's most; "
            "keep a person on a seat, or try again later",
        )


async def check_act(
    session: AsyncSession, settings: Settings, table_id: str, seat: int, now: float
) -> None:
    """May the token of ``seat`` act at ``table_id`` now? If so, the act is counted.

    Call inside the act's transaction once the table row is locked (every table act is a
    versioned change, which locks it on Postgres; SQLite writes one at a time): the count
    and the new row are then one step for every process, and an act that is refused later
    in the transaction, or loses the race for the version, is rolled back with its row.
    Raises ServiceError('rate_limited', 429) with ``retry_after``.
    """
    since = now - ACT_WINDOW
    await session.execute(
        sa.delete(TableActRow).where(TableActRow.table_id == table_id, TableActRow.at <= since)
    )
    rows = (
        await session.execute(
            sa.select(TableActRow.seat, TableActRow.at)
            .where(TableActRow.table_id == table_id)
            .order_by(TableActRow.at)
        )
    ).all()
    own = [at for by, at in rows if by == seat]
    every = [at for _, at in rows]
    if len(own) >= settings.act_rate:
        _act_refusal("table acts a minute from one seat", settings.act_rate, own, now)
    if len(every) >= settings.table_act_rate:
        _act_refusal("table acts a minute at one table", settings.table_act_rate, every, now)
    session.add(TableActRow(table_id=table_id, seat=seat, at=now))


def _act_refusal(rule: str, limit: int, times: list[float], now: float) -> None:
    """Refuse an act over ``limit`` whose acts in the window were made at ``times`` (oldest
    first): it may come again once enough of them have left the window."""
    wait = max(1, math.ceil(times[len(times) - limit] + ACT_WINDOW - now))
    rule = f"at most {limit} {rule}"
    raise ServiceError("rate_limited", f"{rule}; try again in {wait} s", retry_after=wait)
