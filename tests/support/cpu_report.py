"""CPU seconds per test and per file, for sizing the suite (``make test-cpu``).

Wall-clock durations say little on a shared 2-core machine: a test waits as long as the other
worker lets it. The CPU a test costs does not depend on that. Each phase's cost is the change in
the CPU time of the worker's whole process tree (the worker, the servers and browsers it
started, and whatever they reaped), read from ``/proc``; Postgres' own server is not in it.

A process that leaves the tree unreaped takes its CPU time with it: Chromium's renderers do,
when a browser closes (they are re-parented, and nobody in the tree adds them up), so that
phase's change is negative although nothing was given back. Such a phase counts as 0 and the
seconds are shown apart ("left the tree"); every CPU second a test used while its processes
were in the tree stays counted where it was used.

Enabled with ``-p tests.support.cpu_report``. Under pytest-xdist each worker measures and puts
the figure on the report; the controller adds them up and prints the summary. With
``GUILDHALL_CPU_REPORT_JSON=PATH`` it also writes every test's seconds to PATH, so two runs (before
and after a change) can be compared test by test rather than by totals of different suites.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TICK = os.sysconf("SC_CLK_TCK")
KEY = "cpu_seconds"
SHOWN = 30


def _stat(pid: str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and its reaped children), or None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after its last ")".
    fields = text[text.rindex(")") + 2 :].split()
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return ppid, (utime + stime + cutime + cstime) / TICK


def tree_cpu(root: int) -> float:
    """CPU seconds used so far by ``root``, its live descendants and everything they reaped."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(entry)
            if stat is not None:
                stats[int(entry)] = stat
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _) in stats.items():
        children[ppid].append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += stats[pid][1]
        todo.extend(children.get(pid, ()))
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    report = outcome.get_result()
    now = tree_cpu(os.getpid())
    started = getattr(item, "_cpu_mark", None)
    item._cpu_mark = now  # type: ignore[attr-defined]
    if started is not None:
        report.user_properties.append((KEY, now - started))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item._cpu_mark = tree_cpu(os.getpid())  # type: ignore[attr-defined]


class Totals:
    def __init__(self) -> None:
        self.by_test: dict[str, float] = defaultdict(float)
        self.left_tree = 0.0  # CPU seconds that processes took with them (module docstring)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key == KEY and isinstance(value, float):
                self.by_test[report.nodeid] += max(0.0, value)
                self.left_tree += max(0.0, -value)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.by_test:
            return
        dump = os.environ.get("GUILDHALL_CPU_REPORT_JSON")
        if dump:
            payload = {"by_test": self.by_test, "left_tree": self.left_tree}
            Path(dump).write_text(json.dumps(payload, indent=1, sort_keys=True))
        write = terminalreporter.write_line
        by_file: dict[str, float] = defaultdict(float)
        for nodeid, seconds in self.by_test.items():
            by_file[nodeid.split("::", 1)[0]] += seconds
        terminalreporter.section("CPU seconds (process trees of the tests, Postgres not counted)")
        write(f"all tests: {sum(self.by_test.values()):.1f} s in {len(self.by_test)} tests")
        write(f"(of which {self.left_tree:.1f} s left the tree with unreaped processes)")
        write("by file:")
        for path, seconds in sorted(by_file.items(), key=lambda kv: -kv[1])[:SHOWN]:
            write(f"  {seconds:8.1f}  {path}")
        write("by test:")
        for nodeid, seconds in sorted(self.by_test.items(), key=lambda kv: -kv[1])[:SHOWN]:
            write(f"  {seconds:8.1f}  {nodeid}")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist)
        config.pluginmanager.register(Totals(), "cpu-report-totals")
