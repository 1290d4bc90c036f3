"""Notice fixtures: the real app on a fresh database with its clock injected, a webhook
receiver and an SMTP server on 127.0.0.1, and helpers to drive the outbox."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

import tests.support.toy  # noqa: F401  (registers the "toy" game)
from server.devtools.load.servers import free_port
from server.settings import Settings
from tests.support.databases import migrated_database
from tests.support.play import running_app
from tests.support.testclient import TestClient

DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
WAIT = 20.0  # seconds a test waits at most for a message that must come


class FakeTime:
    """The service's now, moved by the test (starts at the real time: presence compares it
    with the moments connections were seen)."""

    def __init__(self) -> None:
        self.at = time.time()

    def __call__(self) -> float:
        return self.at


@dataclass
class Post:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 that keeps every POST and answers ``status``."""

    status: int = 204
    location: str | None = None
    posts: list[Post] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def wait_for(self, count: int, timeout: float = WAIT) -> list[Post]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.posts) >= count, timeout)
            return list(self.posts)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    kept = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            # Kept before the answer: a sender that has its answer finds the post here.
            with kept.arrived:
                kept.posts.append(Post(self.path, dict(self.headers), body))
                kept.arrived.notify_all()
            self.send_response(kept.status)
            if kept.location:
                self.send_header("Location", kept.location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    kept.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield kept
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Mailbox:
    """Every mail the SMTP server on 127.0.0.1 received: (envelope recipients, message)."""

    port: int
    mails: list[tuple[list[str], EmailMessage]] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)  # what the default policy makes
        with self.arrived:
            self.mails.append((list(envelope.rcpt_tos), mail))
            self.arrived.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = WAIT) -> list[tuple[list[str], EmailMessage]]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.mails) >= count, timeout)
            return list(self.mails)


@contextmanager
def running_mailbox() -> Iterator[Mailbox]:
    """An SMTP server on a free local port that keeps what it is sent, for as long as the
    block lasts."""
    box = Mailbox(port=free_port())
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    with running_mailbox() as box:
        yield box


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database migrated to the newest schema, once per backend."""
    with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """One SQLite database, for tests of checks that do not depend on the store."""
    with migrated_database("sqlite", tmp_path) as url:
        yield url


def make_settings(database_url: str, **changes: Any) -> Settings:
    """Settings of the tests: the outbox only sweeps when a test says so."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "public_url": "http://guildhall.test",
        "secret_key": "notify-test",
        "bot_delay": 0.0,
        "rate_limit": 1000.0,
        "notify_sweep": 300.0,
        "notify_after": 30.0,
        **changes,
    }
    return Settings(**values)


class App:
    """The running app, its injected clock, and the calls the tests make."""

    def __init__(self, client: TestClient, now: FakeTime) -> None:
        self.client, self.now = client, now
        self.state: Any = client.app.state  # type: ignore[attr-defined]
        self.state.service.now = now

    def sweep(self) -> int:
        """One sweep of the outbox (derive, then deliver what is due)."""
        assert self.client.portal is not None
        return int(self.client.portal.call(self.state.outbox.sweep))

    def call(self, fn: Any, *args: Any) -> Any:
        assert self.client.portal is not None
        return self.client.portal.call(fn, *args)

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.post(path, json=body, headers=headers)

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.get(path, headers=headers)

    def table(
        self, clock: dict[str, Any] | None = None, start: bool = True
    ) -> tuple[str, str, str]:
        """A toy table of Anna (seat 0) and Bela (seat 1); (id, Anna's token, Bela's)."""
        body = {"game": "toy", "seats": 2, "name": "Anna", "clock": clock or {"mode": "days"}}
        made = self.post("/api/tables", body)
        assert made.status_code == 201, made.text
        table_id, anna = made.json()["table_id"], made.json()["token"]
        joined = self.post(
            f"/api/tables/{table_id}/join", {"name": "Bela", "invite": made.json()["invite"]}
        )
        assert joined.status_code == 201, joined.text
        if start:
            self.start(table_id, anna)
        return table_id, anna, joined.json()["token"]

    def start(self, table_id: str, anna: str) -> None:
        started = self.post(f"/api/tables/{table_id}/start", {}, anna)
        assert started.status_code == 200, started.text

    def notices(self, table_id: str) -> dict[int, tuple[str, str, int]]:
        """The outbox rows of a table: seat -> (kind, status, attempts)."""
        import sqlalchemy as sa

        from server.store.models import NoticeRow

        async def read() -> dict[int, tuple[str, str, int]]:
            async with self.state.service.sessions.read() as session:
                rows = await session.execute(
                    sa.select(NoticeRow).where(NoticeRow.table_id == table_id)
                )
                return {r.seat: (r.kind, r.status, r.attempts) for r in rows.scalars()}

        return dict(self.call(read))


@contextmanager
def running(settings: Settings) -> Iterator[App]:
    """The app on ``settings`` with its lifespan running and its clock injected."""
    with running_app(settings) as client:
        yield App(client, FakeTime())
