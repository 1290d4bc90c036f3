"""The project's Dockerfile and docker-compose.yml, built and run as a self-hoster would.

On a private Docker Engine (``tests/deploy/engine.py``), following docs/self-hosting.md step by
step: a ``.env`` beside the compose file, the image built from the Dockerfile, ``docker
compose up -d --wait``, then, through the published port only: ``/healthz``, a table with a
bot seat created, started and played to the end over the websocket, the app's uid, a setting
taken from ``.env``, every log line JSON, ``restart app`` and ``down``/``up`` keeping every
table (named volume, no anonymous volumes), an upgrade's outage measured, and the documented
``pg_dump`` -> fresh database -> ``pg_restore`` bringing the finished game back.

Runs only with ``GUILDHALL_DOCKER_TESTS=1`` (``.ci/run`` runs it as its own step); skipped, with
the reason, where no engine can start, unless ``GUILDHALL_REQUIRE_DOCKER=1`` makes that a
failure. ``GUILDHALL_DOCKER_DATA_ROOT=DIR`` keeps the engine's images (the stand-ins) in DIR
between local runs; CI starts empty. Timings are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from websockets.sync.client import connect

from tests.deploy.engine import POSTGRES_STAND_IN, PYTHON_STAND_IN, Engine, EngineUnavailable
from tests.support.acks import answers, is_ack

ROOT = Path(__file__).resolve().parents[2]
CA_DIR = Path("/usr/local/share/ca-certificates")
IMAGE = "guildhall:latest"
WAIT = 120.0

pytestmark = [pytest.mark.docker, pytest.mark.timeout(3600)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def extra_ca_certs() -> str:
    """The machine's own CA certificates (a TLS re-signing proxy's), for the image build."""
    return "".join(p.read_text() for p in sorted(CA_DIR.glob("*.crt"))) if CA_DIR.is_dir() else ""


@dataclass
class Deployment:
    """The compose project: the repository's compose file, run from a directory with .env."""

    engine: Engine
    project_dir: Path
    url: str
    timings: dict[str, float]

    def compose(self, *argv: str, check: bool = True) -> str:
        done = self.engine.docker(
            "compose",
            "-f", str(ROOT / "docker-compose.yml"),
            "--project-directory", str(self.project_dir),
            "-p", "guildhall-e2e",
            *argv,
            check=check,
        )  # fmt: skip
        output: str = done.stdout
        return output

    def timed(self, label: str, *argv: str) -> str:
        started = time.perf_counter()
        out = self.compose(*argv)
        self.timings[label] = time.perf_counter() - started
        return out

    def http(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.loads(reply.read())

    def healthy(self) -> bool:
        try:
            return bool(self.http("GET", "/healthz")["status"] == "ok")
        except urllib.error.HTTPError as exc:
            exc.close()  # it holds the answer's socket
            return False
        except (OSError, ValueError):
            return False

    def wait_healthy(self) -> float:
        started = time.monotonic()
        while not self.healthy():
            assert time.monotonic() - started < WAIT, self.compose("logs", "--tail", "50")
            time.sleep(0.2)
        return time.monotonic() - started


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    try:
        started = Engine.start()
    except EngineUnavailable as exc:
        if os.environ.get("GUILDHALL_REQUIRE_DOCKER") == "1":
            pytest.fail(f"GUILDHALL_REQUIRE_DOCKER=1 but no Docker Engine: {exc}")
        pytest.skip(f"no Docker Engine can start here: {exc}")
    try:
        print(f"\nCompose {started.ensure_compose()}")
        started.build_stand_ins()
        yield started
    finally:
        started.stop()
        for label, seconds in started.timings.items():
            print(f"  {label}: {seconds:.1f} s")


@pytest.fixture(scope="module")
def deployment(engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    project_dir = tmp_path_factory.mktemp("compose-project")
    port = _free_port()
    # As docs/self-hosting.md: secrets and settings in .env next to the compose file.
    (project_dir / ".env").write_text(
        f"SECRET_KEY={secrets.token_urlsafe(32)}\n"
        f"POSTGRES_PASSWORD={secrets.token_urlsafe(24)}\n"
        f"PUBLIC_URL=http://127.0.0.1:{port}\n"
        f"GUILDHALL_PORT=127.0.0.1:{port}\n"
        f"POSTGRES_IMAGE={POSTGRES_STAND_IN}\n"
        f"PYTHON_IMAGE={PYTHON_STAND_IN}\n"
        "GUILDHALL_BOT_DELAY=0\n"
        "GUILDHALL_MAX_CONNECTIONS_PER_IP=3\n"
    )
    timings = engine.timings
    print(f"stand-ins: {PYTHON_STAND_IN} (Debian python3), {POSTGRES_STAND_IN} (Debian PG 15)")
    started = time.perf_counter()
    # The documented build, plus what this machine needs: its CA certificates, and the
    # host's network, as the engine gives containers no route of their own.
    engine.docker(
        "build", "-q", "--network", "host", "-t", IMAGE,
        "--build-arg", f"PYTHON_IMAGE={PYTHON_STAND_IN}",
        "--build-arg", f"EXTRA_CA_CERTS={extra_ca_certs()}",
        str(ROOT),
    )  # fmt: skip
    timings["image build"] = time.perf_counter() - started
    deployed = Deployment(engine, project_dir, f"http://127.0.0.1:{port}", timings)
    try:
        deployed.timed("up -d --wait (first)", "up", "-d", "--wait")
        yield deployed
    finally:
        deployed.compose("down", "-v", check=False)


def play_whole_game(deployment: Deployment) -> tuple[str, str]:
    """A two-seat Norenberc table (seat 1 a bot) played to the end over the websocket."""
    body = {"game": "norenberc", "seats": 2, "bots": [None, "random"], "name": "Ada"}
    created = deployment.http("POST", "/api/tables", body)
    table_id, token = created["table_id"], created["token"]
    deployment.http("POST", f"/api/tables/{table_id}/start", {}, token)
    rng, doc, sent, waiting_for = random.Random(7), None, 0, None
    ws_url = deployment.url.replace("http", "ws") + f"/ws/tables/{table_id}"
    with connect(ws_url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while doc is None or doc["table"]["status"] != "finished":
            assert sent < 5000, "the game does not end"
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "snapshot":
                doc = message["doc"]
            elif message["type"] == "patch":
                doc = jsonpatch.apply_patch(doc, message["ops"])
            if waiting_for is not None and answers(message, waiting_for):
                assert is_ack(message), message
                waiting_for = None
            if doc is None:
                continue
            legal = [c for c in doc.get("game", {}).get("legal", []) if c["type"] != "retract"]
            if legal and waiting_for is None and doc["table"]["status"] == "playing":
                sent += 1
                waiting_for = f"m{sent}"
                ws.send(
                    json.dumps({"type": "command", "id": waiting_for, "cmd": rng.choice(legal)})
                )
    assert sent > 5
    return table_id, token


def tables(deployment: Deployment, ids: list[str]) -> dict[str, Any]:
    """What must survive a restart of each table: its summary without the clock readings
    (the server's time, how long each person has been away), which move on by themselves."""
    kept = {}
    for table_id in ids:
        summary = deployment.http("GET", f"/api/tables/{table_id}")
        summary.pop("server_time", None)
        for seat in summary["seats"]:
            seat.pop("away_seconds", None)
        kept[table_id] = summary
    return kept


def test_the_composed_app_plays_keeps_and_restores_games(deployment: Deployment) -> None:
    d = deployment
    assert d.healthy()

    finished, _ = play_whole_game(d)
    record = d.http("GET", f"/api/tables/{finished}/record")
    assert record["result"]["scores"]
    waiting = d.http("POST", "/api/tables", {"game": "strasbourg", "seats": 3, "name": "Bo"})
    kept = [finished, waiting["table_id"]]
    before = tables(d, kept)

    # Unprivileged: the image's numeric user, seen from inside the running container.
    assert d.compose("exec", "-T", "app", "id", "-u").strip() == "10001"
    assert d.compose("exec", "-T", "app", "id", "-g").strip() == "10001"

    # A setting from .env reached the app: three websockets per address, the fourth refused.
    ws_url = d.url.replace("http", "ws") + f"/ws/tables/{waiting['table_id']}"
    with ExitStack() as held:
        for _ in range(3):
            held.enter_context(connect(ws_url, open_timeout=30))
        with connect(ws_url, open_timeout=30) as fourth:
            assert json.loads(fourth.recv(timeout=30))["code"] == "too_many_connections"

    # Restart: the same container, the same database.
    d.timed("restart app", "restart", "app")
    d.timings["restart app -> healthy"] = d.wait_healthy()
    assert tables(d, kept) == before

    # down / up: new containers, the named volume keeps the data, no anonymous volumes.
    volumes_before = set(d.engine.docker("volume", "ls", "-q").stdout.split())
    d.timed("down", "down")
    d.timed("up -d --wait (after down)", "up", "-d", "--wait")
    assert tables(d, kept) == before
    assert set(d.engine.docker("volume", "ls", "-q").stdout.split()) == volumes_before
    assert volumes_before == {"guildhall-e2e_pgdata"}

    # An upgrade as documented (`up -d` of a new image): how long nothing answers.
    outage = measure_outage(d)
    d.timings["upgrade outage (no answer)"] = outage
    assert tables(d, kept) == before

    # Every line the app container printed is one JSON object.
    logs = d.compose("logs", "--no-log-prefix", "--no-color", "app")
    lines = [line for line in logs.splitlines() if line.strip()]
    assert lines
    for line in lines:
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= set(entry), line
    loggers = {json.loads(line)["logger"] for line in lines}
    assert {"alembic.runtime.migration", "uvicorn.access", "guildhall.serve"} <= loggers

    # Backup and restore as docs/self-hosting.md: dump, a fresh database, restore.
    restored_record = backup_and_restore(d, finished)
    assert restored_record == record


def measure_outage(d: Deployment) -> float:
    """Seconds without an answer while ``up -d`` replaces the app with a new image."""
    d.engine.docker("tag", IMAGE, "guildhall:previous")
    # A "new release": the same image with one more label, so compose recreates the app.
    build_dir = d.project_dir / "next-release"
    build_dir.mkdir()
    (build_dir / "Dockerfile").write_text(f'FROM {IMAGE}\nLABEL release="next"\n')
    d.engine.docker("build", "-q", "-t", IMAGE, str(build_dir))

    answered: list[tuple[float, bool]] = []
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            answered.append((time.monotonic(), d.healthy()))
            time.sleep(0.1)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        d.timed("up -d (new image)", "up", "-d", "--wait")
        deadline = time.monotonic() + WAIT
        while not d.healthy():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(0.5)
    finally:
        stop.set()
        poller.join()
    longest, down_since = 0.0, None
    for at, ok in answered:
        if not ok and down_since is None:
            down_since = at
        elif ok and down_since is not None:
            longest, down_since = max(longest, at - down_since), None
    return longest


def backup_and_restore(d: Deployment, finished: str) -> Any:
    """pg_dump, ``down -v`` (the volume goes), ``up`` on an empty database, pg_restore."""
    dump_file = d.project_dir / "guildhall.dump"
    dumped = d.engine.docker(
        "compose", "-f", str(ROOT / "docker-compose.yml"), "--project-directory",
        str(d.project_dir), "-p", "guildhall-e2e",
        "exec", "-T", "db", "pg_dump", "-U", "guildhall", "-Fc", "guildhall",
        text=False,
    )  # fmt: skip
    dump_file.write_bytes(dumped.stdout)
    assert dump_file.stat().st_size > 1000
    d.timed("down -v", "down", "-v")
    d.timed("up -d --wait (empty database)", "up", "-d", "--wait")
    with pytest.raises(urllib.error.HTTPError) as gone:
        d.http("GET", f"/api/tables/{finished}")
    gone.value.close()
    assert gone.value.code == 404
    started = time.perf_counter()
    d.compose("stop", "app")
    d.compose("exec", "-T", "db", "dropdb", "-U", "guildhall", "guildhall")
    d.compose("exec", "-T", "db", "createdb", "-U", "guildhall", "guildhall")
    restore = d.engine.docker(
        "compose", "-f", str(ROOT / "docker-compose.yml"), "--project-directory",
        str(d.project_dir), "-p", "guildhall-e2e",
        "exec", "-T", "db", "pg_restore", "-U", "guildhall", "-d", "guildhall",
        input=dump_file.read_bytes(), text=False,
    )  # fmt: skip
    assert restore.returncode == 0
    d.compose("start", "app")
    d.wait_healthy()
    d.timings["restore (stop, dropdb, createdb, pg_restore, start)"] = time.perf_counter() - started
    return d.http("GET", f"/api/tables/{finished}/record")
