"""The layers check itself: it finds arrows that point back, and the server has none."""

from __future__ import annotations

from tests.import_layers import back_arrows, violations


def test_the_server_imports_point_one_way() -> None:
    assert violations() == []


def test_a_back_pointing_import_is_found_even_inside_a_function() -> None:
    source = "import server.engine\n\ndef f():\n    from server.realtime.hub import Hub\n"
    assert back_arrows("server.tables.service", source) == [
        "server.tables.service:4: tables imports server.realtime.hub (realtime)"
    ]
    assert back_arrows("server.api.ws", "from server.tables import TableService\n") == []
    assert back_arrows("server.store.db", "import server.app\n") == []  # not a ranked layer
