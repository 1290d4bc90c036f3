"""The private-names check itself: it finds a reach into the table service, and the server has
none."""

from __future__ import annotations

from tests.private_names import private_names, reaches_in, violations

SERVICE = """
_HELPER = 1

def _helper(): ...

class TableService:
    def __init__(self, sessions):
        self._sessions = sessions
        self.sessions = sessions

    def _announce(self): ...
"""


def test_no_module_outside_the_tables_package_touches_its_privates() -> None:
    assert violations() == []


def test_a_reach_into_the_service_is_found() -> None:
    names = private_names([SERVICE])
    assert names == {"_HELPER", "_helper", "_sessions", "_announce"}
    source = (
        "from server.tables.service import _helper\n"
        "class Outbox:\n"
        "    def __init__(self, service):\n"
        "        self._sessions = service.sessions\n"  # its own attribute: fine
        "        self.make = service._sessions\n"
        "        service._announce()\n"
    )
    assert reaches_in("server.notify.outbox", source, names) == [
        "server.notify.outbox:1: imports _helper from server.tables.service",
        "server.notify.outbox:5: uses _sessions of the tables package",
        "server.notify.outbox:6: uses _announce of the tables package",
    ]
