"""The developer tools (``server/devtools``) stay outside the runtime.

The wheel and the image leave the package out (``tests/deploy/test_runtime_install.py`` and
``tests/deploy/test_container_*.py`` check what they install), so a runtime module that
imported it would fail in a server install. Here, in the checkout: no runtime module names it
in an import, at module level or inside a function, and building the app and the command line
loads none of it (the install test imports every installed module without it).
``server/cli.py`` alone names the package, to hand a developer tool's command line over when
one is asked for, and does so.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli import DEV_PACKAGE, DEV_SUBCOMMANDS, main
from tests.import_layers import SERVER, module_name

DEVTOOLS = SERVER / "devtools"


def runtime_modules() -> dict[str, Path]:
    """Every module of ``server/`` outside ``server/devtools``, by dotted name."""
    return {
        module_name(path): path
        for path in sorted(SERVER.rglob("*.py"))
        if DEVTOOLS not in path.parents
    }


def names_of_devtools(source: str) -> list[int]:
    """Lines of ``source`` on which an import or a string names the developer tools."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            named += [alias.name for alias in node.names if node.level]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = [node.value]
        else:
            continue
        if any(name.startswith(DEV_PACKAGE) or name == "devtools" for name in named):
            found.append(node.lineno)
    return found


def test_the_name_check_sees_every_form_of_import() -> None:
    source = (
        "import server.devtools.load\n"
        "from server.devtools.bots import stats\n"
        "from server import devtools\n"
        "def f():\n    from .devtools import bench\n"
        "importlib.import_module('server.devtools.bench')\n"
        "import server.bots\nfrom server import cli\n"
    )
    assert names_of_devtools(source) == [1, 2, 3, 5, 6]


def test_no_runtime_module_names_the_developer_tools() -> None:
    modules = runtime_modules()
    assert "server.app" in modules and "server.cli" in modules
    assert not [name for name in modules if name.startswith(DEV_PACKAGE)]
    naming = {
        name: lines
        for name, path in modules.items()
        if (lines := names_of_devtools(path.read_text(encoding="utf-8")))
    }
    # The command line hands a developer tool over by the package's name, and only there.
    assert set(naming) <= {"server.cli"}, naming
    assert DEVTOOLS.joinpath("__init__.py").is_file()


# In a fresh interpreter: the app, the command line's parser and `guildhall serve --help`;
# then which modules of the developer tools were loaded.
RUNTIME_PATH = """
import contextlib, io, json, sys
from server.app import create_app
from server.cli import build_parser, main
create_app()
build_parser()
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(["serve", "--help"])
prefix = sys.argv[1]
print(json.dumps(sorted(m for m in sys.modules if m == prefix or m.startswith(prefix + "."))))
"""


def test_importing_the_runtime_loads_no_developer_tool(tmp_path: Path) -> None:
    env = {"SECRET_KEY": "developer-tools-test", "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"}
    done = subprocess.run(
        [sys.executable, "-c", RUNTIME_PATH, DEV_PACKAGE],
        capture_output=True,
        text=True,
        timeout=120,
        env={**_base_env(), **env},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []


def _base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("GUILDHALL_")}


@pytest.mark.parametrize("name", DEV_SUBCOMMANDS)
def test_a_checkout_runs_each_developer_tool_as_before(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: guildhall {name}")
    # The description, as argparse wraps it.
    assert importlib.import_module(f"{DEV_PACKAGE}.commands.{name}").HELP in " ".join(out.split())
