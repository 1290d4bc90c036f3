"""Presence: which seats of a table have an open connection in this process."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

PresenceListener = Callable[[], None]


class Hub:
    """Counts connections per (table, seat) and tells a table's connections when that changes."""

    def __init__(self) -> None:
        self._seats: dict[str, Counter[int]] = {}
        self._listeners: dict[str, list[PresenceListener]] = {}

    def connected(self, table_id: str) -> frozenset[int]:
        """Seats of ``table_id`` with at least one connection."""
        return frozenset(s for s, n in self._seats.get(table_id, Counter()).items() if n > 0)

    def occupied(self) -> dict[str, set[int]]:
        """Every table's seats with at least one connection here."""
        return {t: {s for s, n in counts.items() if n > 0} for t, counts in self._seats.items()}

    def watch(self, table_id: str, listener: PresenceListener) -> None:
        self._listeners.setdefault(table_id, []).append(listener)

    def unwatch(self, table_id: str, listener: PresenceListener) -> None:
        listeners = self._listeners.get(table_id, [])
        if listener in listeners:
            listeners.remove(listener)
        if not listeners:
            self._listeners.pop(table_id, None)

    def seat_changed(self, table_id: str, old: int | None, new: int | None) -> None:
        """A connection's seat went from ``old`` to ``new`` (None: spectator or gone)."""
        before = self.connected(table_id)
        counts = self._seats.setdefault(table_id, Counter())
        if old is not None:
            counts[old] -= 1
        if new is not None:
            counts[new] += 1
        if not +counts:
            self._seats.pop(table_id, None)
        if self.connected(table_id) != before:
            for listener in list(self._listeners.get(table_id, [])):
                listener()
