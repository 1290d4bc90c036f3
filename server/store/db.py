"""Creating the async engine and sessions for a database URL (SQLite or Postgres)."""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.util.concurrency import in_greenlet

from server.settings import normalize_database_url, sqlite_path

log = logging.getLogger(__name__)


def make_engine(
    url: str, pool_size: int = 10, max_overflow: int = 20, pool_timeout: float = 30.0
) -> AsyncEngine:
    """An async engine for ``url``; for SQLite the file's folder is created and WAL is on.

    On Postgres the pool keeps ``pool_size`` connections, opens up to ``max_overflow`` more
    under load, waits ``pool_timeout`` seconds for a free one (then raises TimeoutError from
    SQLAlchemy). Connections are not pinged before each use (a round trip per checkout, on
    every command): one that died in the pool fails its first statement, the pool then
    drops it (and every connection older than the failure), and the caller retries.
    """
    url = normalize_database_url(url)
    db_file = sqlite_path(url)
    if db_file is not None:
        db_file.parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, connect_args={"timeout": 30})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        engine.dialect.do_terminate = _close_aiosqlite  # type: ignore[method-assign]
        _STOPPER.start()
        return engine
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=pool_timeout,
    )


def asyncpg_dsn(database_url: str) -> str:
    """The libpq form of a SQLAlchemy URL (``postgresql+asyncpg://u@h/db`` → ``postgresql://…``).

    Raises ValueError for a URL that is not Postgres.
    """
    scheme, sep, rest = database_url.partition("://")
    base = scheme.split("+", 1)[0]
    if not sep or base not in {"postgresql", "postgres"}:
        raise ValueError(f"not a Postgres URL: {database_url.split('@')[-1]!r}")
    return f"postgresql://{rest}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers proceed during a write; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _close_aiosqlite(dbapi_connection: Any) -> None:
    """Hard-close a pooled SQLite connection (one the pool gives up on, e.g. after a task was
    cancelled in the middle of a statement) with a plain close.

    SQLAlchemy's own terminate for aiosqlite starts a graceful close in a shielded task and,
    if the caller is cancelled meanwhile, also stops the worker thread. When that stop reaches
    the worker first, the graceful close's own final stop is queued behind a worker that has
    exited and is waited on for ever: the event loop can then never finish (an app's shutdown
    hung on it; tests/server/test_sqlite_terminate.py). A plain close queues one stop, after
    the close, and the task that awaits it keeps the loop running until the worker is done.
    Outside a greenlet (the garbage collector's clean-up) nothing can be awaited: the worker
    is only told to close and stop, as SQLAlchemy does there, but by ``_STOPPER``'s thread.
    aiosqlite's stop makes a future on the calling thread's event loop for the worker to
    answer, and the clean-up runs in whatever thread drops the last reference, whose loop may
    have closed: the worker then died on "Event loop is closed".
    """
    if in_greenlet():
        dbapi_connection.close()
    else:
        _STOPPER.stop(dbapi_connection)


class _Stopper:
    """One thread with no event loop that tells the workers of connections cleaned up outside
    a greenlet to close and stop: from there aiosqlite makes no future for them to answer.

    ``stop`` only puts the connection in a ``SimpleQueue`` (safe in a finalizer, which may run
    anywhere, even inside the threading module's own locks); the thread is started by
    ``make_engine``, in ordinary code, before any connection exists.
    """

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(
                    target=self.run, name="guildhall-sqlite-stop", daemon=True
                )
                self.thread.start()

    def stop(self, dbapi_connection: Any) -> None:
        self.queue.put(dbapi_connection)

    def run(self) -> None:
        while True:
            connection = self.queue.get()
            try:
                connection._terminate_force_close()
            except Exception:  # one connection's failure must not end the thread
                log.exception("could not stop a SQLite connection's worker")


_STOPPER = _Stopper()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)
