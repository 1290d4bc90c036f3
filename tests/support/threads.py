"""Running a blocking call in a thread of its own, for code that starts an event loop
(Alembic, ``asyncio.run``) called from a thread that may already run one (an async test,
Playwright's sync API)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_a_thread(call: Callable[[], T]) -> T:
    """``call()``'s value, computed in a new thread; what it raised is raised here."""
    made: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            made.append(call())
        except BaseException as exc:  # re-raised in the caller's thread below
            failed.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return made[0]
