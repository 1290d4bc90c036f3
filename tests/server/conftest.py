"""Server fixtures: every storage and whole-game test runs on SQLite and on Postgres."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.support.toy  # noqa: F401  (registers the "toy" game)
from server.settings import Settings
from tests.support.databases import fresh_database, migrated_database
from tests.support.play import running_app
from tests.support.testclient import TestClient

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=DATABASES)
def database_kind(request: pytest.FixtureRequest) -> str:
    """'sqlite' and 'postgres': every test using a database below runs on both."""
    return str(request.param)


@pytest.fixture
def empty_database_url(database_kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database with no schema."""
    with fresh_database(database_kind, tmp_path) as url:
        yield url


@pytest.fixture
def database_url(database_kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database at the newest schema (a copy of one migrated once per process)."""
    with migrated_database(database_kind, tmp_path) as url:
        yield url


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        public_url="http://testserver",
        secret_key="test-secret",
        bot_delay=0.0,
        max_message_bytes=4096,
        rate_limit=1000.0,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A running app (lifespan started) on the fresh database."""
    with running_app(settings) as test_client:
        yield test_client
