"""Whole Strasbourg games over the websocket: the server hosts both games the same way."""

from __future__ import annotations

import random

import pytest

from tests.support.play import play_round_robin, set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


@pytest.mark.parametrize("seats", [3, pytest.param(5, marks=pytest.mark.slow)])
def test_whole_strasbourg_game_over_the_websocket(client: TestClient, seats: int) -> None:
    bots: list[str | None] = [None] * (seats - 1) + ["random"]
    table_id, tokens = set_up_table(client, "strasbourg", seats, bots=bots)
    players = {s: WsClient(client, table_id, t).connect() for s, t in enumerate(tokens) if t}
    spectator = WsClient(client, table_id).connect()
    acked = play_round_robin(client, table_id, players, [spectator], random.Random(seats), 5)
    assert acked > 0
    for ws in [*players.values(), spectator]:
        assert ws.held_equals_snapshot()
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["result"]["scores"] and len(record["result"]["scores"]) == seats
