"""The background analysis keeps to its CPU share: after each piece of work the throttle
sleeps long enough that busy / (busy + sleep) is the share, and a stop ends it early."""

from __future__ import annotations

import threading
import time

import pytest

from server.analysis.worker import Stopped, Throttle


class Waits(threading.Event):
    """A stop event that records how long it was waited on instead of waiting."""

    def __init__(self) -> None:
        super().__init__()
        self.waited: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waited.append(timeout or 0.0)
        return self.is_set()


def test_the_throttle_sleeps_to_keep_the_share(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 0.2, 0.2, 0.5, 0.5])  # thread CPU: 0.2 s busy, then 0.3 s busy
    monkeypatch.setattr(time, "thread_time", lambda: next(clock))
    stop = Waits()
    throttle = Throttle(0.25, stop)
    throttle()
    throttle()
    assert stop.waited == pytest.approx([0.6, 0.9])  # 0.2 / (0.2 + 0.6) = 0.25
    assert throttle.busy == pytest.approx(0.5)
    assert throttle.busy / (throttle.busy + throttle.slept) == pytest.approx(0.25)


def test_a_full_share_never_sleeps_and_a_stop_ends_the_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(time, "thread_time", lambda: 1.0)
    stop = Waits()
    Throttle(1.0, stop)()
    assert stop.waited == []
    stop.set()
    with pytest.raises(Stopped):
        Throttle(1.0, stop)()
    with pytest.raises(Stopped):
        Throttle(0.5, stop)()
