"""A websocket client for tests: keeps its document, collects replies by command id.

A background reader applies snapshots and patches (asking for a snapshot on a gap), records
how each version arrived, and resolves the future of a command id on its ``ack``/``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import jsonpatch
import websockets

from tests.support.acks import acked_id

TIMEOUT = 15.0


class Conn:
    """One connection to ``/ws/tables/{table_id}`` (``token`` None: a spectator)."""

    def __init__(self, ws_base: str, table_id: str, token: str | None) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.token = token
        self.doc: dict[str, Any] | None = None
        self.version = -1
        # version -> how it came: "patch" or "snapshot" pushed by the server, or "requested"
        # (a snapshot this client asked for after a gap, or the first one after hello)
        self.arrivals: dict[int, str] = {}
        self._asked = True  # hello asks for the first snapshot
        self.errors: list[dict[str, Any]] = []
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Condition()
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Conn:
        self._ws = await websockets.connect(self.url, max_size=2**22, open_timeout=TIMEOUT)
        hello: dict[str, Any] = {"type": "hello"}
        if self.token:
            hello["token"] = self.token
        await self._ws.send(json.dumps(hello))
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda: self.doc is not None)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await self._ws.close()

    @property
    def legal(self) -> list[dict[str, Any]]:
        game = (self.doc or {}).get("game") or {}
        return list(game.get("legal") or [])

    async def command(self, command_id: str, cmd: dict[str, Any]) -> dict[str, Any]:
        """Send a command and return its ``ack`` or ``error`` message."""
        reply = asyncio.get_running_loop().create_future()
        self._replies[command_id] = reply
        await self._ws.send(json.dumps({"type": "command", "id": command_id, "cmd": cmd}))
        return await asyncio.wait_for(reply, TIMEOUT)

    async def wait_version(self, version: int) -> None:
        """Wait until the document is at ``version`` or later (TimeoutError after 15 s)."""
        await self.wait_for(lambda: self.version >= version)

    async def wait_for(self, predicate: Any) -> None:
        async with asyncio.timeout(TIMEOUT), self._changed:
            await self._changed.wait_for(predicate)

    async def _read(self) -> None:
        async for raw in self._ws:
            await self._handle(json.loads(raw))

    async def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            self.doc, self.version = msg["doc"], msg["version"]
            self.arrivals.setdefault(msg["version"], "requested" if self._asked else "snapshot")
            self._asked = False
        elif kind == "patch" and (self.doc is None or msg["base"] != self.version):
            # Dropped for a snapshot; an ack it carries still answers the command.
            self._asked = True
            await self._ws.send(json.dumps({"type": "snapshot_request"}))
        elif kind == "patch":
            self.doc = jsonpatch.apply_patch(self.doc, msg["ops"])
            self.version = msg["version"]
            self.arrivals.setdefault(msg["version"], "patch")
        answered = msg.get("id") if kind == "error" else acked_id(msg)
        if answered in self._replies:
            self._replies.pop(answered).set_result(msg)
        elif kind == "error":
            self.errors.append(msg)
        async with self._changed:
            self._changed.notify_all()


def metric(text: str, sample: str) -> float:
    """The value of ``sample`` (a name with its labels, if any) in Prometheus text.

    Raises KeyError when the sample is absent.
    """
    for line in text.splitlines():
        if line.startswith(sample + " "):
            return float(line.rsplit(" ", 1)[1])
    raise KeyError(sample)
