"""A learning table's "what would the bot do?": the strong bot's three best commands for a seat.

Asked by the seat's own token, for its own seat, while it plays it and the game waits for it
(docs/seats.md); refused on a table created without the learning option, before the start and
after the end. The search sees what the seat sees, its view, and nothing else
(``server.bots.suggest``), and runs in a worker thread like a bot seat's, within the bots'
usual budget, charged to the same process-wide thinking budget as the bot seats
(``server.tables.bots.ThinkingBudget``), so that asking cannot starve the tables' bots of the
CPU: when that budget runs low the search is cut short. Each seat may ask a few times in a
row, then once every few seconds (``rate_limited``); the same question at the same version is
answered from memory.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from server.bots import DEFAULT_BUDGET, Budget
from server.bots.suggest import suggest
from server.engine import get_game

from . import seats as seat_model
from .cache import TableCache
from .data import ServiceError, TableData

BURST = 3  # suggestions a seat may ask for in a row
EVERY = 5.0  # seconds, then one more each
REMEMBERED = 256  # answers kept (table, seat, version)
FLOOR = 0.05  # seconds a suggestion searches however spent the thinking budget is


class Thinking(Protocol):
    """The bots' process-wide thinking budget (``server.tables.bots.ThinkingBudget``)."""

    def take(self, wanted: float, address: str | None = None) -> float: ...

    def settle(self, granted: float, used: float, address: str | None = None) -> None: ...


class SeatBuckets:
    """A token bucket per (table, seat): ``burst`` asks, then one every ``every`` seconds."""

    def __init__(self, burst: int, every: float, clock: Callable[[], float]) -> None:
        self.burst, self.every, self._clock = burst, every, clock
        self._levels: dict[tuple[str, int], tuple[float, float]] = {}

    def take(self, key: tuple[str, int]) -> float:
        """0 when the ask may go ahead (and is counted), else the seconds to wait."""
        now = self._clock()
        level, at = self._levels.get(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - at) / self.every)
        if level < 1:
            self._levels[key] = (level, now)
            return (1 - level) * self.every
        self._levels[key] = (level - 1, now)
        if len(self._levels) > 4 * REMEMBERED:  # forget full buckets: they say nothing
            full = [k for k, (lv, t) in self._levels.items() if lv + (now - t) / self.every >= 1]
            for k in full:
                del self._levels[k]
        return 0.0


class Suggester:
    """Answers ``POST /api/tables/{id}/seats/{seat}/suggest`` (``ask``)."""

    def __init__(
        self, secret_key: str, cache: TableCache, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.secret_key, self.cache = secret_key, cache
        self.buckets = SeatBuckets(BURST, EVERY, clock)
        self.budget = DEFAULT_BUDGET  # the bots' usual one (tests give a smaller one)
        self.thinking: Thinking | None = None  # the bot runner hands its own over
        self._answers: OrderedDict[tuple[str, int, int], list[dict[str, Any]]] = OrderedDict()

    async def ask(self, table_id: str, token: str, seat: int) -> dict[str, Any]:
        """The suggestions for ``seat`` at the table's stored version.

        Raises ServiceError: 'not_a_learning_table', 'not_started', 'finished',
        'not_your_turn' (409), 'rate_limited' (429), and the seat model's refusals
        ('bad_token', 'not_your_seat', 'seat_lost', 403).
        """
        data = await self.cache.get_stored(table_id)
        check_askable(data, self.secret_key, token, seat)
        key = (data.id, seat, data.version)
        found = self._answers.get(key)
        if found is None:
            wait = self.buckets.take((data.id, seat))
            if wait > 0:
                raise ServiceError(
                    "rate_limited",
                    f"at most {BURST} suggestions in a row, then one every {EVERY:g} s; "
                    f"try again in {math.ceil(wait)} s",
                    retry_after=math.ceil(wait),
                )
            budget, granted = self.budget, None
            if self.thinking is not None and budget.seconds is not None:
                granted = self.thinking.take(budget.seconds, data.creator_key)
                budget = replace(budget, seconds=max(granted, FLOOR))
            started = time.perf_counter()
            try:
                # Off the event loop, as a bot seat thinks (``server.tables.bots``).
                found = await asyncio.to_thread(compute, data, seat, budget)
            finally:
                if self.thinking is not None and granted is not None:
                    used = time.perf_counter() - started
                    self.thinking.settle(granted, used, data.creator_key)
            self._answers[key] = found
            while len(self._answers) > REMEMBERED:
                self._answers.popitem(last=False)
        return {"table_id": data.id, "seat": seat, "version": data.version, "suggestions": found}


def compute(data: TableData, seat: int, budget: Budget = DEFAULT_BUDGET) -> list[dict[str, Any]]:
    """The suggestions for ``seat`` made from its own view of ``data`` alone, the decision's
    step being the number of commands played (public: every version counts them)."""
    assert data.state is not None
    view = get_game(data.game).view(data.state, seat)
    return [s.to_json() for s in suggest(data.game, view, seat, data.seq, budget)]


def check_askable(data: TableData, secret_key: str, token: str, seat: int) -> None:
    """Refuse a suggestion unless ``data`` is a learning table under way, ``token`` plays
    ``seat`` and the game waits for that seat (``Suggester.ask`` lists the codes)."""
    if not data.learning:
        raise ServiceError(
            "not_a_learning_table",
            "this table was created without the learning option: no bot suggestions here",
        )
    access = seat_model.known_access(data, secret_key, token)
    seat_model.check_right(seat_model.Right.OWN_SEAT_PLAYER, data, access, seat)
    if data.status == "open":
        raise ServiceError("not_started", "the game has not started yet")
    if data.status == "finished" or data.state is None:
        raise ServiceError("finished", "the game is over")
    game = get_game(data.game)
    if seat not in game.to_act(data.state) or not game.legal(data.state, seat):
        raise ServiceError("not_your_turn", f"the game is not waiting for seat {seat}")
