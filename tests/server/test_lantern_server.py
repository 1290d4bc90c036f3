"""Lantern market, the game built from docs/adding-a-game.md, through the real server: a table
over HTTP, people on the websocket and a bot seat, every seat's document free of the others'
sealed bids and of the deck, and the record replaying to the same result."""

from __future__ import annotations

import json
import random

import tests.games.lantern
import tests.games.lantern.bots  # registers the bots' knowledge of the game
from server.engine import get_game
from server.engine.replay import final_state
from tests.support.play import play_round_robin, set_up_table, step_all, table_version
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

GAME = tests.games.lantern.GAME


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
