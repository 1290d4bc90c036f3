"""A fresh, uniquely named Postgres database per test run, dropped afterwards.

Uses the server in ``TEST_DATABASE_URL`` (``postgresql://postgres@127.0.0.1:5432/test``);
the tests that call it are marked ``postgres`` and skipped or failed by ``tests/conftest.py``
when it is not set.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg


def admin_url() -> str:
    """``TEST_DATABASE_URL`` in libpq form; raises KeyError when it is unset."""
    url = os.environ["TEST_DATABASE_URL"]
    scheme, rest = url.split("://", 1)
    return f"{scheme.split('+', 1)[0]}://{rest}"


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead of its own."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextlib.contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """Create an empty database, yield its libpq URL, then drop it (closing stray sessions)."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = admin_url()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(admin, name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
