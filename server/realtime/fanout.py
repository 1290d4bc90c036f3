"""Fan-out backends: telling every connection of a table, in every process, that the table
changed. The contract (``FanOut``, ``Listener``) belongs to the table service and lives in
``server.tables.fanout``; this module gives the in-process backend, :class:`MemoryFanOut`, and
the listener bookkeeping every backend shares. ``server.realtime.pg_fanout.PostgresFanOut``
(Postgres ``LISTEN/NOTIFY``) is chosen by ``GUILDHALL_FANOUT=postgres``.
"""

from __future__ import annotations

import logging

from server.tables.fanout import FanOut, Listener

__all__ = ["FanOut", "Listener", "LocalListeners", "MemoryFanOut"]

log = logging.getLogger(__name__)


class LocalListeners:
    """The listeners of this process, by table; shared by every backend."""

    def __init__(self) -> None:
        self._by_table: dict[str, list[Listener]] = {}
        self.every_table: list[Listener] = []  # told of every table (the clock keeper)

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
        for listener in [*self._by_table.get(table_id, []), *self.every_table]:
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
