"""Starlette's TestClient, imported without its "use httpx2" deprecation warning.

Starlette warns at import when only ``httpx`` is installed; the suite treats warnings as
errors. The project pins ``httpx`` for now, so the warning is silenced for this one import.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient, WebSocketTestSession

__all__ = ["TestClient", "WebSocketTestSession"]
