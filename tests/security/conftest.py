"""Fixtures of the security suites: the server's app on a fresh database (SQLite, and Postgres
when configured) and headless Chromium."""

from tests.server.conftest import (  # noqa: F401
    client,
    database_kind,
    database_url,
    empty_database_url,
    settings,
)
from tests.web.conftest import browser  # noqa: F401
