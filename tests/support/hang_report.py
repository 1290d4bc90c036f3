"""When a test hangs, say what its event loops were waiting on.

pytest-timeout ends a hung test with the stacks of its threads; for an app run by Starlette's
TestClient that shows only a portal thread in ``select()``, never which asyncio task would not
finish. A watchdog thread here notes, once a test's phase (setup, call or teardown) has run
``HANG_REPORT_AFTER`` seconds, every pending task of every running event loop of the process
with its stack, and the phase's report carries that as a section ("asyncio tasks at the
hang"), so a failure in CI names the task. Nothing happens while tests keep moving.
"""

from __future__ import annotations

import asyncio
import gc
import io
import threading
import time
from collections.abc import Generator
from typing import Any

import pytest

HANG_REPORT_AFTER = 120.0  # seconds, under the suite's 300 s timeout
_POLL = 5.0


class _Watch:
    def __init__(self) -> None:
        self.phase: tuple[str, str] | None = None
        self.since = 0.0
        self.report = ""
        self.lock = threading.Lock()

    def start(self, nodeid: str, when: str) -> None:
        with self.lock:
            self.phase, self.since, self.report = (nodeid, when), time.monotonic(), ""

    def stop(self) -> str:
        with self.lock:
            self.phase, report, self.report = None, self.report, ""
        return report

    def look(self) -> None:
        with self.lock:
            overdue = (
                self.phase is not None
                and not self.report
                and time.monotonic() - self.since > HANG_REPORT_AFTER
            )
        if overdue:
            report = pending_tasks()
            with self.lock:
                self.report = report or "(no running event loop)"


def pending_tasks() -> str:
    """Every unfinished task of every running event loop, with its stack."""
    out = io.StringIO()
    for loop in [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop)]:
        if not loop.is_running():
            continue
        for task in list(asyncio.all_tasks(loop)):
            out.write(f"--- {task!r}\n")
            task.print_stack(file=out)
    return out.getvalue()


_watch = _Watch()


def _watchdog() -> None:
    while True:
        time.sleep(_POLL)
        try:
            _watch.look()
        except Exception as exc:  # a report must never break the run
            _watch.report = f"(no report: {exc!r})"


threading.Thread(target=_watchdog, name="hang-report", daemon=True).start()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[Any]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    result = yield
    report = _watch.stop()
    if report:
        result.sections.append(("asyncio tasks at the hang", report))
    return result


def _phase(item: pytest.Item, when: str) -> None:
    _watch.start(item.nodeid, when)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _phase(item, "setup")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    _phase(item, "call")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    _phase(item, "teardown")
