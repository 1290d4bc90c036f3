"""The app's shutdown never hangs on one part: each is given its time and then left behind,
named in the log, so the others still stop and the process exits."""

from __future__ import annotations

import asyncio

import pytest

from server import app as app_module


async def test_a_part_that_never_stops_is_named_and_left_behind(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(app_module, "SHUTDOWN_STEP", 0.05)
    stopped: list[str] = []

    async def never() -> None:
        await asyncio.Event().wait()

    async def promptly() -> None:
        stopped.append("fan-out")

    await app_module._stop("bots", never())
    await app_module._stop("fan-out", promptly())
    assert stopped == ["fan-out"]
    assert "the bots did not stop within" in caplog.text
    assert "fan-out did not stop" not in caplog.text
