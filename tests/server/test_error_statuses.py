"""Error codes become HTTP statuses at the edge only (``server.api.errors``): every code the
server refuses with has its status there, and the services below know no status."""

from __future__ import annotations

import ast
from pathlib import Path

from server.api.errors import STATUS, status_of
from server.tables import ServiceError

SERVER = Path(__file__).resolve().parents[2] / "server"
REFUSALS = ("ServiceError", "ClockError")  # a ClockError is passed on as a ServiceError


def _raised_codes() -> dict[str, str]:
    """Each literal code a ``ServiceError`` or ``ClockError`` is made with, and where."""
    found: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0]
            if (
                name in REFUSALS
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found.setdefault(first.value, f"{path.relative_to(SERVER)}:{node.lineno}")
    return found


def test_every_code_the_server_refuses_with_has_a_status() -> None:
    raised = _raised_codes()
    assert len(raised) > 50  # the walk sees the refusals
    missing = {code: where for code, where in raised.items() if code not in STATUS}
    assert missing == {}
    assert set(STATUS) - set(raised) == set()  # and no status for a code nobody raises


def test_the_statuses_are_those_the_routes_answered_with() -> None:
    assert status_of("unknown_table") == 404
    assert status_of("bad_token") == status_of("not_your_seat") == 403
    assert status_of("no_token") == 401
    assert status_of("rate_limited") == status_of("too_many_tables") == 429
    assert status_of("server_full") == 503
    assert status_of("link_expired") == 410
    # The clock model's refusals: of the request itself 400, of the table's state 409.
    assert status_of("bad_time") == status_of("own_seat") == status_of("bad_clock") == 400
    assert status_of("no_proposal") == status_of("untimed") == status_of("paused") == 409
    assert status_of("a_code_nobody_listed") == 400


def test_a_refusal_carries_no_status() -> None:
    refusal = ServiceError("unknown_table", "no such table")
    assert not hasattr(refusal, "status")
    assert repr(refusal) == "ServiceError('unknown_table', 'no such table')"
