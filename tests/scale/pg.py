"""A fresh, uniquely named Postgres database per test run, dropped afterwards.

Uses the server in ``TEST_DATABASE_URL`` (``postgresql://postgres@127.0.0.1:5432/test``);
the tests that call it are marked ``postgres`` and skipped or failed by ``tests/conftest.py``
when it is not set.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from server.devtools.load.servers import fresh_postgres


@contextlib.contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """Create an empty database, yield its libpq URL, then drop it (closing stray sessions).

    Raises KeyError when ``TEST_DATABASE_URL`` is unset.
    """
    with fresh_postgres(os.environ["TEST_DATABASE_URL"], prefix) as url:
        yield url
