"""Run the container's command the way the image would, without a Docker engine.

The files the Dockerfile copies are staged into an empty directory that stands in for
``/app``; the image's ``CMD`` line (``guildhall migrate && exec guildhall serve …``) then runs
there with the image's environment and the settings Compose gives, against a temporary SQLite
file and (marked ``postgres``) a fresh Postgres database. A file the code needs at run time
but the Dockerfile forgets to copy makes the server fail here as it would in the container.
The only change is the listening address: 127.0.0.1 instead of 0.0.0.0.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server.devtools.load.servers import free_port, wait_healthy
from tests.deploy.test_container_files import ROOT, container_command, instruction_args
from tests.scale.pg import fresh_database


def stage_image(app: Path) -> None:
    """Copy what the Dockerfile's COPY instructions copy into ``app`` (the image's /app)."""
    ignored = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "data")
    # The build context leaves out what .dockerignore names by path (server/devtools, ...).
    excluded = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if "/" in line and not line.startswith("#") and "*" not in line
    }
    for arg in instruction_args("COPY"):
        *sources, dest = shlex.split(arg)
        for source in sources:
            target = app / dest / source if dest.endswith("/") else app / dest
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, target, ignore=ignored)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / source, target)
    for path in excluded:
        if (app / path).is_dir():
            shutil.rmtree(app / path)
    (app / "data").mkdir()


def install_entry_point(app: Path) -> Path:
    """A ``guildhall`` executable like the one ``pip install -e .`` puts on the image's PATH."""
    bin_dir = app.parent / "bin"
    bin_dir.mkdir()
    script = bin_dir / "guildhall"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m server.cli "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return bin_dir


def image_env(app: Path, bin_dir: Path, database_url: str, port: int) -> dict[str, str]:
    """The environment inside the container: the image's ENV plus what Compose sets."""
    env = {
        **dict(pair.split("=", 1) for pair in image_env_defaults()),
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HOME": str(app),
        "PYTHONPATH": str(app),  # the editable install makes /app importable
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "PORT": str(port),
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret-key-for-the-container-command",
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    if database_url.startswith("postgres"):
        env["GUILDHALL_FANOUT"] = "postgres"
    return env


def image_env_defaults() -> list[str]:
    """``NAME=value`` pairs of the Dockerfile's ENV lines (``GUILDHALL_LOG_FORMAT=json`` ...)."""
    return [pair for arg in instruction_args("ENV") for pair in shlex.split(arg)]


def assert_every_line_is_json(log: Path) -> None:
    """What the container printed: one JSON object per line, uvicorn and Alembic included."""
    lines = log.read_text().splitlines()
    assert lines
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            raise AssertionError(f"not a JSON line: {line!r}") from None
        assert isinstance(entry, dict) and {"time", "level", "logger", "message"} <= set(entry)
    loggers = {json.loads(line)["logger"] for line in lines}
    assert {"alembic.runtime.migration", "uvicorn.error", "uvicorn.access"} <= loggers, loggers


def local_command() -> str:
    """The image's CMD line, listening on 127.0.0.1 only (the suite never opens other ports)."""
    line = container_command()
    assert "--host 0.0.0.0" in line
    return line.replace("--host 0.0.0.0", "--host 127.0.0.1")


class Container:
    """The CMD running in a staged /app; ``boot`` starts it and waits for /healthz."""

    def __init__(self, app: Path, env: dict[str, str]) -> None:
        self.app, self.env = app, env
        self.url = f"http://127.0.0.1:{env['PORT']}"
        self.log = app.parent / "container.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def boot(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                ["sh", "-c", local_command()],
                cwd=self.app,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # so stop() reaches the shell and what it exec'd
            )
        wait_healthy(self.url, self.proc, self.log, timeout=60)

    def stop(self) -> int | None:
        """SIGTERM the process group (as ``docker stop`` does), SIGKILL after 10 s."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            return None


@pytest.fixture
def staged(tmp_path: Path) -> Iterator[Path]:
    app = tmp_path / "app"
    stage_image(app)
    yield app


def run_twice(app: Path, database_url: str) -> Container:
    """Boot, check, stop, then boot again on the same database (migrate must be repeatable)."""
    bin_dir = install_entry_point(app)
    env = image_env(app, bin_dir, database_url, free_port())
    container = Container(app, env)
    try:
        container.boot()
        check_serving(container.url)
        # uvicorn shuts down cleanly, then re-raises SIGTERM so the exit status reports it.
        assert container.stop() in (0, -signal.SIGTERM), container.log.read_text()
        assert "Application shutdown complete" in container.log.read_text()
        container.boot()
        check_serving(container.url)
    finally:
        container.stop()
    assert_every_line_is_json(container.log)
    return container


def check_serving(url: str) -> None:
    """The booted server answers its health check, its lobby page and its metrics."""
    with httpx.Client(base_url=url, timeout=10) as client:
        assert client.get("/healthz").status_code == 200
        lobby = client.get("/")
        assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
        assert "server" not in lobby.headers  # the server does not name its software
        metrics = client.get("/metrics")
        assert metrics.status_code == 200 and "guildhall_connections" in metrics.text


@pytest.mark.slow
def test_container_command_migrates_and_serves_on_sqlite(staged: Path) -> None:
    db_file = staged / "data" / "guildhall.db"
    run_twice(staged, f"sqlite+aiosqlite:///{db_file}")
    assert db_file.exists()


@pytest.mark.slow
@pytest.mark.postgres
def test_container_command_migrates_and_serves_on_postgres(staged: Path) -> None:
    with fresh_database("gh_container") as url:
        run_twice(staged, url)


# ``guildhall`` in the staged /app. The suite's own editable install of the checkout would find
# a module missing from /app in the checkout instead (its finder comes after /app on the
# path); in the image the editable install is /app itself, so it is left out here.
STAGED_CLI = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "Editable" not in getattr(f, "__name__", "")]
from server.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_image_has_no_developer_tools(staged: Path) -> None:
    """What the image copies leaves ``server/devtools`` out: its subcommands say so."""
    assert (ROOT / "server" / "devtools").is_dir()
    assert (staged / "server" / "cli.py").is_file()
    assert not (staged / "server" / "devtools").exists()
    env = image_env(staged, staged / "no-bin", f"sqlite+aiosqlite:///{staged}/data/t.db", 1)
    done = subprocess.run(
        [sys.executable, "-c", STAGED_CLI, "tournament", "norenberc"],
        cwd=staged,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "guildhall tournament: a developer tool" in done.stderr
    assert "Traceback" not in done.stderr
