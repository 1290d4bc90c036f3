"""A first-come, first-served gate in front of a connection pool.

asyncpg's pool hands out connections through an ``asyncio.Queue``. When a connection comes
back, the queue wakes its oldest waiter, but the connection stays in the queue until that
waiter's task runs; a command arriving in between takes it, and the woken waiter finds the
queue empty and goes to the back of the line. Under load that is most commands: on 100
counter tables on one process, half the commands waited about 30 ms for their write and one
in ten waited 0.5 s to 2.5 s, the same tables' commands passed over again and again. The
gate hands a freed slot straight to the oldest waiter, so a command waits its turn and no
longer.
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType


class FifoGate:
    """At most ``slots`` holders at once (``async with gate``); a freed slot goes to the one
    that has waited longest, never to a newcomer."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a gate needs at least one slot, not {slots}")
        self._free = slots
        self._waiters: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        """How many wait for a slot now."""
        return sum(not waiter.done() for waiter in self._waiters)

    async def __aenter__(self) -> None:
        if self._free > 0:  # a slot is only ever free while nobody waits
            self._free -= 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # a slot was handed over just before the cancel: pass it on
            raise  # a cancelled waiter stays in the deque, done; ``_release`` skips it

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._release()

    def _release(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # the slot changes hands without ever being free
                return
        self._free += 1
