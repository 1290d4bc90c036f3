"""Whole Strasbourg games over the websocket: the server hosts both games the same way."""

from __future__ import annotations

import random

import pytest

from tests.support.play import play_round_robin, set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


# The fewest and the most seats, each store once: the server path is the same for every
# count and store (the engine's play-outs in tests/games/strasbourg cover each count's rules,
# tests/server/test_storage.py each store's paths). The other two pairs play in the soak tier.
@pytest.mark.parametrize(
    ("database_kind", "seats"),
    [
        pytest.param("sqlite", 3, id="sqlite-3"),
        pytest.param(
            "postgres", 5, id="postgres-5", marks=[pytest.mark.postgres, pytest.mark.slow]
        ),
        pytest.param(
            "postgres", 3, id="postgres-3", marks=[pytest.mark.postgres, pytest.mark.soak]
        ),
        pytest.param("sqlite", 5, id="sqlite-5", marks=pytest.mark.soak),
    ],
    indirect=["database_kind"],
)
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
