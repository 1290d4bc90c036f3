"""The table chat survives a SIGKILL of the server: a message acknowledged (``chat_ack``) is
in the history the restarted server sends, once, and resending it with the same id after the
restart stores nothing twice (docs/protocol.md, "Table chat")."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server.devtools.load.servers import ServerProcess, run_migrate, server_env
from tests.scale.pg import fresh_database

pytestmark = pytest.mark.slow


@contextlib.contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'chat.db'}"
    else:
        with fresh_database("gh_chat_crash") as url:
            yield url


def read_until(ws: ClientConnection, wanted: Any) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=20))
        if wanted(message):
            return dict(message)


@contextlib.contextmanager
def chatting(
    server: ServerProcess, table_id: str, token: str
) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    """A connection that said hello with ``chat: true``, and the history it was sent."""
    with connect(f"{server.ws_url}/ws/tables/{table_id}", max_queue=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "chat": True}))
        yield ws, read_until(ws, lambda m: m["type"] == "chat_history")


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_an_acknowledged_chat_message_outlives_a_sigkill(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        env = server_env(url)
        run_migrate(env)
        first = ServerProcess(env, tmp_path / "first.log")
        first.start()
        try:
            with httpx.Client(base_url=first.url, timeout=30) as client:
                body = {"game": "norenberc", "seats": 2, "name": "Ada", "bots": [None, "random"]}
                created = client.post("/api/tables", json=body).json()
            table_id, token = created["table_id"], created["token"]
            with contextlib.suppress(ConnectionClosed), chatting(first, table_id, token) as (ws, _):
                ws.send(json.dumps({"type": "chat", "id": "m1", "text": "back tonight"}))
                ack = read_until(ws, lambda m: m.get("id") == "m1")
                assert ack["type"] == "chat_ack"
                first.kill()  # at once after the ack: no shutdown handler runs
        finally:
            first.stop()

        second = ServerProcess(env, tmp_path / "second.log")
        second.start()
        try:
            with chatting(second, table_id, token) as (ws, history):
                (message,) = history["messages"]
                shown = (message["seq"], message["text"], message["seat"])
                assert shown == (ack["seq"], "back tonight", 0)
                # The browser resends what it did not see acknowledged; an id already
                # stored is acknowledged again with its seq and not stored twice.
                ws.send(json.dumps({"type": "chat", "id": "m1", "text": "back tonight"}))
                assert read_until(ws, lambda m: m.get("id") == "m1")["seq"] == ack["seq"]
            with chatting(second, table_id, token) as (ws, history):
                assert len(history["messages"]) == 1
        finally:
            second.stop()
