"""Waiting in a test for something another thread or process does, within a bound."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(
    what: str, check: Callable[[], Any], timeout: float = 120.0, every: float = 0.1
) -> Any:
    """``check()``'s first true answer, asked every ``every`` seconds; AssertionError naming
    ``what`` when none came within ``timeout`` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"{what}: not within {timeout:.0f} s")
