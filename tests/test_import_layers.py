"""The layers check itself: it finds arrows that point back, and the server has none."""

from __future__ import annotations

import subprocess
import sys

from tests.import_layers import SERVER, back_arrows, hidden_cycles, violations


def test_the_server_imports_point_one_way() -> None:
    assert violations() == []


def test_a_back_pointing_import_is_found_even_inside_a_function() -> None:
    source = "import server.engine\n\ndef f():\n    from server.realtime.hub import Hub\n"
    assert back_arrows("server.tables.service", source) == [
        "server.tables.service:4: tables imports server.realtime.hub (realtime)"
    ]
    assert back_arrows("server.api.ws", "from server.tables import TableService\n") == []
    assert back_arrows("server.store.db", "import server.app\n") == []  # not a ranked layer


def test_a_function_level_import_that_hides_a_cycle_is_found() -> None:
    sources = {
        "server.games.g": "",
        "server.games.g.flow": "def f():\n    from .actions import resolve\n",
        "server.games.g.actions": "from .flow import finish\n",
        "server.games.g.views": "def f():\n    from .actions import resolve\n",
    }
    assert hidden_cycles(sources, {"server.games.g"}) == [
        "server.games.g.flow:2: the function-level import of server.games.g.actions hides a cycle"
    ]
    # Through a chain of modules, and from a package's own ``__init__``.
    chain = {
        "server.tables": "from .service import TableService\n",
        "server.tables.service": "from server.tables.lobby import Lobby\n",
        "server.tables.lobby": "def f():\n    import server.tables\n",
    }
    assert hidden_cycles(chain, {"server.tables"}) == [
        "server.tables.lobby:2: the function-level import of server.tables hides a cycle"
    ]
    # A lazy import with no way back is no cycle.
    lazy = {"server.app": "def f():\n    from server.realtime.pg_fanout import PostgresFanOut\n"}
    assert hidden_cycles({**lazy, "server.realtime.pg_fanout": "import asyncpg\n"}) == []


def test_the_metrics_and_the_views_import_first_in_a_fresh_process() -> None:
    """``server.metrics`` is counted in by every layer, so it imports nothing of the server:
    it once imported the views, and the views, imported first, failed halfway through a
    cycle (views → tables → play → metrics → views)."""
    for module in ("server.realtime.views", "server.metrics", "server.realtime.bench"):
        done = subprocess.run(
            [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
    source = (SERVER / "metrics.py").read_text(encoding="utf-8")
    assert not [line for line in source.splitlines() if line.startswith("from server")]
