"""Notice fixtures: a fresh database per backend (SQLite and Postgres)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.store.migrate import upgrade
from tests.support.databases import fresh_database

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database migrated to the newest schema, once per backend."""
    with fresh_database(request.param, tmp_path) as url:
        upgrade(url)
        yield url
