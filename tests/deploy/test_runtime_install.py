"""A server-only install runs every ``guildhall`` subcommand.

One fresh virtualenv gets the locked runtime set (``requirements/runtime.txt``, by hash)
and then the project with ``--no-deps`` (no extras, not editable): a package missing from the
lock or a development-only import fails here. The image installs the same two steps with
pip; here uv does them (the locked ``uv`` of ``.venv``, from the cache ``make`` filled), in
about a second of CPU instead of pip's fifteen. Then, from a directory outside the checkout so
that nothing can be found by accident: every subcommand's ``--help`` (all in one interpreter,
through ``server.cli.main``), ``migrate`` on a new SQLite file, ``serve`` until ``/healthz``,
the lobby and a static file answer. A development-only import (``httpx``, ``pytest`` ...)
reaching a subcommand's import path fails here. The developer tools (``server/devtools``) are
not installed at all: the installed modules are the checkout's without them, every one of them
imports without them, and their subcommands say that they are developer tools.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory

from server.cli import DEV_PACKAGE, DEV_SUBCOMMANDS, SUBCOMMANDS
from server.store.migrate import alembic_config

ROOT = Path(__file__).resolve().parents[2]
DEV_ONLY = ("httpx", "pytest", "hypothesis", "playwright", "psycopg", "mypy")
DATA_TREES = ("web", "seeds", "migrations")

pytestmark = [pytest.mark.install, pytest.mark.timeout(600)]


class RuntimeVenv:
    """A virtualenv holding the server's runtime dependencies only."""

    def __init__(self, path: Path, outside: Path) -> None:
        self.path, self.outside = path, outside
        self.bin = path / "bin"

    def env(self, **extra: str) -> dict[str, str]:
        """A clean environment: no PYTHONPATH, no settings inherited from the test run."""
        keep = {"HOME", "LANG", "TMPDIR", "SSL_CERT_FILE", "PIP_CERT"}
        env = {k: v for k, v in os.environ.items() if k in keep}
        env["PATH"] = f"{self.bin}:/usr/bin:/bin"
        env["SECRET_KEY"] = "runtime-install-test"
        env.update(extra)
        return env

    def run(self, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / argv[0]), *argv[1:]],
            cwd=self.outside,
            env=self.env(**env),
            capture_output=True,
            text=True,
            timeout=120,
        )


@pytest.fixture(scope="module")
def runtime_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RuntimeVenv]:
    base = tmp_path_factory.mktemp("runtime-install")
    venv = RuntimeVenv(base / "venv", base / "elsewhere")
    venv.outside.mkdir()
    started = time.perf_counter()
    uv = str(Path(sys.executable).parent / "uv")
    python = ["--python", str(venv.bin / "python")]
    # As the image does it: the locked runtime set by hash, then the project without deps.
    for step in (
        ["venv", "--quiet", "--python", sys.executable, str(venv.path)],
        [
            "pip",
            "install",
            "--quiet",
            *python,
            "--no-deps",
            "--require-hashes",
            "-r",
            str(ROOT / "requirements" / "runtime.txt"),
        ],
        ["pip", "install", "--quiet", *python, "--no-deps", "--no-build-isolation", str(ROOT)],
    ):
        done = subprocess.run(
            [uv, *step], cwd=venv.outside, capture_output=True, text=True, timeout=540
        )
        assert done.returncode == 0, done.stdout + done.stderr
    print(f"\nruntime-only venv built in {time.perf_counter() - started:.1f} s")
    yield venv


