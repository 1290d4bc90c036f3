"""The scripted players of a load run: one per seat, each over its own websocket, answering
its own view with a random legal command; and the ``Budget`` of commands and time they share."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
import orjson
import websockets

from server.devtools.load.measure import Stats
from server.devtools.load.patching import PatchFailed, apply_in_place
from server.devtools.load.tables import create_table

OPEN = 30.0  # seconds a websocket handshake may take (hundreds connect at once)
SILENCE = 15.0  # seconds without a message before a player resends or decides again
SKIPPED = frozenset({"retract", "wait"})


class Sender(Protocol):
    """What a player needs to answer a message: a websocket, or a fake one in tests."""

    async def send(self, message: str, /) -> None: ...


class Socket(Sender, Protocol):
    """A websocket connection as a player's receive loop uses it."""

    async def recv(self) -> str | bytes: ...


class Player:
    """A scripted seat: keeps its document in sync and plays a random legal command.

    It holds at most one unacknowledged command. The command→patch latency of a command is
    the time from sending it until this connection holds a document at (or past) the version
    its ``ack`` names, whichever of the two messages arrives last.
    """

    def __init__(
        self,
        ws_url: str,
        table_id: str,
        seat: int,
        token: str,
        seed: str,
        stats: Stats,
        think: float = 0.0,
    ) -> None:
        self.urls = [f"{ws_url}/ws/tables/{table_id}"]
        self.table_id, self.seat = table_id, seat
        self.token = token
        self.rng = random.Random(seed)
        self.stats = stats
        self.doc: dict[str, Any] | None = None
        self.version = -1
        self.pending: dict[str, Any] | None = None  # id, cmd, sent, acked_version
        self.seen_at: list[tuple[int, float]] = []  # (version, arrival) of recent documents
        self.next_id = 0
        self.errors_in_row = 0
        self.acked: dict[str, int] = {}  # command id -> version its ack named
        self.stale_version = -1  # a command refused at this version: wait for a newer one
        self.think = think  # seconds to wait before each command, as a person would
        self.act_at: float | None = None  # when the command being thought about goes out

    @property
    def url(self) -> str:
        """Where the next connection goes; ``fail_over_to`` adds places to go after a loss."""
        return self.urls[0]

    def fail_over_to(self, ws_url: str) -> None:
        """After a lost connection, try ``ws_url`` next (then the others, in turn)."""
        self.urls.append(f"{ws_url}/ws/tables/{self.table_id}")

    @property
    def finished(self) -> bool:
        return bool(self.doc and self.doc["table"]["status"] == "finished")

    @property
    def done(self) -> bool:
        """Finished, and not waiting for the ack of a command (the last one may end the game)."""
        return self.finished and self.pending is None

    async def play(self, budget: Budget, reconnect: bool = False) -> None:
        """Play until the table finishes, the budget is spent, or an error streak (20).

        With ``reconnect`` a lost connection is reopened (``hello`` with ``since``) and an
        unacknowledged command is resent with the same id, as a browser does; otherwise the
        connection error is raised.
        """
        while not self.done and budget.left() and self.errors_in_row < 20:
            try:
                async with websockets.connect(
                    # No keepalive pings, as from a browser: under load a late pong would
                    # close the connection and be counted as a failure of the server.
                    self.url,
                    max_size=2**22,
                    open_timeout=OPEN,
                    ping_interval=None,
                ) as ws:
                    await self.greet(ws)
                    await self.converse(ws, budget)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                if not reconnect:
                    raise
                self.stats.reconnects += 1
                self.urls = [*self.urls[1:], self.urls[0]]
                await asyncio.sleep(0.1)

    async def greet(self, ws: Sender) -> None:
        self.stale_version = -1  # the new connection brings a fresh document
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.version >= 0:
            hello["since"] = self.version
        await ws.send(json.dumps(hello))
        if self.pending is not None:
            await self.send_pending(ws)

    async def converse(self, ws: Socket, budget: Budget) -> None:
        while not self.done and budget.left() and self.errors_in_row < 20:
            wait = min(SILENCE, budget.seconds_left())
            if self.act_at is not None:
                wait = max(0.0, min(wait, self.act_at - time.monotonic()))
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=wait)
            except TimeoutError:
                if self.act_at is not None and time.monotonic() >= self.act_at:
                    await self.maybe_act(ws)
                else:
                    await self.on_silence(ws)
                continue
            await self.on_message(ws, orjson.loads(raw))

    async def on_silence(self, ws: Sender) -> None:
        """Nothing arrived for a while: resend a pending command (same id, so at most once),
        or decide again on a document a refusal had marked stale."""
        self.stale_version = -1
        if self.pending is not None:
            await self.send_pending(ws)
        else:
            await self.maybe_act(ws)

    async def on_message(self, ws: Sender, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            self.set_doc(msg["doc"], msg["version"])
        elif kind == "patch" and not self.take_patch(msg):
            await ws.send(json.dumps({"type": "snapshot_request"}))
            if "ack" in msg:  # committed all the same; settled once the snapshot is here
                self.on_ack(msg["ack"], msg["version"])
            return  # nothing to decide on until the snapshot comes
        elif kind == "ack":
            self.on_ack(msg.get("id"), msg["version"])
        elif kind == "error":
            self.stats.error(msg.get("code", "?"))
            if self.pending and msg.get("id") == self.pending["id"]:
                # Usually our document was stale: decide again once it has changed.
                self.pending, self.stale_version = None, self.version
                self.errors_in_row += 1
        if kind in ("snapshot", "patch") and "ack" in msg:
            # The mover's document message carries its ack (Guildhall's and the floor's).
            self.on_ack(msg["ack"], msg["version"])
        self.settle()
        await self.maybe_act(ws)

    def take_patch(self, msg: dict[str, Any]) -> bool:
        """Apply a patch to the document; False if a snapshot is needed instead."""
        if msg["base"] != self.version or self.doc is None:
            return False
        # In place: a copy of the whole document (its log included) per patch made the
        # players, not the server, the bottleneck of a run.
        try:
            patched = apply_in_place(self.doc, msg["ops"])
        except PatchFailed:
            # The server sent a patch that does not fit: count it, and start afresh.
            self.stats.error("bad_patch")
            self.doc, self.version = None, -1
            return False
        self.set_doc(patched, msg["version"])
        return True

    def on_ack(self, command_id: Any, version: int) -> None:
        if self.pending is None or command_id != self.pending["id"]:
            return
        self.pending["acked_version"] = version
        if command_id not in self.acked:  # a resent command is acknowledged again
            self.acked[command_id] = version
            self.stats.acked += 1
        self.errors_in_row = 0

    def set_doc(self, doc: dict[str, Any], version: int) -> None:
        self.doc, self.version = doc, version
        self.seen_at = [*self.seen_at[-8:], (version, time.perf_counter())]

    def settle(self) -> None:
        """Close the pending command once it is acknowledged and its patch has arrived."""
        pending = self.pending
        if pending is None or pending.get("acked_version") is None:
            return
        arrivals = [at for v, at in self.seen_at if v >= pending["acked_version"]]
        if arrivals:
            self.stats.latencies.append(max(arrivals[0], pending["sent"]) - pending["sent"])
            self.pending = None

    async def maybe_act(self, ws: Sender) -> None:
        if self.pending is not None or self.doc is None or self.finished:
            return
        if self.version == self.stale_version:
            return
        game = self.doc.get("game") or {}
        # Taking a sealed plan back or choosing to wait only prolongs a scripted game.
        legal = [c for c in game.get("legal") or [] if c.get("type") not in SKIPPED]
        if self.doc["table"]["status"] != "playing" or not legal:
            return
        if self.think > 0:
            now = time.monotonic()
            if self.act_at is None:
                # People do not all move in step: each wait is drawn around ``think`` (half to
                # one and a half times it), or every table's seats would send in the same
                # instant, at every turn, as no real tables do. ``converse`` wakes up then.
                self.act_at = now + self.think * self.rng.uniform(0.5, 1.5)
                return
            if now < self.act_at:
                return
            self.act_at = None
        self.next_id += 1
        # A copy: the document is patched in place, and a resend must send what was sent.
        self.pending = {"id": f"c{self.next_id}", "cmd": copy.deepcopy(self.rng.choice(legal))}
        await self.send_pending(ws)

    async def send_pending(self, ws: Sender) -> None:
        assert self.pending is not None
        self.pending.setdefault("sent", time.perf_counter())  # a resend keeps the first time
        message = {"type": "command", "id": self.pending["id"], "cmd": self.pending["cmd"]}
        await ws.send(json.dumps(message))


@dataclass
class Budget:
    """A shared cap on acknowledged commands and on wall time."""

    stats: Stats
    commands: int
    deadline: float

    def left(self) -> bool:
        return self.stats.acked < self.commands and time.monotonic() < self.deadline

    def seconds_left(self) -> float:
        return max(0.05, self.deadline - time.monotonic())


# -- a run's tables and their players --------------------------------------------------------


async def seat_players(
    servers: list[str], tables: int, seats: int, game: str, stats: Stats, think: float = 0.0
) -> list[list[Player]]:
    """Create and start ``tables`` tables; one Player per seat, by table.

    Seat *i* of table *t* connects to ``servers[(t + i) % len(servers)]``, so with two servers
    every table has players on both and every command must cross the fan-out.
    """
    async with httpx.AsyncClient(base_url=servers[0], timeout=30) as client:
        seated = await asyncio.gather(*(create_table(client, game, seats) for _ in range(tables)))
    ws_urls = [url.replace("http://", "ws://", 1) for url in servers]
    return [
        [
            Player(
                ws_urls[(t + i) % len(ws_urls)], table.id, i, token, f"{table.id}/{i}", stats, think
            )
            for i, token in enumerate(table.tokens)
        ]
        for t, table in enumerate(seated)
    ]


async def run_players(
    players: list[list[Player]], budget: Budget, reconnect: bool = False
) -> float:
    """Play every table to its end or the budget; returns the seconds it took.

    A player that fails (its connection refused or lost without ``reconnect``) is counted
    in ``stats.errors`` as ``client:<exception>``; the others play on.
    """
    started = time.perf_counter()
    outcomes = await asyncio.gather(
        *(p.play(budget, reconnect) for row in players for p in row), return_exceptions=True
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            budget.stats.error(f"client:{type(outcome).__name__}")
    budget.stats.finished_tables = sum(any(p.finished for p in row) for row in players)
    return time.perf_counter() - started


async def play_tables(
    servers: list[str],
    tables: int,
    seats: int,
    game: str,
    commands: int,
    seconds: float,
    think: float = 0.0,
    on_seated: Callable[[], None] | None = None,
) -> tuple[Stats, float]:
    """Create ``tables`` tables and play them concurrently; returns the stats and elapsed time.

    Each player waits ``think`` seconds before each of its commands (0: answers at once).
    ``on_seated`` is called once every table is made and started, before anyone connects.
    """
    stats = Stats(tables=tables)
    players = await seat_players(servers, tables, seats, game, stats, think)
    if on_seated is not None:
        on_seated()
    elapsed = await run_players(players, Budget(stats, commands, time.monotonic() + seconds))
    return stats, elapsed
