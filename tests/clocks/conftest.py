"""Clock fixtures: table services on a fresh database (SQLite and Postgres), a clock to set."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import tests.support.toy  # noqa: F401  (registers the "toy" game)
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings
from server.store.db import make_engine, make_sessionmaker
from server.tables import TableService
from server.tables.bots import BotRunner
from server.timekeeping.keeper import ClockKeeper
from tests.support.databases import migrated_database

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
T0 = 1_800_000_000.0


class FakeTime:
    """The clocks' now, moved by the test."""

    def __init__(self, at: float = T0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


class Process:
    """One server process's service, bot runner and clock keeper on the shared database."""

    def __init__(self, settings: Settings, now: FakeTime) -> None:
        self.engine = make_engine(settings.database_url)
        self.service = TableService(settings, make_sessionmaker(self.engine), MemoryFanOut())
        self.service.now = now
        self.bots = BotRunner(self.service)
        self.keeper = ClockKeeper(self.service, self.service.sessions, self.bots)

    async def settle(self) -> None:
        """Let every bot task this process started finish (bot_delay is 0 here)."""
        for _ in range(200):
            tasks = [t for t in self.bots._tasks.values() if not t.done()]
            if not tasks:
                return
            await tasks[0]

    async def close(self) -> None:
        await self.bots.stop()
        await self.service.close()
        await self.engine.dispose()


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        public_url="http://testserver",
        secret_key="test-secret",
        bot_delay=0.0,
        clock_bot="random",
    )


@pytest.fixture
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def process(settings: Settings, now: FakeTime) -> AsyncIterator[Process]:
    proc = Process(settings, now)
    try:
        yield proc
    finally:
        await proc.close()
