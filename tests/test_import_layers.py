"""The layers check itself: it finds arrows that point back, and the server has none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.import_layers import (
    LAYERS,
    RANK,
    SERVER,
    back_arrows,
    hidden_cycles,
    top_level_names,
    unranked,
    violations,
)


def test_the_server_imports_point_one_way() -> None:
    assert violations() == []


def test_a_back_pointing_import_is_found_even_inside_a_function() -> None:
    source = "import server.engine\n\ndef f():\n    from server.realtime.hub import Hub\n"
    assert back_arrows("server.tables.service", source) == [
        "server.tables.service:4: tables imports server.realtime.hub (realtime, above)"
    ]
    assert back_arrows("server.api.ws", "from server.tables import TableService\n") == []
    assert back_arrows("server.store.db", "import server.app\n") == [
        "server.store.db:1: store imports server.app (app, above)"
    ]


def test_an_import_sideways_relative_or_through_the_server_package_is_found() -> None:
    """Two packages of one layer import neither each other (that could close a circle), nor
    may a relative import or ``from server import x`` step around the check."""
    assert back_arrows("server.notify.outbox", "from server.realtime import hub\n") == [
        "server.notify.outbox:1: notify imports server.realtime (realtime, its own layer)"
    ]
    assert back_arrows("server.clocks.model", "from ..tables import data\n") == [
        "server.clocks.model:1: clocks imports server.tables (tables, above)"
    ]
    assert back_arrows("server.clocks", "from ..api import pages\n", is_package=True) == [
        "server.clocks:1: clocks imports server.api (api, above)"
    ]
    assert back_arrows("server.engine.data", "from server import metrics, tables\n") == [
        "server.engine.data:1: engine imports server.tables (tables, above)"
    ]
    assert back_arrows("server.tables.play", "from server import metrics\n") == []


def test_every_top_level_name_of_the_server_has_a_layer() -> None:
    names = top_level_names()
    assert {"engine", "tables", "clocks", "timekeeping", "notify", "app", "cli"} <= names
    assert unranked(names) == []
    # Each name is in one layer only.
    assert sum(len(names) for names in LAYERS) == len(RANK)


def test_an_unranked_new_package_or_module_fails(tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "__init__.py").write_text("")
    (tmp_path / "newthing").mkdir()
    (tmp_path / "newthing" / "__init__.py").write_text("")
    (tmp_path / "helpers.py").write_text("")
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "notes").mkdir()  # a folder without ``__init__.py`` is no package
    names = top_level_names(tmp_path)
    assert names == {"tables", "newthing", "helpers"}
    found = unranked(names)
    assert [line.split(" has no layer")[0] for line in found] == [
        "server/helpers",
        "server/newthing",
    ]
    assert "add it to LAYERS in tests/import_layers.py" in found[0]


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
    for module in ("server.realtime.views", "server.metrics", "server.devtools.views_bench"):
        done = subprocess.run(
            [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
    source = (SERVER / "metrics.py").read_text(encoding="utf-8")
    assert not [line for line in source.splitlines() if line.startswith("from server")]
