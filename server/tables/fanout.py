"""The fan-out protocol: how the table service tells every connection of a table, in every
process, that the table changed. The service owns this contract; backends live in
``server.realtime`` (``MemoryFanOut``) and ``server.realtime.pg_fanout`` (``PostgresFanOut``).

- ``publish`` is called by the table service after a change to ``table_id`` has been committed
  and the table is at ``version``. It returns once every local listener was called (and, for
  a cross-process backend, the notification was handed to the other processes).
- Every listener subscribed to ``table_id`` in **any** process is then called with
  ``(table_id, version)`` on that process's event loop. A listener must not block: it only
  notes the version and wakes its sender (the realtime session reads the table itself).
- A backend may coalesce or repeat notifications; listeners treat a version they already
  have as nothing new. Listener exceptions are logged and never reach the publisher.
- ``subscribe`` of the same listener twice is one subscription; ``unsubscribe`` of an unknown
  listener is a no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Listener = Callable[[str, int], None]


class FanOut(Protocol):
    """What the service and the sessions need from a fan-out backend."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, table_id: str, version: int) -> None: ...

    def subscribe(self, table_id: str, listener: Listener) -> None: ...

    def unsubscribe(self, table_id: str, listener: Listener) -> None: ...
