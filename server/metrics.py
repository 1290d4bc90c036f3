"""Process metrics through ``prometheus_client``, rendered as Prometheus text at ``/metrics``.

One registry of our own (not the library's global one), so ``/metrics`` shows exactly the
``guildhall_*`` families documented in docs/self-hosting.md and tests can read a clean set.
The view figures (CPU, messages, bytes) are counted in ``VIEW_STATS`` by
``server.realtime.views``, on the hot path; a collector reads them at scrape time instead of
counting twice. This module imports nothing of the server, so every layer may count here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector


@dataclass
class ViewStats:
    """CPU seconds spent building documents and patches, and the messages they made."""

    cpu_seconds: float = 0.0
    snapshots: int = 0
    patches: int = 0
    bytes_sent: int = 0

    @property
    def messages(self) -> int:
        return self.snapshots + self.patches

    def reset(self) -> None:
        self.cpu_seconds, self.snapshots, self.patches, self.bytes_sent = 0.0, 0, 0, 0


# Counted where documents are built (``server.realtime.views``), on the hot path; read here.
VIEW_STATS = ViewStats()


LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
CONTENT_TYPE = prometheus_client.CONTENT_TYPE_LATEST

# Without this every counter also exports a ``*_created`` timestamp series, which nobody here
# reads and which doubled the page.
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]  # unannotated there

REGISTRY = CollectorRegistry()

_connections = Gauge("guildhall_connections", "Open websocket connections.", registry=REGISTRY)
_active_tables = Gauge(
    "guildhall_active_tables", "Tables being played in this process.", registry=REGISTRY
)
_commands = Counter(
    "guildhall_commands", "Commands acknowledged (stored and fanned out).", registry=REGISTRY
)
_errors = Counter(
    "guildhall_errors",
    "Rejected requests and messages, by error code.",
    ["code"],
    registry=REGISTRY,
)
_fanout = Counter(
    "guildhall_fanout_events",
    "Cross-process fan-out events (GUILDHALL_FANOUT=postgres).",
    ["event"],
    registry=REGISTRY,
)
_command_seconds = Histogram(
    "guildhall_command_seconds",
    "Seconds from a command's receipt to its commit.",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)

_bot_seconds = Counter(
    "guildhall_bot_seconds",
    "Seconds bots spent deciding (wall time in their worker threads), by search.",
    ["search"],
    registry=REGISTRY,
)
_bot_decisions = Counter(
    "guildhall_bot_decisions",
    "Bot decisions, by how much search the process's bot budget allowed.",
    ["search"],
    registry=REGISTRY,
)


class _ViewCollector(Collector):
    """The CPU, messages and bytes that documents and patches cost, from ``VIEW_STATS``."""

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(
            "guildhall_view_cpu_seconds",
            "CPU seconds spent building and encoding views and patches.",
            value=VIEW_STATS.cpu_seconds,
        )
        messages = CounterMetricFamily(
            "guildhall_view_messages", "Game messages sent, by kind.", labels=["kind"]
        )
        messages.add_metric(["patch"], VIEW_STATS.patches)
        messages.add_metric(["snapshot"], VIEW_STATS.snapshots)
        yield messages
        yield CounterMetricFamily(
            "guildhall_view_bytes", "Bytes of game messages sent.", value=VIEW_STATS.bytes_sent
        )


REGISTRY.register(_ViewCollector())


_open = 0  # the gauge's value, kept here so a close reported twice cannot go below zero


def connection_opened() -> None:
    global _open
    _open += 1
    _connections.set(_open)


def connection_closed() -> None:
    global _open
    _open = max(0, _open - 1)
    _connections.set(_open)


def set_active_tables(count: int) -> None:
    _active_tables.set(count)


def record_command(seconds: float) -> None:
    """One acknowledged command; ``seconds`` from receipt to commit."""
    _commands.inc()
    _command_seconds.observe(seconds)


def record_error(code: str) -> None:
    """One rejected request or message, by its error code."""
    _errors.labels(code=code).inc()


def record_fanout(event: str, count: int = 1) -> None:
    """Cross-process fan-out events: ``sent``, ``received``, ``send_failed``, ``reconnected``,
    ``swept`` (a version found by the periodic sweep because its notification was lost)."""
    if count:
        _fanout.labels(event=event).inc(count)


def record_bot_decision(search: str, seconds: float) -> None:
    """One bot decision that took ``seconds``; ``search`` is ``full``, ``short`` (a search cut
    down by the bot budget), ``none`` (no budget left: the heuristic played) or ``fixed`` (a
    bot kind that does not search)."""
    _bot_decisions.labels(search=search).inc()
    _bot_seconds.labels(search=search).inc(seconds)


def render() -> str:
    """All metrics in the Prometheus text exposition format."""
    return generate_latest(REGISTRY).decode()
