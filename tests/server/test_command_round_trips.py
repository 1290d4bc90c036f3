"""A command on Postgres costs one statement on the command path's connections: the append
itself, and no reset of the connection when it goes back to its pool."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest

from server.engine import get_game
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings, normalize_database_url
from server.store.db import make_engine, make_sessionmaker
from server.tables import TableService
from tests.support.databases import migrated_postgres

pytestmark = pytest.mark.postgres


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with migrated_postgres() as url:
        yield url


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement sent on a connection of an asyncpg pool made from here on."""
    sent: list[str] = []
    create_pool = asyncpg.create_pool

    async def log_queries(conn: asyncpg.Connection) -> None:
        conn.add_query_logger(lambda record: sent.append(record.query))

    def logged_pool(*args: Any, **kwargs: Any) -> Any:
        assert "init" not in kwargs, "the command pool's own init would be replaced here"
        return create_pool(*args, init=log_queries, **kwargs)

    monkeypatch.setattr(asyncpg, "create_pool", logged_pool)
    return sent


@pytest.fixture
async def service(postgres_url: str) -> AsyncIterator[TableService]:
    settings = Settings(
        database_url=normalize_database_url(postgres_url), secret_key="s", bot_delay=0.0
    )
    engine = make_engine(settings.database_url)
    service = TableService(settings, make_sessionmaker(engine), MemoryFanOut())
    yield service
    await service.close()
    await engine.dispose()


async def test_each_command_is_one_statement_and_no_reset(
    service: TableService, statements: list[str]
) -> None:
    data, token = await service.create_table("toy", 2, {}, [], "Ada", seed="trips")
    await service.join(data.id, "Bea", invite=service.invite_code(data.id))
    await service.start(data.id, token)
    await play_one(service, data.id)
    warmed = len(statements)  # the pool opened on that first command
    assert warmed >= 1
    for _ in range(3):
        await play_one(service, data.id)
    sent = statements[warmed:]
    assert len(sent) == 3, sent
    assert all("INSERT INTO commands" in query for query in sent), sent
    assert not any("RESET ALL" in query or "UNLISTEN" in query for query in statements)


async def play_one(service: TableService, table_id: str) -> None:
    """The first legal command of the first seat to act (the table is held in memory)."""
    data = await service.get(table_id)
    game = get_game(data.game)
    assert data.state is not None
    seat = min(game.to_act(data.state))
    version = await service.submit(table_id, seat, game.legal(data.state, seat)[0])
    assert version == data.version + 1


async def test_closing_does_not_wait_for_ever_on_a_connection_that_never_comes_back(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    """A connection held past the shutdown (a command cancelled mid-statement) once kept the
    app's shutdown waiting for good: the close gives it a grace, then closes it at once."""
    data, token = await service.create_table("toy", 2, {}, [], "Ada", seed="held")
    await service.join(data.id, "Bea", invite=service.invite_code(data.id))
    await service.start(data.id, token)
    await play_one(service, data.id)  # opens the command pool
    pool = service.play._command_pool
    assert pool is not None
    await pool.acquire()  # never released
    await service.close(grace=0.2)
    assert pool.is_closing()
    assert service.play._command_pool is None
    assert "connections still out after" in caplog.text
