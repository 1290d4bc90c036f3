"""App processes for a load run: ``guildhall serve`` children on 127.0.0.1, the environment and
migration they need, and the fresh database (SQLite file or new Postgres database) they share."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

from server.devtools.load import measure
from server.realtime.pg_fanout import asyncpg_dsn


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of an app process on ``database_url`` (Postgres ⇒ NOTIFY fan-out)."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(32),
        GUILDHALL_FANOUT="postgres" if database_url.startswith("postgres") else "memory",
        # A load run creates its tables from one address, far faster than any person would.
        GUILDHALL_CREATE_RATE=env.get("GUILDHALL_CREATE_RATE") or "1000000",
        GUILDHALL_UNJOINED_PER_ADDRESS=env.get("GUILDHALL_UNJOINED_PER_ADDRESS") or "1000000",
        GUILDHALL_UNJOINED_TABLES=env.get("GUILDHALL_UNJOINED_TABLES") or "1000000",
        GUILDHALL_BOT_TABLES=env.get("GUILDHALL_BOT_TABLES") or "1000000",
        # A load run measures the live tables: its finished games are not analysed, unless
        # asked for (the analysis has its own figures, docs/bots.md).
        GUILDHALL_ANALYSIS_CPU=env.get("GUILDHALL_ANALYSIS_CPU") or "0",
    )
    env.update(extra)
    return env


def run_migrate(env: Mapping[str, str], cwd: Path | None = None, timeout: float = 120) -> None:
    """Run ``guildhall migrate`` in a child process; raises CalledProcessError on failure."""
    subprocess.run(
        [sys.executable, "-m", "server.cli", "migrate"],
        env=dict(env),
        cwd=cwd,
        check=True,
        timeout=timeout,
        capture_output=True,
    )


@dataclass
class ServerProcess:
    """One ``guildhall serve`` child on 127.0.0.1; ``start`` waits until /healthz answers."""

    env: dict[str, str]
    log_path: Path
    port: int = field(default_factory=free_port)
    cwd: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    # The module run with ``--port``, and its other arguments (default: ``guildhall serve``).
    module: str = "server.cli"
    args: tuple[str, ...] = ("serve", "--host", "127.0.0.1")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> None:
        """Spawn the server and wait for /healthz; RuntimeError (with its log) if it fails."""
        argv = [sys.executable, "-m", self.module, *self.args, "--port", str(self.port)]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                argv, env=self.env, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT
            )
        wait_healthy(self.url, self.proc, self.log_path, timeout)

    def kill(self) -> None:
        """SIGKILL the process (no shutdown handlers run) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM, then SIGKILL if it has not exited within ``timeout`` seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def rss_bytes(self) -> int | None:
        """Resident memory of the live process (Linux /proc), else None."""
        return None if self.proc is None else measure.rss_bytes(self.proc.pid)

    def cpu_seconds(self) -> float | None:
        """User + system CPU time the live process has used (Linux /proc), else None."""
        return None if self.proc is None else measure.cpu_seconds(self.proc.pid)


def wait_healthy(url: str, proc: subprocess.Popen[bytes], log_path: Path, timeout: float) -> None:
    """Poll ``url``/healthz until 200; RuntimeError if the process dies or time runs out.

    One client for every poll: each new client loads the CA bundle (some 40 ms of CPU), and a
    server takes a dozen polls to come up."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=1) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}:\n{tail(log_path)}")
            with contextlib.suppress(httpx.HTTPError):
                if client.get(f"{url}/healthz").status_code == 200:
                    return
            time.sleep(0.1)
    raise RuntimeError(f"server not healthy after {timeout:.0f}s:\n{tail(log_path)}")


def tail(path: Path, lines: int = 30) -> str:
    """The last ``lines`` lines of a log file ('' if it does not exist)."""
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@contextlib.contextmanager
def running_servers(
    database_url: str, count: int, workdir: Path, *, module: str = "server.cli", **extra_env: str
) -> Iterator[list[ServerProcess]]:
    """Migrate ``database_url`` and run ``count`` servers on it (``python -m module serve``);
    always stops them after."""
    env = server_env(database_url, **extra_env)
    run_migrate(env)
    servers = [ServerProcess(env, workdir / f"server-{i}.log", module=module) for i in range(count)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


# -- databases -------------------------------------------------------------------------------


@contextlib.contextmanager
def database(kind: str, workdir: Path, postgres_url: str) -> Iterator[str]:
    """A fresh database URL of ``kind``: a ``sqlite`` file in ``workdir``, or a new
    ``postgres`` database on ``postgres_url``'s server; ValueError for any other kind."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / 'load.db'}"
    elif kind == "postgres":
        with fresh_postgres(postgres_url) as url:
            yield url
    else:
        raise ValueError(f"unknown database {kind!r} (sqlite or postgres)")


@contextlib.contextmanager
def fresh_postgres(admin_url: str, prefix: str = "gh_load") -> Iterator[str]:
    """A new, empty database on ``admin_url``'s server, dropped afterwards; yields its URL."""
    import psycopg

    admin = asyncpg_dsn(admin_url)
    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
