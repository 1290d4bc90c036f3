"""``guildhall serve`` as a process: forwarded headers only from trusted proxies, and no socket
held open by a client that never finishes its request.

The per-address websocket cap is set to 1, so whether a second connection claiming another
``X-Forwarded-For`` address is refused shows which address the server believed.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode
from websockets.sync.client import ClientConnection, connect
from websockets.typing import ExtensionParameter

from server.serving import COMPRESS_FROM, uvicorn_config
from server.settings import Settings, load_settings

# Each test starts its own ``guildhall serve``: some 17 s of one worker together, so the module
# goes out with the long ones rather than last.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0  # upper bound for any wait below; the events themselves take about a second


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CLI = [sys.executable, "-m", "server.cli"]


def migrated(tmp_path: Path, port: int, **env: str) -> dict[str, str]:
    """The environment of a ``guildhall serve`` on ``port`` with ``env`` added, its SQLite
    file in ``tmp_path`` migrated."""
    full_env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/data/guildhall.db",
        "PORT": str(port),
        "SECRET_KEY": "serving-test",
        **env,
    }
    subprocess.run([*CLI, "migrate"], env=full_env, cwd=tmp_path, check=True, capture_output=True)
    return full_env


@contextmanager
def served(tmp_path: Path, **env: str) -> Iterator[str]:
    """A migrated ``guildhall serve`` on 127.0.0.1 with ``env`` added; yields its URL."""
    port = _free_port()
    full_env = migrated(tmp_path, port, **{"GUILDHALL_MAX_CONNECTIONS_PER_IP": "1", **env})
    log = tmp_path / f"serve-{port}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [*CLI, "serve"], env=full_env, cwd=tmp_path, stdout=out, stderr=out
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def _table(url: str) -> str:
    body = json.dumps({"game": "norenberc", "seats": 2, "bots": [None, "random"], "name": "Ada"})
    request = urllib.request.Request(
        f"{url}/api/tables", data=body.encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return str(json.loads(reply.read())["table_id"])


def _started_table(url: str) -> str:
    body = json.dumps({"game": "norenberc", "seats": 2, "bots": [None, "random"], "name": "Ada"})
    headers = {"content-type": "application/json"}
    request = urllib.request.Request(f"{url}/api/tables", data=body.encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=10) as reply:
        made = json.loads(reply.read())
    start = urllib.request.Request(
        f"{url}/api/tables/{made['table_id']}/start",
        data=b"{}",
        headers={**headers, "authorization": f"Bearer {made['token']}"},
    )
    with urllib.request.urlopen(start, timeout=10):
        return str(made["table_id"])


def _socket(url: str, table_id: str, forwarded_for: str) -> ClientConnection:
    ws_url = url.replace("http", "ws") + f"/ws/tables/{table_id}"
    return connect(ws_url, additional_headers={"X-Forwarded-For": forwarded_for}, open_timeout=WAIT)


def _first_message(ws: ClientConnection) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello"}))
    message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
    return message


def test_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(tmp_path: Path) -> None:
    with served(tmp_path) as url:
        table_id = _table(url)
        with _socket(url, table_id, "203.0.113.7") as first:
            _first_message(first)
            # Another claimed address, same peer: the server counts the peer, so it is full.
            with _socket(url, table_id, "203.0.113.8") as second:
                refused = json.loads(second.recv(timeout=WAIT))
    assert refused["type"] == "error" and refused["code"] == "too_many_connections"


def test_a_trusted_proxy_passes_on_each_client_address(tmp_path: Path) -> None:
    with served(tmp_path, GUILDHALL_TRUSTED_PROXIES="10.9.0.0/16, 127.0.0.1") as url:
        table_id = _table(url)
        with _socket(url, table_id, "203.0.113.7") as first:
            assert _first_message(first)["type"] != "error"
            with _socket(url, table_id, "203.0.113.8") as second:
                assert _first_message(second)["type"] != "error"
            # The same forwarded address twice is one client: the cap applies to it.
            with _socket(url, table_id, "203.0.113.7") as again:
                refused = json.loads(again.recv(timeout=WAIT))
    assert refused["code"] == "too_many_connections"


def _closed_within(sock: socket.socket, seconds: float) -> bytes:
    """Everything the server sends until it closes the connection (bounded by ``seconds``)."""
    sock.settimeout(seconds)
    received = b""
    while chunk := sock.recv(4096):
        received += chunk
    return received


def test_a_request_that_never_completes_is_answered_408_and_closed(tmp_path: Path) -> None:
    env = {"GUILDHALL_REQUEST_TIMEOUT": "1", "GUILDHALL_KEEPALIVE_TIMEOUT": "1"}
    with served(tmp_path, **env) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as silent:
            assert _closed_within(silent, WAIT).startswith(b"HTTP/1.1 408 ")
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # headers never finished
            assert _closed_within(slow, WAIT).startswith(b"HTTP/1.1 408 ")
        with socket.create_connection(("127.0.0.1", port)) as slow_body:
            slow_body.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 90\r\n\r\n{"
            )
            assert b"408" in _closed_within(slow_body, WAIT).split(b"\r\n", 1)[0]
        with socket.create_connection(("127.0.0.1", port)) as idle:
            idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = _closed_within(idle, WAIT)  # served, then closed when idle
            assert answer.startswith(b"HTTP/1.1 200 ") and b"408" not in answer


def test_an_upgraded_websocket_outlives_the_request_timeout(tmp_path: Path) -> None:
    env = {"GUILDHALL_REQUEST_TIMEOUT": "1", "GUILDHALL_MAX_CONNECTIONS_PER_IP": "5"}
    with served(tmp_path, **env) as url:
        table_id = _table(url)
        with _socket(url, table_id, "198.51.100.1") as ws:
            time.sleep(2.5)  # well past the request timeout
            assert _first_message(ws)["type"] != "error"


class _RecordingDeflate(PerMessageDeflate):
    """The client's permessage-deflate, noting for each message whether it came compressed."""

    compressed: list[bool]

    def decode(self, frame: Frame, *, max_size: int | None = None) -> Frame:
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            self.compressed.append(frame.rsv1)
        return super().decode(frame, max_size=max_size)


