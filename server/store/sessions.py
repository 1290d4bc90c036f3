"""Where the server's database sessions come from, for readers and for writers.

One ``SessionSource`` per process is made by the table service and handed to everything else
that reads or writes the database beside it (the clock keeper, the notice outbox, the contact
book): they share its one SQLite writer lock. SQLite allows one writer; two interleaved write
transactions in one process would make the later one fail on a stale snapshot instead of
waiting. Postgres needs no such lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker


class SessionSource:
    """Sessions to read in (``read``) and to write in (``write``, behind the writer lock)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, one_writer: bool) -> None:
        """``one_writer``: the database takes one write transaction at a time (SQLite)."""
        self.maker = sessions
        self._writer = asyncio.Lock() if one_writer else None

    def read(self) -> AsyncSession:
        """A new session (``async with source.read() as session``); it may write too, when the
        caller holds ``writer_lock`` already."""
        return self.maker()

    @asynccontextmanager
    async def writer_lock(self) -> AsyncIterator[None]:
        """The process's one SQLite writer lock (nothing on Postgres)."""
        if self._writer is None:
            yield
            return
        async with self._writer:
            yield

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """A session to write in, behind the writer lock; the caller commits."""
        async with self.writer_lock(), self.maker() as session:
            yield session
