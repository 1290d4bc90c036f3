"""How a load run's figures are printed: a header and one aligned row per configuration, or one
JSON object per configuration; then, with Postgres, the ratio to the raw INSERT+COMMIT rate."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from server.devtools.load.measure import PROBE_SESSIONS, Stats, percentile


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
        """Acknowledged commands per second of the run (0.0 if it took no time)."""
        return self.stats.acked / self.elapsed if self.elapsed > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The figures as ``--json`` prints them: milliseconds and MB, rounded."""
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
        """The figures as one row under HEADER; '?' or nan where one is unknown."""
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


def preamble(tables: int, seats: int, game: str, commands: int, seconds: float) -> str:
    """The line above the header that says what every run plays and its caps."""
    return (
        f"{tables} tables x {seats} seats of {game}, at most"
        f" {commands} commands or {seconds:.0f} s per run"
    )


def emit(result: RunResult, as_json: bool) -> None:
    """Print one run: its JSON object, or its row under HEADER."""
    print(json.dumps(result.as_dict()) if as_json else result.line(), flush=True)


def commit_ratio(serial: float, parallel: float, runs: list[RunResult], as_json: bool) -> None:
    """Print the raw INSERT+COMMIT rates (1 and PROBE_SESSIONS sessions) and each Postgres
    run's commands/s as a fraction of them."""
    ratios = {r.label: {"serial": r.rate / serial, "parallel": r.rate / parallel} for r in runs}
    if as_json:
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


def floor_ratio(floor: RunResult, runs: list[RunResult], as_json: bool) -> None:
    """Print each Postgres run's server CPU per command as a multiple of the floor's."""
    base = floor.cpu_ms_per_command
    ratios = {
        r.label: None
        if base is None or r.cpu_ms_per_command is None
        else r.cpu_ms_per_command / base
        for r in runs
    }
    if as_json:
        print(json.dumps({"floor_cpu_ms_per_command": base, "cpu_vs_floor": ratios}))
        return
    for label, ratio in ratios.items():
        shown = "?" if ratio is None else f"{ratio:.2f}"
        print(f"  {label}: server CPU per command = {shown} x the floor's")
