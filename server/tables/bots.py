"""Bot seats play through the same service path as people, seeing only their own view.

After every change the runner looks at ``to_act``; for each bot seat there it waits
``settings.bot_delay`` seconds, asks ``server.bots.decide`` in a worker thread with that seat's
view, and submits the answer with ``TableService.submit``. One task per table at most.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging

from server.bots import decide
from server.engine import RuleError, get_game

from .data import ServiceError, TableData
from .seats import BOT
from .service import TableService

log = logging.getLogger(__name__)


class BotRunner:
    """Drives the bot seats of every table this process has seen change."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._wanted: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        service.on_change.append(self.kick)

    def kick(self, data: TableData) -> None:
        """Note that ``data.id`` changed; start its bot task unless one is running."""
        if data.status != "playing" or not data.seat_kinds():
            return
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
        assert data.state is not None
        view = get_game(data.game).view(data.state, seat)
        legal = view.get("legal") or []
        if not legal:
            return
        seed = self._seed(data, seat)
        try:
            cmd = await asyncio.to_thread(decide, kind, data.game, view, seat, seed)
        except Exception:
            # A failing bot must not stall the table: play its first legal command instead.
            log.exception("bot %s failed on table %s seat %s", kind, data.id, seat)
            cmd = legal[0]
        for attempt in (cmd, legal[0]):
            try:
                await self.service.submit(data.id, seat, attempt, by=BOT)
                return
            except (RuleError, ServiceError) as exc:
                # Usually the table moved on while the bot thought (the next change wakes it
                # again); if the bot chose badly, its first legal command is tried once.
                log.info("bot %s on table %s seat %s: %r", kind, data.id, seat, exc)

    def _seed(self, data: TableData, seat: int) -> str:
        """A per-decision seed that tells the bot nothing about the table's secret seed."""
        message = f"{data.id}:{data.version}:{seat}".encode()
        key = self.service.settings.secret_key.encode()
        return hmac.new(key, message, hashlib.sha256).hexdigest()
