"""Real ``guildhall serve`` processes: a pending notice survives SIGKILL and is delivered by
the restarted server; two processes on one Postgres send each notice once, and neither sends
one to a seat whose socket is open on the other.

These wait on the wall clock, bounded, by polling what the receiver got: never by asserting
how long something took.
"""

from __future__ import annotations

import json
import sqlite3
import ssl
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from server.devtools.load.servers import ServerProcess, run_migrate, server_env
from tests.support.databases import fresh_postgres

from .conftest import Receiver

pytestmark = pytest.mark.slow


def wait_for(what: str, check: Any, timeout: float = 60.0) -> None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout:.0f} s")


# Plain HTTP to 127.0.0.1: every request shares one TLS context (a default one loads the CA
# bundle again, about 40 ms of CPU a request).
TLS = ssl.create_default_context()


def post(server: ServerProcess, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.post(server.url + path, json=body, headers=headers, timeout=30, verify=TLS)
    assert answer.status_code < 300, answer.text
    return answer.json()


def table(server: ServerProcess, hook: str) -> tuple[str, str, str]:
    """A started Norenberc table (over days) of Anna and Bela whose webhook is ``hook``."""
    made = post(
        server,
        "/api/tables",
        {"game": "norenberc", "seats": 2, "name": "Anna", "clock": {"mode": "days"}},
    )
    table_id, anna = made["table_id"], made["token"]
    bela = post(server, f"/api/tables/{table_id}/join", {"name": "Bela", "invite": made["invite"]})
    post(server, f"/api/tables/{table_id}/webhook", {"url": hook}, anna)
    post(server, f"/api/tables/{table_id}/start", {}, anna)
    return table_id, anna, bela["token"]


def servers(url: str, tmp_path: Path, count: int, **extra: str) -> list[ServerProcess]:
    env = server_env(
        url,
        GUILDHALL_WEBHOOK_ALLOW_PRIVATE="true",
        GUILDHALL_NOTIFY_SWEEP="0.2",
        GUILDHALL_CLOCK_BOT="random",
        **extra,
    )
    run_migrate(env)
    return [ServerProcess(env, tmp_path / f"server-{i}.log") for i in range(count)]


def test_a_pending_notice_is_delivered_after_the_server_is_killed_and_restarted(
    tmp_path: Path, receiver: Receiver
) -> None:
    url = f"sqlite:///{tmp_path / 'guildhall.db'}"
    # A player counts as away two presence heartbeats (10 s) after they were last seen: the
    # notices are written at once, and Anna's, seen creating the table, is held that long;
    # the server dies meanwhile. Bela joined but never came: hers may go at once.
    (server,) = servers(url, tmp_path, 1, GUILDHALL_NOTIFY_AFTER="0")
    server.start()
    try:
        table_id, _anna, _bela = table(server, receiver.url)

        def pending() -> list[tuple[Any, ...]]:
            with sqlite3.connect(tmp_path / "guildhall.db") as db:
                query = "SELECT seat, status FROM notices WHERE table_id = ?"
                return list(db.execute(query, (table_id,)).fetchall())

        wait_for("the outbox holds both notices", lambda: len(pending()) == 2)
        server.kill()
        early = [p.body["player"] for p in receiver.posts]
        assert "Anna" not in early, "the machine was too slow: a notice went before the kill"
        assert (0, "pending") in pending()
        server.start()

        def annas() -> list[Any]:
            return [p for p in receiver.posts if p.body["player"] == "Anna"]

        wait_for("the restarted server delivers", lambda: len(annas()) >= 1)
        time.sleep(1)  # five more sweeps: nothing is sent twice
        assert len(annas()) == 1
        assert (0, "sent") in pending()
    finally:
        server.stop()


@pytest.fixture
def postgres() -> Iterator[str]:
    with fresh_postgres() as url:
        yield url


@pytest.mark.postgres
def test_two_processes_on_one_postgres_send_each_notice_once_and_none_to_an_open_socket(
    postgres: str, tmp_path: Path, receiver: Receiver
) -> None:
    # Heartbeats every 2 s: a socket open on one process holds the other's notices.
    a, b = servers(postgres, tmp_path, 2, GUILDHALL_NOTIFY_AFTER="0", GUILDHALL_HANDOVER_AFTER="8")
    a.start()
    b.start()
    try:
        watched, anna, _bela = table(a, receiver.url)
        with connect(f"{a.ws_url}/ws/tables/{watched}") as ws:
            ws.send(json.dumps({"type": "hello", "token": anna}))
            kinds = [json.loads(ws.recv(timeout=30))["type"] for _ in range(2)]
            assert "snapshot" in kinds  # and presence, in either order
            tables = [watched] + [table(b, receiver.url)[0] for _ in range(4)]
            # Every seat but Anna's on the watched table: 9 notices.
            wait_for("nine notices", lambda: len(receiver.posts) >= 9)
            time.sleep(2)  # ten more sweeps of each process, two heartbeats
            while_open = Counter((p.body["table_id"], p.body["seat"]) for p in receiver.posts)
            assert (watched, 0) not in while_open
        wait_for("Anna's notice once her socket closed", lambda: len(receiver.posts) >= 10)
        time.sleep(1)
        sent = Counter((p.body["table_id"], p.body["seat"]) for p in receiver.posts)
        assert set(sent) == {(t, s) for t in tables for s in (0, 1)}
        assert set(sent.values()) == {1}
    finally:
        a.stop()
        b.stop()
