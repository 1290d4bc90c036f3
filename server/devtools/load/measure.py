"""What a load run measures: acks, errors and latencies, a process's memory and CPU time, and
the raw INSERT+COMMIT rate of a Postgres server (the physical limit of one durable command)."""

from __future__ import annotations

import asyncio
import json
import math
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from server.realtime.pg_fanout import asyncpg_dsn

if TYPE_CHECKING:
    import asyncpg

PROBE_SESSIONS = 16  # parallel sessions of the INSERT+COMMIT probe (well under max_connections)
SAMPLE_EVERY = 0.25  # seconds between two samples of each server's resident memory


# -- what the players record -----------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by nearest rank; NaN for no values.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.0
    """
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


@dataclass
class Stats:
    """What every player of one run records."""

    acked: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    finished_tables: int = 0
    tables: int = 0
    reconnects: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


# -- memory and CPU of a process -------------------------------------------------------------


def rss_bytes(pid: int) -> int | None:
    """VmRSS of ``pid`` in bytes from /proc, or None when unavailable."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return None


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of ``pid`` in seconds from /proc, or None when unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Sampled(Protocol):
    """A process whose memory and CPU time can be read (``servers.ServerProcess`` is one)."""

    def rss_bytes(self) -> int | None: ...

    def cpu_seconds(self) -> float | None: ...


class ResourceWatch:
    """Each process's peak resident memory and the CPU time all of them use while watched.

    Created before the span it measures (``restart_cpu`` moves the span's start of CPU time
    later); ``sample`` runs as a task during it; ``cpu_used`` is read right after it.
    """

    def __init__(self, processes: Sequence[Sampled]) -> None:
        self.processes = processes
        self.peaks: list[int | None] = [p.rss_bytes() for p in processes]
        self.cpu_before = [p.cpu_seconds() for p in processes]

    async def sample(self) -> None:
        """Raise ``peaks`` to what each process holds now, every SAMPLE_EVERY s until cancelled."""
        while True:
            for i, process in enumerate(self.processes):
                now = process.rss_bytes()
                if now is not None:
                    self.peaks[i] = max(now, self.peaks[i] or 0)
            await asyncio.sleep(SAMPLE_EVERY)

    def restart_cpu(self) -> None:
        """Count CPU time from now on (``cpu_used`` then covers only what follows)."""
        self.cpu_before = [p.cpu_seconds() for p in self.processes]

    def cpu_used(self) -> float | None:
        """CPU seconds used since creation, summed over the processes; None if any is unknown
        (a partial sum would understate the cost per command) or nothing is watched."""
        cpu_after = [p.cpu_seconds() for p in self.processes]
        pairs = zip(self.cpu_before, cpu_after, strict=True)
        used = [b - a for a, b in pairs if a is not None and b is not None]
        return sum(used) if self.processes and len(used) == len(self.processes) else None


# -- the physical limit: one durable single-row commit ---------------------------------------


async def insert_commit_rate(dsn: str, seconds: float, connections: int) -> float:
    """Single-row INSERT+COMMIT per second on ``dsn`` from ``connections`` parallel sessions.

    Uses an ordinary (logged) table, as the command log is, so each commit waits for its WAL
    flush; the table is dropped afterwards.
    """
    import asyncpg

    dsn = asyncpg_dsn(dsn)
    table = f"gh_commit_probe_{secrets.token_hex(4)}"
    setup = await asyncpg.connect(dsn)
    await setup.execute(f"CREATE TABLE {table} (id bigserial PRIMARY KEY, body jsonb NOT NULL)")
    try:
        conns = [await asyncpg.connect(dsn) for _ in range(connections)]
        deadline = time.monotonic() + seconds
        counts = await asyncio.gather(*(_insert_loop(c, table, deadline) for c in conns))
        for conn in conns:
            await conn.close()
    finally:
        await setup.execute(f"DROP TABLE {table}")
        await setup.close()
    return sum(counts) / seconds


async def _insert_loop(conn: asyncpg.Connection, table: str, deadline: float) -> int:
    """Insert one row per transaction into ``table`` until ``deadline``; how many went in."""
    done = 0
    body = json.dumps({"type": "probe"})
    while time.monotonic() < deadline:
        await conn.execute(f"INSERT INTO {table} (body) VALUES ($1::jsonb)", body)
        done += 1
    return done