class _RecordingFactory(ClientPerMessageDeflateFactory):
    def __init__(self) -> None:
        super().__init__(client_max_window_bits=True)
        self.compressed: list[bool] = []

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        agreed = super().process_response_params(params, accepted_extensions)
        recording = _RecordingDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
        )
        recording.compressed = self.compressed
        return recording


def test_only_websocket_messages_of_a_kilobyte_or_more_are_compressed(tmp_path: Path) -> None:
    with served(tmp_path, GUILDHALL_MAX_CONNECTIONS_PER_IP="5") as url:
        table_id = _started_table(url)  # a game under way: its snapshot weighs kilobytes
        factory = _RecordingFactory()
        ws_url = url.replace("http", "ws") + f"/ws/tables/{table_id}"
        with connect(ws_url, compression=None, extensions=[factory], open_timeout=WAIT) as ws:
            ws.send(json.dumps({"type": "hello"}))
            texts = [ws.recv(timeout=WAIT) for _ in range(2)]  # presence and snapshot
            for _ in range(3):  # small answers between two compressed messages
                ws.send(json.dumps({"type": "ping"}))
                texts.append(ws.recv(timeout=WAIT))
            ws.send(json.dumps({"type": "snapshot_request"}))
            texts.append(ws.recv(timeout=WAIT))
    messages = [json.loads(text) for text in texts]
    kinds = [message["type"] for message in messages]
    assert sorted(kinds[:2]) == ["presence", "snapshot"]
    assert kinds[2:] == ["pong", "pong", "pong", "snapshot"]
    assert factory.compressed == [len(str(text).encode()) >= COMPRESS_FROM for text in texts]
    assert True in factory.compressed and False in factory.compressed
    # The second snapshot inflated right after plain messages: both sides' windows agree.
    snapshots = [message for message in messages if message["type"] == "snapshot"]
    assert snapshots[0]["doc"]["table"] == snapshots[1]["doc"]["table"]


def test_settings_reach_the_uvicorn_configuration() -> None:
    plain = uvicorn_config(object(), Settings(secret_key="k"))
    assert plain.proxy_headers is False and plain.timeout_keep_alive == 5
    behind = load_settings({"SECRET_KEY": "k", "GUILDHALL_TRUSTED_PROXIES": "172.31.253.0/24, ::1"})
    config = uvicorn_config(object(), behind)
    assert config.proxy_headers is True
    assert config.forwarded_allow_ips == ["172.31.253.0/24", "::1"]
    with pytest.raises(ValueError, match="GUILDHALL_TRUSTED_PROXIES"):
        load_settings({"SECRET_KEY": "k", "GUILDHALL_TRUSTED_PROXIES": "proxy.example"})


# In a process of its own (the collector's settings are the whole process's): the real
# ``guildhall serve``, and a thread that waits for /healthz, reads the collector and stops it.
SERVE_AND_READ_THE_COLLECTOR = """
import gc, json, os, signal, sys, threading, time, urllib.request
import server.app
from server.cli import main

apps = []
def create_app(settings):
    apps.append(server.app.make_app(settings))
    return apps[-1]
server.app.make_app, server.app.create_app = server.app.create_app, create_app
seen = {"before": gc.get_threshold()}

def watch():
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(sys.argv[1] + "/healthz", timeout=2).close()
            break
        except OSError:
            time.sleep(0.1)
    seen["after"], seen["frozen"] = gc.get_threshold(), gc.get_freeze_count()
    service = apps[0].state.service  # made by the lifespan's start-up
    seen["service_collectable"] = any(thing is service for thing in gc.get_objects())
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=watch, daemon=True).start()
try:
    main(["serve"])
except KeyboardInterrupt:  # uvicorn raises the interrupt again once it has shut down
    pass
print(json.dumps(seen))
"""


def test_the_served_process_collects_garbage_in_fewer_larger_steps(tmp_path: Path) -> None:
    port = _free_port()
    env = migrated(tmp_path, port)
    run = subprocess.run(
        [sys.executable, "-c", SERVE_AND_READ_THE_COLLECTOR, f"http://127.0.0.1:{port}"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.splitlines()[-1])
    assert seen["before"] == [700, 10, 10]  # Python's defaults
    assert seen["after"] == [20_000, 50, 100]
    assert seen["frozen"] > 1000
    # Frozen after the lifespan's start-up: what it made is out of the collector's reach too.
    assert seen["service_collectable"] is False
