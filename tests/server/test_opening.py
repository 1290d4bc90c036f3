"""A table's log begins with the events of its game's opening (``server.engine.opening``: round
1 shown, the starting player), the first version's events, stored at the deal, with a template
in every language: every game with a table page (``tests.support.games``). The record of the
opening, and a table dealt before openings were stored: tests/server/test_lantern_server.py."""

from __future__ import annotations

from typing import Any

import pytest

from server.api import pages
from server.engine import is_visible, log_entry, opening
from tests.support import games
from tests.support.play import set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

SHARED_PREFIX = "log."  # the engine's own events (sealed planning), translated once


def _stored(client: TestClient, table_id: str) -> Any:
    assert client.portal is not None, "the client runs inside its with-block"
    return client.portal.call(client.app.state.service.get, table_id)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", games.with_page())
def test_a_new_tables_first_log_shows_the_opening_in_every_language(
    client: TestClient, game: str
) -> None:
    seats = games.manifest(game).seat_counts()[0]
    table_id, _ = set_up_table(client, game, seats)  # people only: nobody has moved
    data = _stored(client, table_id)
    _, events = opening(games.game(game), seats, data.seed, data.options)
    public = [log_entry(e) for e in events if is_visible(e, None)]
    assert public, f"{game} opens without an event"
    watcher = WsClient(client, table_id).connect()
    assert watcher.doc is not None and watcher.doc["log"] == public
    assert data.seq == 0 and list(data.log) == events == list(data.opening)
    prefix = games.manifest(game).log_prefix
    for lang in pages.languages():
        strings = pages.page_strings(lang, game)
        for entry in public:
            variant = entry["params"].get("variant")
            rest = entry["type"] + (f".{variant}" if variant else "")
            assert prefix + rest in strings or SHARED_PREFIX + rest in strings, (lang, rest)
