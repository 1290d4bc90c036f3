"""A load run from start to finish: for every requested configuration a fresh database, its
servers, the players and the printed figures; after the Postgres ones, the raw INSERT+COMMIT
probe on the same server."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx

from server.devtools.load import report
from server.devtools.load.measure import PROBE_SESSIONS, ResourceWatch, insert_commit_rate
from server.devtools.load.players import play_tables
from server.devtools.load.report import RunResult
from server.devtools.load.servers import ServerProcess, database, fresh_postgres, running_servers

T = TypeVar("T")


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop where it is installed (uvicorn's standard extra brings it), as the
    servers use: the players of a run are one process, and with the stock loop that process
    reached a full core before the server did at 100 tables."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the players' event loop until ``main`` is done."""
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        return runner.run(main)


@dataclass(frozen=True)
class LoadOptions:
    """What a load run was asked for; ``guildhall loadtest --help`` explains each field."""

    tables: int
    seats: int
    game: str
    commands: int
    seconds: float
    databases: str  # comma list: sqlite, postgres
    instances: str  # comma list of app process counts
    postgres_url: str  # only used to create and drop fresh databases
    targets: tuple[str, ...] = ()  # running servers to play against instead of starting any
    json: bool = False
    floor: bool = False  # also play the counter game against the bare floor server
    think: float = 0.0  # seconds each player waits before each command (human pace)


class Matrix(Protocol):
    """The two comma lists that choose the configurations: LoadOptions or parsed arguments."""

    @property
    def databases(self) -> str: ...

    @property
    def instances(self) -> str: ...


def configurations(matrix: Matrix) -> list[tuple[str, int]]:
    """(database, instances) pairs to run; SQLite only with one process (no cross-process
    fan-out without Postgres)."""
    kinds = [k.strip() for k in matrix.databases.split(",") if k.strip()]
    counts = [int(n) for n in matrix.instances.split(",") if n.strip()]
    return [(k, n) for k in kinds for n in counts if not (k == "sqlite" and n > 1)]


def run_all(options: LoadOptions) -> int:
    """Run every requested configuration and print its figures; 1 if a run failed to start."""
    if not options.json:
        print(
            report.preamble(
                options.tables, options.seats, options.game, options.commands, options.seconds
            )
        )
        print(report.HEADER)
    if options.targets:
        report.emit(run_target(options), options.json)
        return 0
    failed = False
    postgres_runs: list[RunResult] = []
    for kind, count in configurations(options):
        try:
            result = run_configuration(options, kind, count)
        except (RuntimeError, OSError, subprocess.SubprocessError, httpx.HTTPError) as exc:
            # One configuration that cannot start must not hide the figures of the others.
            print(f"{kind} x{count}: failed: {exc}", file=sys.stderr)
            failed = True
            continue
        report.emit(result, options.json)
        if kind == "postgres":
            postgres_runs.append(result)
    if options.floor:
        try:
            floor = run_floor(options)
        except (RuntimeError, OSError, subprocess.SubprocessError, httpx.HTTPError) as exc:
            print(f"floor: failed: {exc}", file=sys.stderr)
            return 1
        report.emit(floor, options.json)
        report.floor_ratio(floor, postgres_runs, options.json)
    if postgres_runs:
        serial, parallel = commit_rates(options.postgres_url, options.seconds)
        report.commit_ratio(serial, parallel, postgres_runs, options.json)
    return 1 if failed else 0


def run_configuration(options: LoadOptions, kind: str, count: int) -> RunResult:
    """Start ``count`` servers on a fresh ``kind`` database, play, stop; the run's figures."""
    with (
        tempfile.TemporaryDirectory(prefix="gh-load-") as tmp,
        database(kind, Path(tmp), options.postgres_url) as url,
        running_servers(
            url,
            count,
            Path(tmp),
            GUILDHALL_BOT_DELAY="0",
            module="server.devtools.load.serve",  # guildhall serve with the counter game
            # Every simulated player connects from 127.0.0.1: lift the per-address cap.
            GUILDHALL_MAX_CONNECTIONS_PER_IP=str(2 * options.tables * options.seats),
        ) as servers,
    ):
        urls = [s.url for s in servers]
        result = run_loop(measured_play(options, urls, servers))
    result.label = f"{kind} x{count}"
    return result


def run_floor(options: LoadOptions) -> RunResult:
    """The same players against the floor server (``server.devtools.load.floor``), one process, on a
    fresh database of the same Postgres server."""
    with (
        tempfile.TemporaryDirectory(prefix="gh-floor-") as tmp,
        fresh_postgres(options.postgres_url, prefix="gh_floor") as url,
    ):
        floor = ServerProcess(
            dict(os.environ),
            Path(tmp) / "floor.log",
            module="server.devtools.load.floor",
            args=("--database-url", url),
        )
        floor.start()
        try:
            result = run_loop(measured_play(options, [floor.url], [floor]))
        finally:
            floor.stop()
    result.label = "floor x1"
    return result


def run_target(options: LoadOptions) -> RunResult:
    """Play against the running servers of ``options.targets``; their memory and CPU are unknown."""
    return run_loop(measured_play(options, list(options.targets), []))


async def measured_play(
    options: LoadOptions, urls: list[str], servers: list[ServerProcess]
) -> RunResult:
    """``play_tables`` while sampling each server's RSS and CPU time.

    The CPU time counts from when every table is made and started: the HTTP calls that create,
    join and start tables are not moves, and the floor's cost nearly nothing, which would
    bill Guildhall's create-and-join path to its moves (most of all in a short run over many
    tables). Connecting, ``hello`` and the first snapshot still count, for both servers.
    """
    watch = ResourceWatch(servers)
    sampler = asyncio.create_task(watch.sample())
    try:
        stats, elapsed = await play_tables(
            urls,
            options.tables,
            options.seats,
            options.game,
            options.commands,
            options.seconds,
            options.think,
            on_seated=watch.restart_cpu,
        )
    finally:
        sampler.cancel()
    cpu = watch.cpu_used()
    label = f"target x{len(urls)}" if not servers else ""
    return RunResult(label, stats, elapsed, watch.peaks or [None] * len(urls), cpu)


def commit_rates(postgres_url: str, run_seconds: float) -> tuple[float, float]:
    """Raw INSERT+COMMIT/s on a fresh database of ``postgres_url``'s server, from 1 and from
    PROBE_SESSIONS sessions; each probe lasts a sixth of a run, between 1 and 5 seconds."""
    seconds = min(5.0, max(1.0, run_seconds / 6))
    with fresh_postgres(postgres_url) as url:
        serial = asyncio.run(insert_commit_rate(url, seconds, 1))
        parallel = asyncio.run(insert_commit_rate(url, seconds, PROBE_SESSIONS))
    return serial, parallel
