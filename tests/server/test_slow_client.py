"""A client that stops reading slows nobody down and is dropped, against a real server process.

The stalled client is a raw TCP socket with a small receive buffer: it upgrades to a
websocket, says hello, asks for a long run of snapshots (more bytes than the kernel buffers
between it and the server hold) and never reads again, so the server's sends to it stop
completing. Meanwhile two players play on: every command is acked. After
``GUILDHALL_SEND_TIMEOUT`` the server drops the stalled connection. The other way to be
dropped, a full queue, is tested on the outbox itself (tests/server/test_outbox.py).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.devtools.load.players import SKIPPED
from server.devtools.load.servers import ServerProcess, running_servers
from server.devtools.load.tables import SeatedTable, create_table
from server.realtime.outbox import TOO_SLOW_CLOSE
from tests.scale.client import Conn, metric
from tests.support.acks import is_ack

pytestmark = pytest.mark.slow

SEND_TIMEOUT = 2.0


def largest_send_buffer() -> int:
    """The most bytes the kernel may buffer for one TCP sender (Linux; else a usual 4 MiB)."""
    try:
        return int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[2])
    except (OSError, IndexError, ValueError):
        return 4 << 20


# Asked for at once: each snapshot is over 4 KB, so these are twice what the server's socket
# buffer may hold (the client's is 4 KiB, the server's transport holds 64 KiB more).
SNAPSHOTS = max(1000, 2 * largest_send_buffer() // 4000)
COMMANDS = 40
ACK_BOUND = 10.0  # seconds for any one command's ack: generous, the machine may be busy


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("slow-client")
    settings = {
        "GUILDHALL_SEND_TIMEOUT": str(SEND_TIMEOUT),
        "GUILDHALL_BOT_DELAY": "0",
        "GUILDHALL_RATE_LIMIT": str(SNAPSHOTS),  # bursts of twice that
        "GUILDHALL_LOG_FORMAT": "json",
    }
    db = f"sqlite+aiosqlite:///{workdir / 'slow.db'}"
    with running_servers(db, 1, workdir, **settings) as (one,):
        yield one


def masked_text_frame(text: str) -> bytes:
    """One client-to-server websocket text frame (clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def stalled_client(server: ServerProcess, table_id: str) -> socket.socket:
    """A spectator's socket, past the upgrade, that has sent hello and SNAPSHOTS requests
    and will read nothing until the test says so."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: the window
    sock.settimeout(10)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:  # the upgrade answer, and not a byte more if we can help it
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    sock.sendall(masked_text_frame(json.dumps({"type": "hello"})))
    request = masked_text_frame(json.dumps({"type": "snapshot_request"}))
    sock.sendall(request * SNAPSHOTS)
    return sock


def frames_until_closed(sock: socket.socket, seconds: float) -> list[tuple[int, bytes]]:
    """Read (opcode, payload) frames until the server ends the connection; TimeoutError if it
    has not within ``seconds``."""
    data = bytearray()
    deadline = time.monotonic() + seconds
    while True:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = sock.recv(1 << 16)
        except ConnectionResetError:
            break
        except TimeoutError:
            raise TimeoutError(
                f"the server kept the socket open ({len(data)} bytes read)"
            ) from None
        if not chunk:
            break
        data += chunk
    return parse_frames(bytes(data))


def parse_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The unmasked server frames in ``data``; a frame cut short at the end is left out."""
    frames, at = [], 0
    while at + 2 <= len(data):
        opcode, length, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if length == 126:
            (length,), at = struct.unpack("!H", data[at : at + 2]), at + 2
        elif length == 127:
            (length,), at = struct.unpack("!Q", data[at : at + 8]), at + 8
        if at + length > len(data):
            break
        frames.append((opcode, data[at : at + length]))
        at += length
    return frames


async def open_connections(server: ServerProcess) -> float:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        return metric((await client.get("/metrics")).text, "guildhall_connections")


async def until_connections(server: ServerProcess, count: float, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while await open_connections(server) != count:
            await asyncio.sleep(0.1)


async def play(players: list[Conn], commands: int) -> list[float]:
    """Play ``commands`` legal commands (whoever has one); returns each one's ack time."""
    waits = []
    for step in range(commands):
        actor, cmd = next((p, c) for p in players for c in p.legal if c["type"] not in SKIPPED)
        started = time.monotonic()
        reply = await asyncio.wait_for(actor.command(f"c{step}", cmd), ACK_BOUND)
        waits.append(time.monotonic() - started)
        assert is_ack(reply), reply
        for player in players:
            await player.wait_version(reply["version"])
    return waits


def too_slow_records(log_path: Path) -> list[dict[str, Any]]:
    records = []
    for line in log_path.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("code") == "too_slow":
                records.append(record)
    return records


async def test_a_client_that_stops_reading_slows_no_one_and_is_dropped(
    server: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        table: SeatedTable = await create_table(client, "norenberc", 2)
    async with (
        Conn(server.ws_url, table.id, table.tokens[0]) as p0,
        Conn(server.ws_url, table.id, table.tokens[1]) as p1,
    ):
        stalled = await asyncio.to_thread(stalled_client, server, table.id)
        try:
            waits = await play([p0, p1], COMMANDS)
            assert len(waits) == COMMANDS and max(waits) < ACK_BOUND
            # The stalled one is dropped; the players stay, and play on.
            await until_connections(server, 2, SEND_TIMEOUT + 20)
            await play([p0, p1], 4)
            frames = await asyncio.to_thread(frames_until_closed, stalled, 30)
        finally:
            stalled.close()
    [record] = too_slow_records(server.log_path)
    assert record["table_id"] == table.id and record.get("seat") is None  # the spectator
    assert record["reason"] == f"a frame waited {SEND_TIMEOUT:g} s to be sent"
    # It never got all it asked for; if it got as far as the close frame, that says why.
    snapshots = [p for op, p in frames if op == 0x1 and p.startswith(b'{"type":"snapshot"')]
    assert len(snapshots) < SNAPSHOTS + 1
    closes = [p for op, p in frames if op == 0x8]
    if closes:
        assert struct.unpack("!H", closes[0][:2])[0] == TOO_SLOW_CLOSE
        assert closes[0][2:] == b"too_slow"
