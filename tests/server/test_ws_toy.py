"""Whole toy games over the real websocket endpoint, 2-5 seats, with several clients at once."""

from __future__ import annotations

import random

import pytest

from tests.support.play import play_round_robin, set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_whole_toy_game_patched_documents_equal_snapshots(client: TestClient, seats: int) -> None:
    table_id, tokens = set_up_table(client, "toy", seats)
    players = {s: WsClient(client, table_id, tokens[s]).connect() for s in range(seats)}
    spectator = WsClient(client, table_id).connect()
    acked = play_round_robin(client, table_id, players, [spectator], random.Random(seats))
    assert acked >= seats * 2 * 3
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert len(record["commands"]) == acked
    doc = players[0].doc
    assert doc is not None, "a connected client holds a document"
    assert doc["table"]["status"] == "finished"
    for ws in [*players.values(), spectator]:
        ws.close()