def test_no_development_package_is_installed(runtime_venv: RuntimeVenv) -> None:
    probe = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    done = runtime_venv.run("python", "-c", probe, *DEV_ONLY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"development packages in a runtime install: {done.stdout}"


def test_the_installed_code_is_used_not_the_checkout(runtime_venv: RuntimeVenv) -> None:
    probe = "import server, server.resources as r; print(server.__file__); print(r.ROOT)"
    done = runtime_venv.run("python", "-c", probe)
    assert done.returncode == 0, done.stderr
    module_file, data_root = done.stdout.split()
    assert str(runtime_venv.path) in module_file
    assert Path(data_root) == runtime_venv.path / "share" / "guildhall"


def test_no_developer_tool_is_installed(runtime_venv: RuntimeVenv) -> None:
    """The installed ``server`` package is the checkout's, less ``server/devtools``."""
    probe = "import server; print(server.__path__[0])"
    done = runtime_venv.run("python", "-c", probe)
    assert done.returncode == 0, done.stderr
    installed = Path(done.stdout.strip())
    assert runtime_venv.path in installed.parents

    def modules(root: Path) -> set[str]:
        return {p.relative_to(root).as_posix() for p in root.rglob("*.py")}

    devtools = ROOT / "server" / "devtools"
    checkout = modules(ROOT / "server") - {f"devtools/{m}" for m in modules(devtools)}
    assert modules(devtools), "no developer tools in the checkout to leave out"
    assert modules(installed) == checkout
    assert not (installed / "devtools").exists()


# Every module of the installed ``server`` package, imported in one interpreter: none may need
# a developer tool (or a development package) to import.
IMPORT_ALL = """
import importlib, json, pkgutil, sys
import server
names = sorted(m.name for m in pkgutil.walk_packages(server.__path__, "server."))
for name in names:
    importlib.import_module(name)
dev = sorted(m for m in sys.modules if m == sys.argv[1] or m.startswith(sys.argv[1] + "."))
print(json.dumps({"imported": names, "dev": dev}))
"""


def test_every_installed_module_imports_without_the_developer_tools(
    runtime_venv: RuntimeVenv,
) -> None:
    done = runtime_venv.run("python", "-c", IMPORT_ALL, DEV_PACKAGE)
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    assert {"server.app", "server.cli", "server.commands.serve"} <= set(found["imported"])
    assert not [name for name in found["imported"] if name.startswith(DEV_PACKAGE)]
    assert found["dev"] == []


def test_every_data_file_is_installed(runtime_venv: RuntimeVenv) -> None:
    share = runtime_venv.path / "share" / "guildhall"

    def files(root: Path) -> set[str]:
        found = {"alembic.ini"} if (root / "alembic.ini").is_file() else set()
        for tree in DATA_TREES:
            for path in (root / tree).rglob("*"):
                if path.is_file() and "__pycache__" not in path.parts:
                    found.add(path.relative_to(root).as_posix())
        return found

    assert files(share) == files(ROOT)


def test_guildhall_help_lists_every_subcommand(runtime_venv: RuntimeVenv) -> None:
    done = runtime_venv.run("guildhall", "--help")
    assert done.returncode == 0, done.stderr
    for name in [*SUBCOMMANDS, *DEV_SUBCOMMANDS]:
        assert name in done.stdout, f"`guildhall {name}` is missing from a runtime install"


# ``guildhall NAME --help`` for every NAME, in one interpreter of the runtime venv: the parser
# imports every subcommand's module and adds its arguments whichever one is asked for, so
# one process goes down every path seven processes did, for a seventh of the start-up.
HELP_OF_EACH = """
import contextlib, io, json, sys, traceback
from server.cli import main
answers = {}
for name in sys.argv[1:]:
    out, err = io.StringIO(), io.StringIO()
    code = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([name, "--help"])
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            traceback.print_exc()
            code = "raised"
    answers[name] = [code, out.getvalue(), err.getvalue()]
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def helps(runtime_venv: RuntimeVenv) -> dict[str, list[Any]]:
    """Each subcommand's ``--help``: [exit code, stdout, stderr], by name."""
    done = runtime_venv.run("python", "-c", HELP_OF_EACH, *SUBCOMMANDS, *DEV_SUBCOMMANDS)
    assert done.returncode == 0, done.stdout + done.stderr
    answers: dict[str, list[Any]] = json.loads(done.stdout)
    return answers


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_help_runs(helps: dict[str, list[Any]], name: str) -> None:
    code, out, err = helps[name]
    assert code == 0, err
    assert out.startswith(f"usage: guildhall {name}")


@pytest.mark.parametrize("name", DEV_SUBCOMMANDS)
def test_a_developer_tool_says_it_is_one(helps: dict[str, list[Any]], name: str) -> None:
    code, out, err = helps[name]
    assert code == 2, out + err
    assert f"guildhall {name}: a developer tool" in err
    assert "development checkout" in err
    assert "Traceback" not in err


def test_a_developer_tool_run_says_it_is_one(runtime_venv: RuntimeVenv) -> None:
    done = runtime_venv.run("guildhall", "loadtest", "--target", "http://127.0.0.1:9")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "guildhall loadtest: a developer tool" in done.stderr
    assert "Traceback" not in done.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def test_migrate_then_serve_on_sqlite(runtime_venv: RuntimeVenv) -> None:
    db_file = runtime_venv.outside / "data" / "guildhall.db"
    url = f"sqlite+aiosqlite:///{db_file}"
    migrated = runtime_venv.run("guildhall", "migrate", DATABASE_URL=url)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    with sqlite3.connect(db_file) as conn:
        assert conn.execute("select version_num from alembic_version").fetchall() == [(head,)]

    port = _free_port()
    log = runtime_venv.outside / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [str(runtime_venv.bin / "guildhall"), "serve", "--port", str(port)],
            cwd=runtime_venv.outside,
            env=runtime_venv.env(DATABASE_URL=url),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                if _get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "no /healthz within 60 s:\n" + log.read_text()
            time.sleep(0.2)
        status, lobby = _get(base + "/")
        assert status == 200 and b"<html" in lobby.lower()
        css = next((ROOT / "web" / "static" / "css").glob("*.css")).name
        assert _get(f"{base}/static/css/{css}")[0] == 200
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=15)
    assert "Traceback" not in log.read_text()
