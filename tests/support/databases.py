"""Fresh databases for tests: an SQLite file, or a new Postgres database dropped afterwards."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg


def _admin_url() -> str:
    url = os.environ["TEST_DATABASE_URL"]
    return url.replace("postgresql+asyncpg://", "postgresql://")


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new empty Postgres database (``guildhall_test_<random>``); dropped on exit.

    Yields its ``postgresql://`` URL.
    """
    admin = _admin_url()
    name = f"guildhall_test_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def fresh_database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh, empty database of ``kind`` ('sqlite' or 'postgres'); yields its URL."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'guildhall.db'}"
        return
    with fresh_postgres() as url:
        yield url
