"""``guildhall loadtest``: K concurrent tables of websocket players against uvicorn on 127.0.0.1.

For each configuration (SQLite or Postgres; one or two app processes sharing the database) it
migrates a fresh database, starts the servers (or uses ``--target``), creates K tables whose
seats are all taken by scripted players, and lets every player answer its own view with a
random legal command over a real websocket until the tables finish, ``--commands`` commands
were acknowledged or ``--seconds`` passed. It prints throughput (acknowledged commands/s),
command→patch latency (from sending a command to receiving the patch that contains it on the
sender's own connection) p50/p95/p99, each server's peak resident memory, and the server CPU
time per acknowledged command (which, unlike the rest, does not depend on what else the
machine is doing). With Postgres it also measures the raw single-row INSERT+COMMIT rate of the
same server, the physical limit of one durable command, and prints the ratio. SQLite runs with
one process only: without Postgres there is no fan-out between processes.

Everything is bounded: tables, commands, seconds, and every wait has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import websockets

from server.load.measure import (
    PROBE_SESSIONS,
    ResourceWatch,
    Stats,
    insert_commit_rate,
    percentile,
)
from server.load.servers import ServerProcess, database, fresh_postgres, running_servers
from server.load.tables import create_table

HELP = "many concurrent tables over real websockets on 127.0.0.1; prints throughput and latency"

OPEN = 30.0  # seconds a websocket handshake may take (hundreds connect at once)
SILENCE = 15.0  # seconds without a message before a player resends or decides again
SKIPPED = frozenset({"retract", "wait"})
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres"


# -- one player over one websocket -----------------------------------------------------------


class Player:
    """A scripted seat: keeps its document in sync and plays a random legal command.

    It holds at most one unacknowledged command. The command→patch latency of a command is
    the time from sending it until this connection holds a document at (or past) the version
    its ``ack`` names, whichever of the two messages arrives last.
    """

    def __init__(
        self, ws_url: str, table_id: str, seat: int, token: str, seed: str, stats: Stats
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

    async def greet(self, ws: Any) -> None:
        self.stale_version = -1  # the new connection brings a fresh document
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.version >= 0:
            hello["since"] = self.version
        await ws.send(json.dumps(hello))
        if self.pending is not None:
            await self.send_pending(ws)

    async def converse(self, ws: Any, budget: Budget) -> None:
        while not self.done and budget.left() and self.errors_in_row < 20:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=min(SILENCE, budget.seconds_left()))
            except TimeoutError:
                await self.on_silence(ws)
                continue
            await self.on_message(ws, json.loads(raw))

    async def on_silence(self, ws: Any) -> None:
        """Nothing arrived for a while: resend a pending command (same id, so at most once),
        or decide again on a document a refusal had marked stale."""
        self.stale_version = -1
        if self.pending is not None:
            await self.send_pending(ws)
        else:
            await self.maybe_act(ws)

    async def on_message(self, ws: Any, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            self.set_doc(msg["doc"], msg["version"])
        elif kind == "patch":
            if msg["base"] != self.version or self.doc is None:
                await ws.send(json.dumps({"type": "snapshot_request"}))
                return
            self.set_doc(jsonpatch.apply_patch(self.doc, msg["ops"]), msg["version"])
        elif kind == "ack" and self.pending and msg.get("id") == self.pending["id"]:
            self.pending["acked_version"] = msg["version"]
            if msg["id"] not in self.acked:  # a resent command is acknowledged again
                self.acked[msg["id"]] = msg["version"]
                self.stats.acked += 1
            self.errors_in_row = 0
        elif kind == "error":
            self.stats.error(msg.get("code", "?"))
            if self.pending and msg.get("id") == self.pending["id"]:
                # Usually our document was stale: decide again once it has changed.
                self.pending, self.stale_version = None, self.version
                self.errors_in_row += 1
        self.settle()
        await self.maybe_act(ws)

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

    async def maybe_act(self, ws: Any) -> None:
        if self.pending is not None or self.doc is None or self.finished:
            return
        if self.version == self.stale_version:
            return
        game = self.doc.get("game") or {}
        # Taking a sealed plan back or choosing to wait only prolongs a scripted game.
        legal = [c for c in game.get("legal") or [] if c.get("type") not in SKIPPED]
        if self.doc["table"]["status"] != "playing" or not legal:
            return
        self.next_id += 1
        self.pending = {"id": f"c{self.next_id}", "cmd": self.rng.choice(legal)}
        await self.send_pending(ws)

    async def send_pending(self, ws: Any) -> None:
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


# -- tables ----------------------------------------------------------------------------------


async def seat_players(
    servers: list[str], tables: int, seats: int, game: str, stats: Stats
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
            Player(ws_urls[(t + i) % len(ws_urls)], table.id, i, token, f"{table.id}/{i}", stats)
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
    servers: list[str], tables: int, seats: int, game: str, commands: int, seconds: float
) -> tuple[Stats, float]:
    """Create ``tables`` tables and play them concurrently; returns the stats and elapsed time."""
    stats = Stats(tables=tables)
    players = await seat_players(servers, tables, seats, game, stats)
    elapsed = await run_players(players, Budget(stats, commands, time.monotonic() + seconds))
    return stats, elapsed


# -- the command -----------------------------------------------------------------------------


@dataclass
class RunResult:
    """One configuration's figures."""

    label: str
    stats: Stats
    elapsed: float
    rss_peak: list[int | None]
    cpu: float | None = None  # server CPU seconds used during the run, all processes

    @property
    def cpu_ms_per_command(self) -> float | None:
        """Server CPU per acknowledged command: the cost that contention does not change."""
        if self.cpu is None or not self.stats.acked:
            return None
        return 1000 * self.cpu / self.stats.acked

    @property
    def rate(self) -> float:
        return self.stats.acked / self.elapsed if self.elapsed > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        lat = self.stats.latencies
        return {
            "run": self.label,
            "tables": self.stats.tables,
            "finished_tables": self.stats.finished_tables,
            "acked": self.stats.acked,
            "seconds": round(self.elapsed, 2),
            "commands_per_s": round(self.rate, 1),
            "latency_ms": {f"p{q}": round(percentile(lat, q) * 1000, 1) for q in (50, 95, 99)},
            "rss_mb": [None if b is None else round(b / 2**20, 1) for b in self.rss_peak],
            "server_cpu_ms_per_command": self.cpu_ms_per_command,
            "errors": self.stats.errors,
        }

    def line(self) -> str:
        d = self.as_dict()
        lat = d["latency_ms"]
        rss = "/".join("?" if m is None else f"{m:.0f}" for m in d["rss_mb"]) or "?"
        errors = ",".join(f"{k}={v}" for k, v in sorted(self.stats.errors.items())) or "-"
        cpu = self.cpu_ms_per_command
        return (
            f"{self.label:<13} {d['tables']:>3}/{d['finished_tables']:<3} {d['acked']:>6}"
            f" {d['seconds']:>7.1f} {d['commands_per_s']:>8.1f} {lat['p50']:>7.1f}"
            f" {lat['p95']:>7.1f} {lat['p99']:>7.1f} {rss:>9} {cpu or float('nan'):>8.1f}"
            f"  {errors}"
        )


