"""Process-wide counters and a latency histogram, rendered as Prometheus text at ``/metrics``.

Kept dependency-free: a handful of numbers guarded by the GIL is all a single process needs.
"""

from __future__ import annotations

from collections import Counter

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

_counters: Counter[str] = Counter()
_gauges: dict[str, float] = {}
_errors: Counter[str] = Counter()
_fanout: Counter[str] = Counter()
_latency_counts = [0] * (len(LATENCY_BUCKETS) + 1)
_latency_sum = 0.0


def connection_opened() -> None:
    _gauges["guildhall_connections"] = _gauges.get("guildhall_connections", 0) + 1


def connection_closed() -> None:
    _gauges["guildhall_connections"] = max(0, _gauges.get("guildhall_connections", 0) - 1)


def set_active_tables(count: int) -> None:
    _gauges["guildhall_active_tables"] = count


def record_command(seconds: float) -> None:
    """One acknowledged command; ``seconds`` from receipt to commit."""
    global _latency_sum
    _counters["guildhall_commands_total"] += 1
    _latency_sum += seconds
    for i, bound in enumerate(LATENCY_BUCKETS):
        if seconds <= bound:
            _latency_counts[i] += 1
            return
    _latency_counts[-1] += 1


def record_error(code: str) -> None:
    """One rejected request or message, by its error code."""
    _errors[code] += 1


def record_fanout(event: str, count: int = 1) -> None:
    """Cross-process fan-out events: ``sent``, ``received``, ``send_failed``, ``reconnected``,
    ``swept`` (a version found by the periodic sweep because its notification was lost)."""
    if count:
        _fanout[event] += count


def render() -> str:
    """All metrics in the Prometheus text exposition format."""
    lines = [
        "# TYPE guildhall_connections gauge",
        f"guildhall_connections {_gauges.get('guildhall_connections', 0):g}",
        "# TYPE guildhall_active_tables gauge",
        f"guildhall_active_tables {_gauges.get('guildhall_active_tables', 0):g}",
        "# TYPE guildhall_commands_total counter",
        f"guildhall_commands_total {_counters['guildhall_commands_total']}",
        "# TYPE guildhall_errors_total counter",
    ]
    lines += [f'guildhall_errors_total{{code="{code}"}} {n}' for code, n in sorted(_errors.items())]
    lines.append("# TYPE guildhall_fanout_events_total counter")
    lines += [
        f'guildhall_fanout_events_total{{event="{event}"}} {n}'
        for event, n in sorted(_fanout.items())
    ]
    lines.append("# TYPE guildhall_command_seconds histogram")
    cumulative = 0
    for bound, count in zip(LATENCY_BUCKETS, _latency_counts, strict=False):
        cumulative += count
        lines.append(f'guildhall_command_seconds_bucket{{le="{bound}"}} {cumulative}')
    cumulative += _latency_counts[-1]
    lines.append(f'guildhall_command_seconds_bucket{{le="+Inf"}} {cumulative}')
    lines.append(f"guildhall_command_seconds_sum {_latency_sum:.6f}")
    lines.append(f"guildhall_command_seconds_count {cumulative}")
    return "\n".join(lines) + "\n"
