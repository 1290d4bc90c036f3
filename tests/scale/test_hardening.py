"""Hardening seen from outside, against a real server process: frame and rate caps, the
per-address connection cap, hashed seat tokens, errors without stack traces, JSON logs
without errors when clients vanish, and the Prometheus metrics."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from server.devtools.load.players import SKIPPED
from server.devtools.load.servers import ServerProcess, running_servers
from server.devtools.load.tables import SeatedTable, create_table
from tests.scale.client import Conn, metric
from tests.support.acks import is_ack

pytestmark = pytest.mark.slow

SECRET = "hardening-test-secret"
MAX_BYTES, RATE, CAP = 2048, 5, 4
TRACE = re.compile(r"Traceback|File \"|\.py\", line|Exception\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    workdir = tmp_path_factory.mktemp("hardening")
    db_file = workdir / "hardening.db"
    limits = {
        "SECRET_KEY": SECRET,
        "GUILDHALL_MAX_MESSAGE_BYTES": str(MAX_BYTES),
        "GUILDHALL_RATE_LIMIT": str(RATE),
        "GUILDHALL_BOT_DELAY": "0",
        "GUILDHALL_MAX_CONNECTIONS_PER_IP": str(CAP),
        "GUILDHALL_LOG_FORMAT": "json",
        # As behind a reverse proxy on the same host (tests/server/test_serving.py pins the
        # default, which believes no X-Forwarded-For).
        "GUILDHALL_TRUSTED_PROXIES": "127.0.0.1",
    }
    with running_servers(f"sqlite+aiosqlite:///{db_file}", 1, workdir, **limits) as (one,):
        yield one, db_file


async def new_table(server: ServerProcess) -> SeatedTable:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        return await create_table(client, "norenberc", 2)


async def replies(ws: Any, count: int) -> list[dict[str, Any]]:
    """The next ``count`` messages that are not document updates or presence."""
    got: list[dict[str, Any]] = []
    async with asyncio.timeout(15):
        while len(got) < count:
            msg = json.loads(await ws.recv())
            if msg["type"] not in ("snapshot", "patch", "presence"):
                got.append(msg)
    return got


async def test_oversized_frames_are_refused_and_the_connection_stays_usable(server: Any) -> None:
    proc, _ = server
    table = await new_table(proc)
    async with websockets.connect(f"{proc.ws_url}/ws/tables/{table.id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": table.tokens[0]}))
        padding = "x" * (MAX_BYTES + 1)
        await ws.send(json.dumps({"type": "command", "id": "big", "cmd": {"pad": padding}}))
        await ws.send(json.dumps({"type": "ping"}))
        too_large, pong = await replies(ws, 2)
    assert too_large["type"] == "error" and too_large["code"] == "message_too_large"
    assert pong["type"] == "pong"


async def test_a_burst_beyond_the_rate_is_refused_then_the_connection_recovers(server: Any) -> None:
    proc, _ = server
    table = await new_table(proc)
    async with websockets.connect(f"{proc.ws_url}/ws/tables/{table.id}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        for _ in range(6 * RATE):
            await ws.send(json.dumps({"type": "ping"}))
        burst = await replies(ws, 6 * RATE)
        await asyncio.sleep(2 / RATE)  # the bucket refills
        await ws.send(json.dumps({"type": "ping"}))
        (after,) = await replies(ws, 1)
    codes = [m.get("code") for m in burst if m["type"] == "error"]
    assert codes and set(codes) == {"rate_limited"}
    assert sum(m["type"] == "pong" for m in burst) >= 2 * RATE - 1  # the burst allowance
    assert after["type"] == "pong"


MALFORMED = [  # (frame, the documented code; None: whatever the engine says)
    ("not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ('{"type": "launch"}', "unknown_message"),
    ('{"type": "command", "id": 5, "cmd": []}', "bad_message"),
    ('{"type": "command", "id": "' + "i" * 65 + '", "cmd": {}}', "bad_message"),
    ('{"type": "hello", "token": 12, "since": -4}', "bad_message"),
    ('{"type": "command", "id": "n", "cmd": {"type": "plan", "guilds": [10000000000000]}}', None),
    ("[" * 500 + "]" * 500, "bad_json"),
]


async def test_malformed_messages_get_a_coded_error_and_no_stack_trace(server: Any) -> None:
    proc, _ = server
    table = await new_table(proc)
    async with websockets.connect(f"{proc.ws_url}/ws/tables/{table.id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": table.tokens[1]}))
        got = []
        for frame, _ in MALFORMED:  # one at a time: stay under the rate limit
            await ws.send(frame)
            got += await replies(ws, 1)
            await asyncio.sleep(1 / RATE)
    for (frame, code), msg in zip(MALFORMED, got, strict=True):
        assert msg["type"] == "error", frame
        assert msg["code"] == code if code else re.fullmatch(r"[a-z_]+", msg["code"]), msg
        assert not TRACE.search(msg["message"]), msg


async def test_http_errors_are_coded_json_without_stack_traces(server: Any) -> None:
    proc, _ = server
    async with httpx.AsyncClient(base_url=proc.url, timeout=10) as client:
        answers = [
            await client.post("/api/tables", content=b"{not json"),
            await client.post("/api/tables", json={"game": "chess", "seats": 2, "name": "x"}),
            await client.post("/api/tables/nope/start", headers={"Authorization": "Bearer x"}),
            await client.get("/api/tables/" + "z" * 5000),
        ]
    for answer in answers:
        assert 400 <= answer.status_code < 500, answer.text
        body = answer.json()
        assert set(body) >= {"code", "message"}, body
        assert not TRACE.search(answer.text), answer.text


async def test_seat_tokens_are_stored_only_as_keyed_hashes(server: Any) -> None:
    proc, db_file = server
    table = await new_table(proc)
    with sqlite3.connect(db_file) as db:
        stored = dict(
            db.execute("SELECT seat, token_hash FROM seats WHERE table_id = ?", (table.id,))
        )
        dump = "\n".join(db.iterdump())
    for seat, token in enumerate(table.tokens):
        assert token not in dump
        expected = hmac.new(SECRET.encode(), token.encode(), hashlib.sha256).hexdigest()
        assert stored[seat] == expected


async def metrics_once(client: httpx.AsyncClient, ready: Any) -> str:
    """/metrics once ``ready(text)`` holds (the server closes sockets asynchronously)."""
    async with asyncio.timeout(10):
        while not ready(text := (await client.get("/metrics")).text):
            await asyncio.sleep(0.05)
    return text


async def test_metrics_count_connections_commands_errors_and_latency(server: Any) -> None:
    proc, _ = server
    table = await new_table(proc)
    async with httpx.AsyncClient(base_url=proc.url, timeout=10) as client:
        before = (await client.get("/metrics")).text
        opened = metric(before, "guildhall_connections")
        async with (
            Conn(proc.ws_url, table.id, table.tokens[0]) as p0,
            Conn(proc.ws_url, table.id, table.tokens[1]) as p1,
        ):
            during = (await client.get("/metrics")).text
            acked = 0
            for step in range(6):
                actor, cmd = next(
                    (p, c) for p in (p0, p1) for c in p.legal if c["type"] not in SKIPPED
                )
                reply = await actor.command(f"m{step}", cmd)
                assert is_ack(reply), reply
                acked += 1
                await p0.wait_version(reply["version"])
                await p1.wait_version(reply["version"])
            await p0.command("bad", {"type": "no_such_command"})
        after = await metrics_once(client, lambda t: metric(t, "guildhall_connections") == opened)
    assert metric(during, "guildhall_connections") >= metric(before, "guildhall_connections") + 2
    delta = metric(after, "guildhall_commands_total") - metric(before, "guildhall_commands_total")
    assert delta == acked > 0
    count = metric(after, "guildhall_command_seconds_count")
    assert count - metric(before, "guildhall_command_seconds_count") == acked
    assert metric(after, 'guildhall_command_seconds_bucket{le="+Inf"}') == count
    assert "guildhall_errors_total{code=" in after
    assert "# TYPE guildhall_active_tables gauge" in after


async def opened_connections(proc: ServerProcess, count: float) -> None:
    """Wait until the server counts ``count`` open websockets (it learns of closes async)."""
    async with httpx.AsyncClient(base_url=proc.url, timeout=10) as client:
        await metrics_once(client, lambda t: metric(t, "guildhall_connections") == count)


async def test_connections_beyond_the_per_address_cap_are_refused(server: Any) -> None:
    proc, _ = server
    table = await new_table(proc)
    url = f"{proc.ws_url}/ws/tables/{table.id}"
    held = [await websockets.connect(url) for _ in range(CAP)]
    try:
        async with websockets.connect(url) as refused:
            error = json.loads(await refused.recv())
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await refused.recv()
        assert (error["type"], error["code"]) == ("error", "too_many_connections")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        # A client that vanishes without a close frame gives its slot back too.
        held.pop().transport.abort()
        await opened_connections(proc, CAP - 1)
        async with websockets.connect(url) as admitted:
            await admitted.send(json.dumps({"type": "ping"}))
            assert json.loads(await admitted.recv()) == {"type": "pong"}
    finally:
        for ws in held:
            await ws.close()
    await opened_connections(proc, 0)


def log_entries(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The server log split into the app's JSON records and every other line (uvicorn's)."""
    entries, others = [], []
    for line in path.read_text(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            others.append(line)
            continue
        if isinstance(entry, dict) and "level" in entry:
            entries.append(entry)
        else:
            others.append(line)
    return entries, others


async def vanish_mid_game(proc: ServerProcess, round_: int) -> SeatedTable:
    """Two players move; then one drops its connection (no close frame) while the other's
    command is being answered, so the server pushes to a client that has just gone."""
    table = await new_table(proc)
    async with (
        Conn(proc.ws_url, table.id, table.tokens[0]) as p0,
        Conn(proc.ws_url, table.id, table.tokens[1]) as p1,
    ):
        for step in range(2 + round_ % 3):
            actor, cmd = next((p, c) for p in (p0, p1) for c in p.legal if c["type"] not in SKIPPED)
            reply = await actor.command(f"v{step}", cmd)
            assert is_ack(reply), reply
            await p0.wait_version(reply["version"])
            await p1.wait_version(reply["version"])
        mover = next(p for p in (p0, p1) if any(c["type"] not in SKIPPED for c in p.legal))
        leaver = p1 if mover is p0 else p0
        cmd = next(c for c in mover.legal if c["type"] not in SKIPPED)
        sending = asyncio.create_task(mover.command("last", cmd))
        leaver._ws.transport.abort()
        assert is_ack(await sending)
    return table


async def test_clients_vanishing_mid_game_leave_no_error_in_the_json_log(server: Any) -> None:
    proc, _ = server
    tables = [await vanish_mid_game(proc, i) for i in range(6)]
    await opened_connections(proc, 0)
    entries, others = log_entries(proc.log_path)
    assert entries, "the server wrote no JSON log records"
    assert [e for e in entries if e["level"] in ("ERROR", "CRITICAL")] == []
    assert [line for line in others if re.search(r"ERROR|Traceback|Exception in ASGI", line)] == []
    for entry in entries:
        assert {"time", "level", "logger", "message"} <= set(entry), entry
    ids = {t.id for t in tables}
    closed = [
        e for e in entries if e["message"] == "connection closed" and e.get("table_id") in ids
    ]
    assert len(closed) == 2 * len(tables)
    accepted = [e for e in entries if e["message"] == "command accepted" and e["table_id"] in ids]
    assert accepted and all(e["latency_ms"] >= 0 and e["seat"] in (0, 1) for e in accepted)
    text = proc.log_path.read_text(errors="replace")
    assert not any(token in text for t in tables for token in t.tokens)


async def test_the_cap_counts_the_address_a_trusted_proxy_forwards(server: Any) -> None:
    # 127.0.0.1 is a trusted proxy (GUILDHALL_TRUSTED_PROXIES), so X-Forwarded-For decides.
    proc, _ = server
    table = await new_table(proc)
    url = f"{proc.ws_url}/ws/tables/{table.id}"

    def behind_proxy(address: str) -> Any:
        return websockets.connect(url, additional_headers={"X-Forwarded-For": address})

    crowd = [await behind_proxy("203.0.113.7") for _ in range(CAP)]
    try:
        async with behind_proxy("203.0.113.7") as refused:
            assert json.loads(await refused.recv())["code"] == "too_many_connections"
        async with behind_proxy("198.51.100.2") as other:
            await other.send(json.dumps({"type": "ping"}))
            assert json.loads(await other.recv()) == {"type": "pong"}
    finally:
        for ws in crowd:
            await ws.close()
    await opened_connections(proc, 0)