HEADER = (
    f"{'run':<13} {'tbl/fin':<7} {'acked':>6} {'seconds':>7} {'cmds/s':>8} {'p50 ms':>7}"
    f" {'p95 ms':>7} {'p99 ms':>7} {'rss MB':>9} {'cpu ms':>8}  errors"
)


async def measured_play(
    args: argparse.Namespace, urls: list[str], servers: list[ServerProcess]
) -> RunResult:
    """``play_tables`` while sampling each server's RSS and CPU time."""
    watch = ResourceWatch(servers)
    sampler = asyncio.create_task(watch.sample())
    try:
        stats, elapsed = await play_tables(
            urls, args.tables, args.seats, args.game, args.commands, args.seconds
        )
    finally:
        sampler.cancel()
    cpu = watch.cpu_used()
    label = f"target x{len(urls)}" if not servers else ""
    return RunResult(label, stats, elapsed, watch.peaks or [None] * len(urls), cpu)


def measure(args: argparse.Namespace, kind: str, count: int) -> RunResult:
    """Start ``count`` servers on a fresh ``kind`` database, play, stop; the run's figures."""
    with (
        tempfile.TemporaryDirectory(prefix="gh-load-") as tmp,
        database(kind, Path(tmp), args.postgres_url) as url,
        running_servers(
            url,
            count,
            Path(tmp),
            GUILDHALL_BOT_DELAY="0",
            # Every simulated player connects from 127.0.0.1: lift the per-address cap.
            GUILDHALL_MAX_CONNECTIONS_PER_IP=str(2 * args.tables * args.seats),
        ) as servers,
    ):
        urls = [s.url for s in servers]
        result = asyncio.run(measured_play(args, urls, servers))
    result.label = f"{kind} x{count}"
    return result


