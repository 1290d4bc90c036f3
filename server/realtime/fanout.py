"""Fan-out: telling every connection of a table, in every process, that the table changed.

The interface (any backend implements these; the service and the websocket sessions use
nothing else)::

    class FanOut(Protocol):
        async def start(self) -> None: ...       # connect/listen; no-op in memory
        async def stop(self) -> None: ...        # release resources; no-op in memory
        async def publish(self, table_id: str, version: int) -> None: ...
        def subscribe(self, table_id: str, listener: Listener) -> None: ...
        def unsubscribe(self, table_id: str, listener: Listener) -> None: ...

    Listener = Callable[[str, int], None]        # listener(table_id, version)

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

Backends: :class:`MemoryFanOut` (one process) here; ``server.realtime.pg_fanout.PostgresFanOut``
(Postgres ``LISTEN/NOTIFY``, same methods) chosen by ``GUILDHALL_FANOUT=postgres``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

Listener = Callable[[str, int], None]

log = logging.getLogger(__name__)


class FanOut(Protocol):
    """What the service and the sessions need from a fan-out backend."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, table_id: str, version: int) -> None: ...

    def subscribe(self, table_id: str, listener: Listener) -> None: ...

    def unsubscribe(self, table_id: str, listener: Listener) -> None: ...


class LocalListeners:
    """The listeners of this process, by table; shared by every backend."""

    def __init__(self) -> None:
        self._by_table: dict[str, list[Listener]] = {}

    def add(self, table_id: str, listener: Listener) -> None:
        listeners = self._by_table.setdefault(table_id, [])
        if listener not in listeners:
            listeners.append(listener)

    def remove(self, table_id: str, listener: Listener) -> None:
        listeners = self._by_table.get(table_id, [])
        if listener in listeners:
            listeners.remove(listener)
        if not listeners:
            self._by_table.pop(table_id, None)

    def call(self, table_id: str, version: int) -> None:
        """Call every listener of ``table_id``; one failing listener does not stop the rest."""
        for listener in list(self._by_table.get(table_id, [])):
            try:
                listener(table_id, version)
            except Exception:  # a broken connection must not break the publisher
                log.exception("fan-out listener failed for table %s", table_id)

    def tables(self) -> list[str]:
        return list(self._by_table)


class MemoryFanOut:
    """In-process fan-out: ``publish`` calls this process's listeners directly."""

    def __init__(self) -> None:
        self.listeners = LocalListeners()

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, table_id: str, version: int) -> None:
        self.listeners.call(table_id, version)

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self.listeners.add(table_id, listener)

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        self.listeners.remove(table_id, listener)
