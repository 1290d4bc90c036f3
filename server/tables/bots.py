"""Bot seats play through the same service path as people, seeing only their own view.

After every change the runner looks at ``to_act``; for each bot seat there it waits
``settings.bot_delay`` seconds, asks ``server.bots.decide`` in a worker thread with that seat's
view, and submits the answer with ``TableService.submit``. One task per table at most.

Searching bots share one budget per process (``GUILDHALL_BOT_CPU`` seconds of search per
second, ``ThinkingBudget``), so that many bot tables cannot starve the people's tables of
the CPU: when it runs low a search is cut short, and when it is spent the game's heuristic
plays instead. A bot always plays: it thinks less, it never waits for the budget. The tables
created from one client address share at most ``GUILDHALL_BOT_CPU_PER_ADDRESS`` of it, so
one address's many bot tables leave the others' bots their search.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Callable

from server import metrics
from server.bots import DEFAULT_BUDGET, Budget, decide
from server.engine import Command, RuleError, get_game

from .data import ServiceError, TableData
from .seats import BOT
from .service import TableService

log = logging.getLogger(__name__)

FULL_SEARCH = 0.7  # seconds a searching bot thinks when the budget allows (bots.DEFAULT_BUDGET)
MIN_SEARCH = 0.05  # below this much budget the heuristic plays: a search would be noise
SEARCHING = frozenset({"mcts"})


class ThinkingBudget:
    """Seconds of bot thinking this process may spend: a bucket that fills at ``per_second``
    up to ``burst`` and is charged, after each decision, with the time it really took.

    ``take`` hands out at most what is in the bucket (never more than asked), so decisions
    running at once in worker threads cannot together overdraw it by more than their
    overruns; a decision that took longer than granted leaves the bucket in debt, and the
    next ones get nothing until it has filled again.
    """

    def __init__(
        self,
        per_second: float,
        burst: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        share: float | None = None,
    ) -> None:
        self.per_second = per_second
        self.burst = burst if burst is not None else max(2 * per_second, FULL_SEARCH)
        self._clock = clock
        self.level, self._at = self.burst, clock()
        # One address's own bucket, filling at ``share`` seconds a second (None: no shares);
        # a bucket that has filled up again says nothing and is dropped.
        self.share = share
        self._shares: dict[str, ThinkingBudget] = {}

    def _fill(self) -> None:
        now = self._clock()
        self.level = min(self.burst, self.level + (now - self._at) * self.per_second)
        self._at = now

    def take(self, wanted: float, address: str | None = None) -> float:
        """Seconds granted now for a decision that would like ``wanted`` (0 when spent), for
        a table created from ``address`` (its key; None: no address, no share)."""
        own = self._share_of(address)
        if own is not None:
            wanted = own.take(wanted)
        self._fill()
        granted = max(0.0, min(wanted, self.level))
        self.level -= granted
        if own is not None:
            own.level += wanted - granted  # what the process could not grant goes back
        return granted

    def settle(self, granted: float, used: float, address: str | None = None) -> None:
        """Charge the time a decision really took, against what ``take`` granted it."""
        own = self._share_of(address)
        if own is not None:
            own.settle(granted, used)
        self._fill()
        self.level = min(self.burst, self.level + granted - used)

    def _share_of(self, address: str | None) -> ThinkingBudget | None:
        if self.share is None or address is None:
            return None
        for key, bucket in list(self._shares.items()):
            bucket._fill()
            if key != address and bucket.level >= bucket.burst:
                del self._shares[key]
        if address not in self._shares:
            self._shares[address] = ThinkingBudget(self.share, clock=self._clock)
        return self._shares[address]


class BotRunner:
    """Drives the bot seats of every table this process has seen change."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._wanted: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        settings = service.settings
        self.thinking = ThinkingBudget(settings.bot_cpu, share=settings.bot_cpu_per_address)
        # A learning table's suggestions search on the same budget as the bot seats.
        service.suggester.thinking = self.thinking
        service.on_change.append(self.kick)

    def kick(self, data: TableData) -> None:
        """Note that ``data.id`` changed; start its bot task unless one is running."""
        if data.status != "playing" or not data.seat_kinds() or data.clock is not None:
            return  # a table with a clock: any process's clock keeper plays its bots
        self._wanted.add(data.id)
        task = self._tasks.get(data.id)
        if task is None or task.done():
            self._tasks[data.id] = asyncio.get_running_loop().create_task(self._loop(data.id))

    async def stop(self) -> None:
        """Cancel every bot task (at shutdown)."""
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()

    async def _loop(self, table_id: str) -> None:
        # A change during a round re-adds the table to _wanted, so the loop looks again.
        while table_id in self._wanted:
            self._wanted.discard(table_id)
            try:
                await self._round(table_id)
            except Exception:
                log.exception("bot round failed on table %s", table_id)

    async def _round(self, table_id: str) -> None:
        data = await self.service.get(table_id)
        if not self._bots_to_act(data):
            return
        await asyncio.sleep(self.service.settings.bot_delay)
        data = await self.service.get(table_id)
        for seat, kind in self._bots_to_act(data).items():
            await self._play(data, seat, kind)

    def _bots_to_act(self, data: TableData) -> dict[int, str]:
        if data.status != "playing" or data.state is None:
            return {}
        to_act = get_game(data.game).to_act(data.state)
        return {seat: kind for seat, kind in data.seat_kinds().items() if seat in to_act}

    async def _play(self, data: TableData, seat: int, kind: str) -> None:
        cmd = await self.think(data, seat, kind)
        if cmd is None:
            return
        assert data.state is not None
        legal = get_game(data.game).legal(data.state, seat)
        for attempt in (cmd, legal[0]):
            try:
                await self.service.submit(data.id, seat, attempt, by=BOT)
                return
            except (RuleError, ServiceError) as exc:
                # Usually the table moved on while the bot thought (the next change wakes it
                # again); if the bot chose badly, its first legal command is tried once.
                log.info("bot %s on table %s seat %s: %r", kind, data.id, seat, exc)

    async def think(
        self, data: TableData, seat: int, kind: str, seed: str | None = None
    ) -> Command | None:
        """Bot ``kind``'s command for ``seat`` from that seat's own view, within this
        process's thinking budget (None: the seat has nothing to play). A failing bot plays
        its first legal command: it must not stall the table. The clock keeper asks here too.
        """
        assert data.state is not None
        view = get_game(data.game).view(data.state, seat)
        legal = view.get("legal") or []
        if not legal:
            return None
        seed = seed or self._seed(data, seat)
        granted, search, budget = 0.0, "fixed", None
        if kind in SEARCHING:
            wanted = DEFAULT_BUDGET.seconds or FULL_SEARCH
            granted = self.thinking.take(wanted, data.creator_key)
            if granted < MIN_SEARCH:
                search, kind = "none", "greedy"
            else:
                search = "full" if granted >= (DEFAULT_BUDGET.seconds or 0) else "short"
                budget = Budget(iterations=DEFAULT_BUDGET.iterations, seconds=granted)
        started = time.perf_counter()
        try:
            cmd = await asyncio.to_thread(decide, kind, data.game, view, seat, seed, budget=budget)
        except Exception:
            # A failing bot must not stall the table: play its first legal command instead.
            log.exception("bot %s failed on table %s seat %s", kind, data.id, seat)
            cmd = legal[0]
        finally:
            used = time.perf_counter() - started
            self.thinking.settle(granted, used, data.creator_key)
            metrics.record_bot_decision(search, used)
        return cmd

    def _seed(self, data: TableData, seat: int) -> str:
        """A per-decision seed that tells the bot nothing about the table's secret seed."""
        message = f"{data.id}:{data.version}:{seat}".encode()
        key = self.service.settings.secret_key.encode()
        return hmac.new(key, message, hashlib.sha256).hexdigest()