def measure_target(args: argparse.Namespace) -> RunResult:
    return asyncio.run(measured_play(args, args.target, []))


def configurations(args: argparse.Namespace) -> list[tuple[str, int]]:
    """(database, instances) pairs to run; SQLite only with one process (no cross-process
    fan-out without Postgres)."""
    kinds = [k.strip() for k in args.databases.split(",") if k.strip()]
    counts = [int(n) for n in args.instances.split(",") if n.strip()]
    return [(k, n) for k in kinds for n in counts if not (k == "sqlite" and n > 1)]


def emit(args: argparse.Namespace, result: RunResult) -> None:
    print(json.dumps(result.as_dict()) if args.json else result.line(), flush=True)


def report_commit_ratio(args: argparse.Namespace, postgres_runs: list[RunResult]) -> None:
    """Measure raw INSERT+COMMIT on the same server; print it and each run's ratio to it."""
    seconds = min(5.0, max(1.0, args.seconds / 6))
    with fresh_postgres(args.postgres_url) as url:
        serial = asyncio.run(insert_commit_rate(url, seconds, 1))
        parallel = asyncio.run(insert_commit_rate(url, seconds, PROBE_SESSIONS))
    ratios = {
        r.label: {"serial": r.rate / serial, "parallel": r.rate / parallel} for r in postgres_runs
    }
    if args.json:
        print(
            json.dumps(
                {
                    "insert_commit_per_s": {"1": serial, str(PROBE_SESSIONS): parallel},
                    "ratio": ratios,
                }
            )
        )
        return
    print(
        f"raw INSERT+COMMIT/s on this Postgres: {serial:.0f} (1 session),"
        f" {parallel:.0f} ({PROBE_SESSIONS} sessions)"
    )
    for label, ratio in ratios.items():
        print(
            f"  {label}: durable commands/s = {ratio['serial']:.3f} x the 1-session rate,"
            f" {ratio['parallel']:.3f} x the {PROBE_SESSIONS}-session rate"
        )


def run(args: argparse.Namespace) -> int:
    """Run every requested configuration and print its figures; 1 if a run failed to start."""
    if not args.json:
        print(
            f"{args.tables} tables x {args.seats} seats of {args.game}, at most"
            f" {args.commands} commands or {args.seconds:.0f} s per run"
        )
        print(HEADER)
    if args.target:
        emit(args, measure_target(args))
        return 0
    failed, postgres_runs = False, []
    for kind, count in configurations(args):
        try:
            result = measure(args, kind, count)
        except (RuntimeError, OSError, subprocess.SubprocessError, httpx.HTTPError) as exc:
            print(f"{kind} x{count}: failed: {exc}", file=sys.stderr)
            failed = True
            continue
        emit(args, result)
        if kind == "postgres":
            postgres_runs.append(result)
    if postgres_runs:
        report_commit_ratio(args, postgres_runs)
    return 1 if failed else 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: sizes and caps of the run, which databases and process counts, or a target."""
    add = parser.add_argument
    add("--tables", type=int, default=20, help="concurrent tables (default 20)")
    add("--seats", type=int, default=4, help="seats per table (default 4)")
    add("--game", default="norenberc", help="game to play (default norenberc)")
    add("--commands", type=int, default=5000, help="stop after this many acks per run")
    add("--seconds", type=float, default=30, help="time cap per run in seconds (default 30)")
    add("--databases", default="sqlite,postgres", help="comma list: sqlite, postgres")
    add("--instances", default="1,2", help="comma list of app process counts (default 1,2)")
    add(
        "--postgres-url",
        default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG),
        help="Postgres server on which fresh databases are made (default $TEST_DATABASE_URL)",
    )
    add("--target", action="append", help="play against running server(s) at this URL")
    add("--json", action="store_true", help="print one JSON object per run")
