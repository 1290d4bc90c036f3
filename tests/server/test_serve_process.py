"""`guildhall migrate` + `guildhall serve` as a real process on 127.0.0.1: a whole game by
HTTP and websocket, with a bot seat, then the record verifies."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from websockets.sync.client import connect

from tests.support.acks import answers, is_ack

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _http(method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path}/data/guildhall.db",
        "PORT": str(port),
        "GUILDHALL_BOT_DELAY": "0",
    }
    cli = [sys.executable, "-m", "server.cli"]
    subprocess.run([*cli, "migrate"], env=env, cwd=ROOT, check=True, capture_output=True)
    process = subprocess.Popen(
        [*cli, "serve"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):  # wait for it to listen (not a timing assertion)
            try:
                _http("GET", f"{url}/healthz")
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.slow
def test_a_served_process_plays_a_whole_game_over_http_and_websocket(server_url: str) -> None:
    body = {"game": "norenberc", "seats": 2, "bots": [None, "random"], "name": "Ada"}
    created = _http("POST", f"{server_url}/api/tables", body)
    table_id, token = created["table_id"], created["token"]
    _http("POST", f"{server_url}/api/tables/{table_id}/start", {}, token)
    rng, doc, sent = random.Random(2), None, 0
    ws_url = server_url.replace("http", "ws") + f"/ws/tables/{table_id}"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        waiting_for: str | None = None
        while doc is None or doc["table"]["status"] != "finished":
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "snapshot":
                doc = message["doc"]
            elif message["type"] == "patch":
                doc = jsonpatch.apply_patch(doc, message["ops"])
            if waiting_for is not None and answers(message, waiting_for):
                assert is_ack(message), message
                waiting_for = None
            if doc is None:
                continue  # nothing to play on before the first snapshot
            legal = [c for c in doc.get("game", {}).get("legal", []) if c["type"] != "retract"]
            if legal and waiting_for is None and doc["table"]["status"] == "playing":
                sent += 1
                waiting_for = f"m{sent}"
                ws.send(
                    json.dumps({"type": "command", "id": waiting_for, "cmd": rng.choice(legal)})
                )
    record = _http("GET", f"{server_url}/api/tables/{table_id}/record")
    assert sent > 5 and record["result"]["scores"]
    assert {c["seat"] for c in record["commands"]} == {0, 1}
