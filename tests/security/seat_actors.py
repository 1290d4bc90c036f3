"""Scripted people for the seat-model attack tests, against real ``guildhall serve`` processes.

A ``Deployment`` is one database and one or two app processes on it (Postgres: the NOTIFY
fan-out joins them). ``Person`` speaks HTTP to any process; ``Socket`` is one raw websocket
that keeps every message and notes when (and how) the server closed it. Every wait is
bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
import websockets

from server.devtools.load.servers import ServerProcess, fresh_postgres, run_migrate, server_env
from tests.scale.log import StoredTable, load_table
from tests.support.acks import answers

HANDOVER_AFTER = 2.0  # seconds away before the creator may hand a seat over (tests only)
WAIT = 15.0
STARTUP = 120.0
GAME, SEATS = "norenberc", 3
# The servers speak plain HTTP on 127.0.0.1. Every client shares one TLS context: a client
# made with the default one loads the CA bundle again, about 40 ms of CPU, and these tests
# make one per request.
TLS = ssl.create_default_context()

# (database, processes): both stores and both process counts. SQLite runs one process (its
# fan-out is in memory); Postgres runs two, where the second process only hears of changes
# through NOTIFY, and a seat change must still close that process's sockets.
DEPLOYMENTS = [
    pytest.param(("sqlite", 1), id="sqlite-1"),
    pytest.param(("postgres", 2), id="postgres-2", marks=pytest.mark.postgres),
]


@dataclass
class Deployment:
    database_url: str
    servers: list[ServerProcess]

    def server(self, k: int) -> ServerProcess:
        """The ``k``-th process, round robin: with two, odd ``k`` is the other one."""
        return self.servers[k % len(self.servers)]

    def stored(self, table_id: str) -> StoredTable:
        return load_table(self.database_url, table_id)


@contextlib.contextmanager
def deployment(kind: str, processes: int, workdir: Path, **more_env: str) -> Iterator[Deployment]:
    env = {
        "GUILDHALL_BOT_DELAY": "0.05",
        "GUILDHALL_HANDOVER_AFTER": str(HANDOVER_AFTER),
        "GUILDHALL_RATE_LIMIT": "500",
        **more_env,
    }
    with contextlib.ExitStack() as stack:
        if kind == "sqlite":
            url = f"sqlite+aiosqlite:///{workdir / 'seats.db'}"
        else:
            url = stack.enter_context(fresh_postgres(os.environ["TEST_DATABASE_URL"], "gh_seats"))
        server_environment = server_env(url, **env)
        run_migrate(server_environment)
        servers = [
            ServerProcess(server_environment, workdir / f"server-{i}.log") for i in range(processes)
        ]
        for server in servers:
            stack.callback(server.stop)
        for server in servers:
            server.start(timeout=STARTUP)  # generous: a busy machine starts Python slowly
        yield Deployment(url, servers)


# -------------------------------------------------------------------- HTTP


@dataclass
class Reply:
    status: int
    body: dict[str, Any]

    @property
    def code(self) -> str | None:
        return self.body.get("code")


@dataclass
class Person:
    """Someone with a browser: maybe a seat token, maybe the invite."""

    name: str
    token: str | None = None
    invite: str | None = None
    seat: int | None = None

    async def call(
        self, server: ServerProcess, method: str, path: str, body: Any = None, token: Any = ...
    ) -> Reply:
        token = self.token if token is ... else token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, verify=TLS) as client:
            response = await client.request(method, path, json=body, headers=headers)
        data = response.json() if response.content else {}
        return Reply(response.status_code, data if isinstance(data, dict) else {"list": data})

    async def join(
        self, server: ServerProcess, table_id: str, seat: int | None = None, **extra: Any
    ) -> Reply:
        body: dict[str, Any] = {"name": self.name, **extra}
        if self.invite is not None and "invite" not in extra:
            body["invite"] = self.invite
        if seat is not None:
            body["seat"] = seat
        reply = await self.call(server, "POST", f"/api/tables/{table_id}/join", body, token=None)
        if reply.status == 201:
            self.token, self.seat = reply.body["token"], reply.body["seat"]
        return reply


async def create(
    server: ServerProcess,
    name: str = "Anna",
    bots: list[str | None] | None = None,
    public: bool = False,
    seats: int = SEATS,
) -> tuple[str, Person]:
    """A new table; returns its id and the creator (seat 0, holding the invite)."""
    creator = Person(name)
    body = {"game": GAME, "seats": seats, "name": name, "bots": bots or [], "public": public}
    reply = await creator.call(server, "POST", "/api/tables", body, token=None)
    assert reply.status == 201, reply.body
    creator.token, creator.seat, creator.invite = (
        reply.body["token"],
        0,
        reply.body["invite"],
    )
    return reply.body["table_id"], creator


async def summary(server: ServerProcess, table_id: str) -> dict[str, Any]:
    reply = await Person("reader").call(server, "GET", f"/api/tables/{table_id}", token=None)
    assert reply.status == 200, reply.body
    return reply.body


def unchanging(table: dict[str, Any], bots_play: bool = False) -> dict[str, Any]:
    """A summary without what moves by itself (presence, time away, the server's time; with
    ``bots_play`` the version and the clock, which the bots' moves advance)."""
    seats = [{k: s[k] for k in ("seat", "name", "bot", "stand_in")} for s in table["seats"]]
    moving = {"seats", "server_time"} | ({"version", "clock"} if bots_play else set())
    return {**{k: v for k, v in table.items() if k not in moving}, "seats": seats}


# -------------------------------------------------------------------- websockets


@dataclass
class Socket:
    """One websocket; a reader task keeps the document and every message."""

    server: ServerProcess
    table_id: str
    token: str | None
    messages: list[dict[str, Any]] = field(default_factory=list)
    doc: dict[str, Any] | None = None
    version: int = -1
    seats_seen: set[int | None] = field(default_factory=set)  # every ``you.seat`` received
    closed_at: float | None = None
    close_code: int | None = None
    _ws: Any = None
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def open(self, hello: bool = True) -> Socket:
        url = f"{self.server.ws_url}/ws/tables/{self.table_id}"
        self._ws = await websockets.connect(url, max_size=2**22, open_timeout=WAIT)
        self._reader = asyncio.create_task(self._read())
        if hello:
            await self.send({"type": "hello", **({"token": self.token} if self.token else {})})
            await self.wait(lambda: self.doc is not None or self.errors() != [])
        return self

    async def send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self._ws.send(json.dumps(message))

    async def command(self, command_id: str, cmd: dict[str, Any], **extra: Any) -> None:
        await self.send({"type": "command", "id": command_id, "cmd": cmd, **extra})

    async def reply(self, command_id: str) -> dict[str, Any]:
        """The ack or error answering ``command_id`` (AssertionError if closed first)."""
        answer = await self.reply_or_close(command_id)
        assert answer is not None, f"closed ({self.close_code}) without answering {command_id}"
        return answer

    async def reply_or_close(self, command_id: str) -> dict[str, Any] | None:
        """The ack or error answering ``command_id``, or None if the socket closed first."""
        await self.wait(lambda: self._answer(command_id) is not None or self.closed)
        return self._answer(command_id)

    def _answer(self, command_id: str) -> dict[str, Any] | None:
        for m in self.messages:
            if answers(m, command_id):
                return m
        return None

    def errors(self, code: str | None = None) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error" and code in (None, m["code"])]

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    @property
    def legal(self) -> list[dict[str, Any]]:
        return list(((self.doc or {}).get("game") or {}).get("legal") or [])

    async def wait(self, predicate: Any, seconds: float = WAIT) -> None:
        async with asyncio.timeout(seconds):
            while not predicate():
                self._changed.clear()
                await self._changed.wait()

    async def wait_version(self, version: int) -> None:
        await self.wait(lambda: self.version >= version)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            await self._ws.close()

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                message = json.loads(raw)
                self.messages.append(message)
                self._apply(message)
                self._changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed_at = time.monotonic()
            self.close_code = self._ws.close_code
            self._changed.set()

    def _apply(self, message: dict[str, Any]) -> None:
        if message["type"] == "snapshot":
            self.doc, self.version = message["doc"], message["version"]
        elif message["type"] == "patch" and self.doc is not None:
            self.doc = jsonpatch.apply_patch(self.doc, message["ops"])
            self.version = message["version"]
        else:
            return
        assert self.doc is not None
        self.seats_seen.add(self.doc["you"]["seat"])


async def open_sockets(
    dep: Deployment, table_id: str, token: str | None, per_process: int = 1
) -> list[Socket]:
    """``per_process`` sockets with ``token`` on every process of the deployment."""
    sockets = [
        Socket(server, table_id, token) for server in dep.servers for _ in range(per_process)
    ]
    for socket in sockets:
        await socket.open()
    return sockets


async def close_all(sockets: list[Socket]) -> None:
    for socket in sockets:
        await socket.close()
