"""Lantern market, the game built from docs/adding-a-game.md, through the real server: a table
over HTTP, people on the websocket and a bot seat, every seat's document free of the others'
sealed bids and of the deck, and the record replaying to the same result; the record names the
events the log began with (the opening), and a table dealt before openings were stored keeps its
log and still verifies."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import tests.games.lantern.bots  # noqa: F401  (registers the bots' knowledge of the game)
from server.commands import verify
from server.engine import get_game
from server.engine.replay import final_state
from server.store.models import TableRow
from tests.games.lantern.game import GAME
from tests.support.play import play_round_robin, set_up_table, step_all, table_version
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


def test_a_whole_game_with_a_bot_over_http_and_the_websocket(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "lantern", 3, bots=[None, None, "greedy"])
    players = {s: WsClient(client, table_id, t).connect() for s, t in enumerate(tokens) if t}
    watcher = WsClient(client, table_id).connect()
    assert players[0].game["shown"] and "deck" not in json.dumps(players[0].doc)
    acked = play_round_robin(client, table_id, players, [watcher], random.Random(5))
    assert acked >= 4 * 2  # each person bid at least once a round
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert {c["seat"] for c in record["commands"]} == {0, 1, 2}  # the bot bid too
    assert final_state(get_game("lantern"), record)["players"] is not None
    assert record["result"] == GAME.result(final_state(GAME, record))
    assert players[0].doc is not None and players[0].doc["table"]["status"] == "finished"


def test_a_sealed_bid_reaches_only_its_bidder(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "lantern", 3)
    seats = [WsClient(client, table_id, t).connect() for t in tokens]
    watcher = WsClient(client, table_id).connect()
    everyone = [*seats, watcher]
    step_all(client, table_id, seats[0], {"type": "bid", "amount": 7}, everyone)
    assert seats[0].game["my_bid"] == 7
    for ws in [seats[1], seats[2], watcher]:
        assert ws.game["my_bid"] is None
        assert ws.game["planning"]["status"][0] == "committed"
    step_all(client, table_id, seats[1], {"type": "bid", "amount": 3}, everyone)
    # Everything seat 2 and the watcher were sent until now: no bid of another seat in it.
    for ws in [seats[2], watcher]:
        assert _bids_sent(ws) == set()
        sent = json.dumps(ws.messages)
        assert '"plans"' not in sent and '"deck"' not in sent
    assert _bids_sent(seats[0]) == {7} and _bids_sent(seats[1]) == {3}
    step_all(client, table_id, seats[2], {"type": "bid", "amount": 1}, everyone)
    log = [e for e in watcher.doc["log"] if e["type"] == "LanternWon"]  # type: ignore[index]
    assert log and log[0]["params"]["seat"] == 0 and log[0]["params"]["price"] == 7
    assert table_version(client, table_id) > 0


def _bids_sent(ws: WsClient) -> set[int]:
    """Every sealed bid value a client was sent, in a snapshot or a patch."""
    bids = set()
    for message in ws.messages:
        if message["type"] == "snapshot" and message["doc"]["game"]:
            bids.add(message["doc"]["game"]["my_bid"])
        for op in message.get("ops") or []:
            if op["path"].endswith("/my_bid") and "value" in op:
                bids.add(op["value"])
            if op["path"] == "/game" and isinstance(op.get("value"), dict):
                bids.add(op["value"].get("my_bid"))
    return bids - {None}


def _stored(client: TestClient, table_id: str) -> Any:
    assert client.portal is not None, "the client runs inside its with-block"
    return client.portal.call(client.app.state.service.get, table_id)  # type: ignore[attr-defined]


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
