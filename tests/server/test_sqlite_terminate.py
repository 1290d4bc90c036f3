"""A pooled SQLite connection hard-closed while its task is cancelled leaves nothing waiting.

The pool hard-closes ("terminates") a connection it gives up on, e.g. one whose task was
cancelled in the middle of a statement. SQLAlchemy's own terminate for aiosqlite could leave
a close waiting for ever on a worker thread that had already stopped, and an event loop that
cannot finish: an app's shutdown (and, in this suite, a test's teardown) hung on it.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from server.store.db import make_engine


def _terminate(sync_conn: Any) -> None:
    # What the pool does to a connection it gives up on (``_close_connection(terminate=True)``).
    sync_conn.dialect.do_terminate(sync_conn.connection.dbapi_connection)


async def test_a_connection_terminated_as_its_task_is_cancelled_leaves_no_task_waiting(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}")
    conn = await engine.connect()
    await conn.execute(sa.text("SELECT 1"))
    raw: Any = conn.sync_connection.connection.dbapi_connection  # type: ignore[union-attr]
    worker = raw._connection._thread
    before = asyncio.all_tasks()

    terminating = asyncio.ensure_future(conn.run_sync(_terminate))
    await asyncio.sleep(0)  # it starts terminating (a graceful close, if the driver's own)
    await asyncio.sleep(0)
    terminating.cancel()  # and is cancelled while at it, as at a shutdown
    await asyncio.gather(terminating, return_exceptions=True)

    left: set[asyncio.Task[Any]] = set()
    for _ in range(100):  # up to 5 s for the worker to finish what it was given
        left = asyncio.all_tasks() - before - {asyncio.current_task()}
        if not left and not worker.is_alive():
            break
        await asyncio.sleep(0.05)
    for task in left:  # never let a stuck close hang this test's own event loop
        task.cancel()
    assert not left, f"tasks still waiting on the closed connection: {left}"
    assert not worker.is_alive()
    conn.sync_connection.connection.invalidate()  # type: ignore[union-attr]
    await engine.dispose()


def test_a_connection_terminated_outside_any_loop_stops_its_worker_quietly(
    tmp_path: Path,
) -> None:
    """The garbage collector's clean-up of a connection nobody returned terminates it outside
    a greenlet, in whatever thread it runs in: one whose event loop may have closed long
    ago. The worker closes the connection and ends without an exception (aiosqlite's own
    stop made a future on that closed loop, and the worker died answering it)."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}")

    async def open_raw() -> Any:
        conn = await engine.connect()
        await conn.execute(sa.text("SELECT 1"))
        fairy: Any = conn.sync_connection.connection  # type: ignore[union-attr]
        fairy.detach()  # the pool forgets it, as it does a connection it gives up on
        return fairy.dbapi_connection

    raw = asyncio.run(open_raw())
    worker = raw._connection._thread
    died: list[BaseException | None] = []
    hook = threading.excepthook
    threading.excepthook = lambda args: died.append(args.exc_value)
    closed_loop = asyncio.new_event_loop()
    closed_loop.close()
    asyncio.set_event_loop(closed_loop)  # this thread's loop: a closed one
    try:
        engine.dialect.do_terminate(raw)
        worker.join(timeout=5)
    finally:
        asyncio.set_event_loop(None)
        threading.excepthook = hook
    assert not worker.is_alive()
    assert died == []
    assert raw._connection._connection is None  # the sqlite connection itself is closed
    asyncio.run(engine.dispose())
