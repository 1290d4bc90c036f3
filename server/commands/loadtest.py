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
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from server.load.measure import (
    PROBE_SESSIONS,
    ResourceWatch,
    Stats,
    insert_commit_rate,
    percentile,
)
from server.load.players import play_tables
from server.load.servers import ServerProcess, database, fresh_postgres, running_servers

HELP = "many concurrent tables over real websockets on 127.0.0.1; prints throughput and latency"

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres"


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
