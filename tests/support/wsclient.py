"""A test-side websocket client that keeps its document exactly as a browser would.

It applies every ``patch`` (checking ``base``), replaces the document on ``snapshot``, keeps
every message it received (to compare runs), and answers questions like "wait until the table
reaches version v". Reads time out (a hung test fails instead of stalling the suite).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any, ClassVar

import anyio
import jsonpatch

from tests.support.acks import acked_id, answers, is_ack
from tests.support.testclient import TestClient, WebSocketTestSession

READ_TIMEOUT = 20.0
Message = dict[str, Any]


async def _receive(stream: Any, seconds: float) -> Any:
    with anyio.fail_after(seconds):
        return await stream.receive()


class WsClient:
    """One connection to ``/ws/tables/{table_id}`` with a token (or none: spectator)."""

    _ids = itertools.count(1)
    _open: ClassVar[list[WsClient]] = []

    @classmethod
    def close_all(cls) -> None:
        """Close every connection still open (a failed test must not hang the app's exit)."""
        for ws in list(cls._open):
            ws.close()

    def __init__(self, client: TestClient, table_id: str, token: str | None = None) -> None:
        self.client, self.table_id, self.token = client, table_id, token
        self.doc: dict[str, Any] | None = None
        self.before_snapshot: dict[str, Any] | None = None
        self.before_snapshot_version = -1
        self.version = 0
        self.messages: list[Message] = []
        self.acks: dict[str, int] = {}
        self.errors: list[Message] = []
        self.presence: list[Message] = []
        self._cm: Any = None
        self.ws: WebSocketTestSession | None = None

    # ------------------------------------------------------------ connection

    def connect(self, since: int | None = None, hello: bool = True) -> WsClient:
        self._cm = self.client.websocket_connect(f"/ws/tables/{self.table_id}")
        self.ws = self._cm.__enter__()
        WsClient._open.append(self)
        if hello:
            self.hello(since)
        return self

    def hello(self, since: int | None = None) -> None:
        """Say hello and read until the document arrives."""
        message: Message = {"type": "hello"}
        if self.token is not None:
            message["token"] = self.token
        if since is not None:
            message["since"] = since
        self.send(message)
        self.read_until(lambda m: m["type"] in ("snapshot", "patch", "error"))

    def close(self) -> None:
        if self in WsClient._open:
            WsClient._open.remove(self)
        if self._cm is not None:
            cm, self._cm, self.ws = self._cm, None, None
            cm.__exit__(None, None, None)

    # ------------------------------------------------------------ sending

    def send(self, message: Message) -> None:
        assert self.ws is not None
        self.ws.send_text(json.dumps(message))

    def send_raw(self, text: str) -> None:
        assert self.ws is not None
        self.ws.send_text(text)

    def command(self, cmd: dict[str, Any], command_id: str | None = None) -> str:
        """Send ``cmd``; returns its id (a fresh one unless given)."""
        command_id = command_id or f"c{next(self._ids)}"
        self.send({"type": "command", "id": command_id, "cmd": cmd})
        return command_id

    # ------------------------------------------------------------ receiving

    def read(self) -> Message:
        """The next message, applied to the document."""
        assert self.ws is not None
        raw = self.ws.portal.call(_receive, self.ws._send_rx, READ_TIMEOUT)
        if raw["type"] == "websocket.close":
            raise ConnectionError(f"closed with code {raw.get('code')}")
        message: Message = json.loads(raw["text"])
        self.messages.append(message)
        self._apply(message)
        return message

    def read_until(self, done: Callable[[Message], bool]) -> Message:
        while True:
            message = self.read()
            if done(message):
                return message

    def outcome(self, command_id: str) -> Message:
        """The message answering ``command_id``: the one acknowledging it (``is_ack``), or
        its error."""
        for message in self.messages:
            if answers(message, command_id):
                return message
        return self.read_until(lambda m: answers(m, command_id))

    def sync(self, version: int) -> None:
        """Read until the document is at ``version`` or later."""
        while self.version < version:
            self.read()

    def _apply(self, message: Message) -> None:
        kind = message["type"]
        if kind == "snapshot":
            self.before_snapshot, self.before_snapshot_version = self.doc, self.version
            self.doc, self.version = message["doc"], message["version"]
        elif kind == "patch":
            assert message["base"] == self.version, (message["base"], self.version)
            self.doc = jsonpatch.apply_patch(self.doc, message["ops"])
            self.version = message["version"]
        if is_ack(message):  # alone, or carried by the mover's document message
            self.acks[str(acked_id(message))] = message["version"]
        if kind == "error":
            self.errors.append(message)
        elif kind == "presence":
            self.presence.append(message)

    # ------------------------------------------------------------ the view

    @property
    def game(self) -> dict[str, Any]:
        assert self.doc is not None and self.doc["game"] is not None
        game: dict[str, Any] = self.doc["game"]
        return game

    @property
    def legal(self) -> list[dict[str, Any]]:
        return list(self.game.get("legal") or [])

    def held_equals_snapshot(self) -> bool:
        """Ask for a snapshot: does the document built from patches equal it exactly?

        Compared at one version: when the table moved on in between (a bot played), the
        snapshot is of a newer version than the held document, and we ask again.
        """
        for _ in range(50):
            self.send({"type": "snapshot_request"})
            self.read_until(lambda m: m["type"] == "snapshot")
            if self.before_snapshot_version == self.version:
                return self.before_snapshot == self.doc
        raise AssertionError("the table never stood still long enough to compare")
