"""A table's log begins with the events of its game's opening (``server.engine.opening``: round
1 shown, the starting player), the first version's events, stored at the deal and rendered in
every language; a table dealt before openings were stored keeps the log it had, and its record
(without ``opening``) still replays and verifies. Every game with a table page
(``tests.support.games``), then the test game, whose whole game is a few bids."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import tests.games.lantern  # noqa: F401  (registers the test game)
from server.api import pages
from server.commands import verify
from server.engine import get_game, is_visible, log_entry, opening
from server.store.models import TableRow
from tests.support import games
from tests.support.play import play_round_robin, set_up_table, table_version
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


def _finished_lantern(client: TestClient) -> str:
    table_id, tokens = set_up_table(client, "lantern", 2)
    players = {s: WsClient(client, table_id, t).connect() for s, t in enumerate(tokens) if t}
    play_round_robin(client, table_id, players, [], random.Random(3))
    return table_id


def _verifies(record: dict[str, Any], tmp_path: Path) -> bool:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return verify.run(argparse.Namespace(record=path)) == 0


def test_the_record_names_the_opening_and_verify_checks_it(
    client: TestClient, tmp_path: Path
) -> None:
    table_id = _finished_lantern(client)
    record = client.get(f"/api/tables/{table_id}/record").json()
    data = _stored(client, table_id)
    assert record["opening"] == [dict(e) for e in data.opening] and record["opening"]
    assert data.log[: len(data.opening)] == data.opening
    assert _verifies(record, tmp_path)
    told = [{**e, "text": "the market is closed"} for e in record["opening"]]
    assert not _verifies({**record, "opening": told}, tmp_path)
    replayed = client.get(f"/api/tables/{table_id}/replay/0").json()
    assert [e["type"] for e in replayed["log"]] == [e["type"] for e in record["opening"]]


def test_a_table_dealt_before_openings_were_stored_keeps_its_log_and_verifies(
    client: TestClient, tmp_path: Path
) -> None:
    table_id = _finished_lantern(client)
    before = _stored(client, table_id)
    service = client.app.state.service  # type: ignore[attr-defined]
    statement = sa.update(TableRow).where(TableRow.id == table_id).values(opening=None)

    async def forget_the_opening() -> None:
        async with service.sessions.read() as session:
            await session.execute(statement)
            await session.commit()
        service.cache.forget(table_id)

    assert client.portal is not None
    client.portal.call(forget_the_opening)
    old = _stored(client, table_id)
    assert old.opening is None and old.log == before.log[len(before.opening) :]
    assert old.version == before.version == table_version(client, table_id)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["opening"] is None and "opening" in record
    assert _verifies({k: v for k, v in record.items() if k != "opening"}, tmp_path)
    assert _verifies(record, tmp_path)
    assert record["result"] == get_game("lantern").result(_stored(client, table_id).state)
    replayed = client.get(f"/api/tables/{table_id}/replay/0").json()
    assert replayed["log"] == []  # as its log began
