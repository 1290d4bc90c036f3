"""What every writer of a table shares: how often a write is tried, and which failures only
mean "try again" (another writer got there first, or a pooled connection had died)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import asyncpg
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from .data import ServiceError

T = TypeVar("T")

WRITE_ATTEMPTS = 5


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


def kept_changing() -> ServiceError:
    """Every attempt was outraced."""
    return ServiceError("conflict", "the table kept changing; try again")


async def busy_is_none(attempt: Awaitable[T]) -> T | None:
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
