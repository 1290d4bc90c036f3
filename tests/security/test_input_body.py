"""Request bodies past ``GUILDHALL_MAX_BODY`` against a real ``guildhall serve`` process: a
declared length over the limit is refused before a byte of the body is read, a chunked body
without a length is cut off once it passes the limit, and four 64 MiB bodies at once leave
the server's memory where it was (without the limit each was read whole before the answer)."""

from __future__ import annotations

import json
import select
import socket
import threading
from collections.abc import Iterator

import pytest

from server.devtools.load.servers import ServerProcess, running_servers
from server.settings import load_settings

pytestmark = pytest.mark.slow

LIMIT = 65536  # the default
HUGE = 64 << 20  # what each attacker offers to send
CHUNK = 64 << 10


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("body")
    with running_servers(f"sqlite+aiosqlite:///{workdir / 'body.db'}", 1, workdir) as (one,):
        yield one


def _connect(server: ServerProcess) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=15)
    return sock


def _read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the one answer on ``sock`` (read until it closes or the
    declared length has come)."""
    data = b""
    while b"\r\n\r\n" not in data:
        part = sock.recv(65536)
        if not part:
            break
        data += part
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        part = sock.recv(65536)
        if not part:
            break
        body += part
    return status, headers, body


def _send_chunked(
    server: ServerProcess, total: int, size: int = CHUNK
) -> tuple[int, dict[str, str], bytes, int]:
    """POST a chunked JSON-looking body of ``total`` bytes to the table route, stopping as soon
    as the server answers; returns the answer and how many body bytes got out."""
    sock = _connect(server)
    sock.sendall(
        b"POST /api/tables HTTP/1.1\r\nhost: guildhall\r\ncontent-type: application/json\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    chunk = f"{size:x}\r\n".encode() + b"[" * size + b"\r\n"
    sent = 0
    try:
        while sent < total:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break  # the server has answered (or closed): stop sending
            sock.sendall(chunk)
            sent += size
        else:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # it closed the connection under us: the answer is already on its way
    try:
        status, headers, body = _read_answer(sock)
    finally:
        sock.close()
    return status, headers, body, sent


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_read(
    server: ServerProcess,
) -> None:
    sock = _connect(server)
    try:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nhost: guildhall\r\ncontent-type: application/json\r\n"
            + f"content-length: {HUGE}\r\n\r\n".encode()
        )
        status, headers, body = _read_answer(sock)  # not one byte of the body was sent
    finally:
        sock.close()
    assert status == 413
    assert json.loads(body)["code"] == "body_too_large"
    assert str(LIMIT) in json.loads(body)["message"]
    assert headers.get("connection") == "close"


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit(server: ServerProcess) -> None:
    status, headers, body, sent = _send_chunked(server, HUGE)
    assert status == 413, body
    assert json.loads(body)["code"] == "body_too_large"
    assert headers.get("x-content-type-options") == "nosniff"  # an answer like any other
    # The server stopped the upload: far less than the 64 MiB offered got out (what the
    # sockets' buffers hold on both sides, not the body).
    assert sent < HUGE // 4, sent


def test_a_body_within_the_limit_is_read_and_judged_as_before(server: ServerProcess) -> None:
    status, _, body, sent = _send_chunked(server, LIMIT - 4096, size=4096)
    assert sent == LIMIT - 4096
    assert status == 400 and json.loads(body)["code"] == "bad_json", body


def test_four_huge_bodies_at_once_leave_the_memory_where_it_was(server: ServerProcess) -> None:
    before = server.rss_bytes()
    assert before is not None
    answers: list[int] = []
    threads = [
        threading.Thread(target=lambda: answers.append(_send_chunked(server, HUGE)[0]))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    after = server.rss_bytes()
    assert after is not None
    print(f"\nRSS before {before / 2**20:.1f} MiB, after four 64 MiB bodies {after / 2**20:.1f}")
    assert answers == [413] * 4
    assert after - before < 16 << 20  # not the 256 MiB offered, nor a fraction of it


def test_the_limit_is_a_setting() -> None:
    key = {"SECRET_KEY": "body-test"}
    assert load_settings(key).max_body == LIMIT
    assert load_settings({**key, "GUILDHALL_MAX_BODY": "1048576"}).max_body == 1 << 20
