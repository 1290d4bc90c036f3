"""Fresh databases for tests: an SQLite file, or a new Postgres database dropped afterwards.

``migrated_database`` hands out databases already at the newest schema by copying one that
each test process migrates once (an SQLite file; a Postgres template database): running the
migrations for every test cost about 0.1 CPU-s of Python each, and Postgres's own work for
the DDL besides, over some 300 tests. The migrations themselves run on empty databases in
``tests/server/test_storage.py``, which also checks that a copy is at the newest schema.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from server.store.migrate import upgrade
from tests.support.threads import in_a_thread


def _admin_url() -> str:
    url = os.environ["TEST_DATABASE_URL"]
    return url.replace("postgresql+asyncpg://", "postgresql://")


def _sibling(name: str) -> str:
    base, _, _ = _admin_url().rpartition("/")
    return f"{base}/{name}"


def _drop(name: str) -> None:
    with psycopg.connect(_admin_url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def fresh_postgres(template: str | None = None) -> Iterator[str]:
    """A new Postgres database (``guildhall_test_<random>``), empty or a copy of ``template``;
    dropped on exit. Yields its ``postgresql://`` URL."""
    name = f"guildhall_test_{secrets.token_hex(6)}"
    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(_admin_url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    try:
        yield _sibling(name)
    finally:
        _drop(name)


@contextmanager
def fresh_database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh, empty database of ``kind`` ('sqlite' or 'postgres'); yields its URL."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'guildhall.db'}"
        return
    with fresh_postgres() as url:
        yield url


def _upgrade(url: str) -> None:
    # In a thread: Alembic runs an event loop of its own, and the caller may be inside one
    # (an async test, or Playwright's sync API).
    in_a_thread(lambda: upgrade(url, configure_logger=False))


# This process's migrated originals: kind -> SQLite file path or Postgres database name.
_migrated: dict[str, str] = {}


def _migrated_original(kind: str) -> str:
    if kind not in _migrated:
        if kind == "sqlite":
            folder = Path(tempfile.mkdtemp(prefix="guildhall-migrated-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            path = folder / "guildhall.db"
            _upgrade(f"sqlite+aiosqlite:///{path}")
            # The migration's engine is disposed: its last connection checkpointed the WAL
            # into the file, which alone is the whole database.
            assert not path.with_name(path.name + "-wal").exists()
            _migrated[kind] = str(path)
        else:
            name = f"guildhall_migrated_{secrets.token_hex(6)}"
            with psycopg.connect(_admin_url(), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            atexit.register(_drop, name)
            _upgrade(_sibling(name))
            _migrated[kind] = name
    return _migrated[kind]


@contextmanager
def migrated_database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh database of ``kind`` at the newest schema, as ``guildhall migrate`` leaves it;
    yields its URL (dropped or left in ``folder`` on exit)."""
    if kind == "sqlite":
        path = folder / "guildhall.db"
        shutil.copyfile(_migrated_original(kind), path)
        yield f"sqlite+aiosqlite:///{path}"
        return
    with migrated_postgres() as url:
        yield url


@contextmanager
def migrated_postgres() -> Iterator[str]:
    """A fresh Postgres database at the newest schema; dropped on exit."""
    with fresh_postgres(template=_migrated_original("postgres")) as url:
        yield url
