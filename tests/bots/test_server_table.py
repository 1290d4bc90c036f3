"""A table of bots only plays Norenberc to the end through the real server (app, service,
storage, bot runner), and a person's seat handed to a bot mid-game keeps the game going."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import create_app
from server.engine import get_game
from server.settings import Settings
from tests.support.databases import migrated_database
from tests.support.testclient import TestClient

GAME_TIMEOUT = 240.0  # seconds; a 5-player game is ~130 commands of fast bots


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with migrated_database("sqlite", tmp_path) as url:
        settings = Settings(
            database_url=url,
            public_url="http://testserver",
            secret_key="test-secret",
            bot_delay=0.0,
            max_message_bytes=4096,
            rate_limit=1000.0,
        )
        with TestClient(create_app(settings)) as test_client:
            yield test_client


def _wait_until_finished(client: TestClient, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + GAME_TIMEOUT
    while time.monotonic() < deadline:
        summary: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if summary["status"] == "finished":
            return summary
        time.sleep(0.2)
    raise AssertionError(f"table {table_id} did not finish: {summary}")


def test_five_bots_play_norenberc_to_the_end_through_the_server(client: TestClient) -> None:
    bots = [None, "greedy", "random", "greedy", "random"]
    body = {"game": "norenberc", "seats": 5, "options": {}, "bots": bots, "name": "Ann"}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id, token = created.json()["table_id"], created.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=auth).status_code == 200

    # Ann leaves: her seat goes to a bot, and from then on only bots play.
    handed = client.post(
        f"/api/tables/{table_id}/seats/0/bot", json={"kind": "greedy"}, headers=auth
    )
    assert handed.status_code == 200, handed.text

    _wait_until_finished(client, table_id)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["bots"] == ["greedy", "greedy", "random", "greedy", "random"]
    assert record["result"] is not None and record["result"]["winners"]

    # Replaying the stored commands with the engine accepts every one and ends the same way.
    game = get_game("norenberc")
    state = game.new(5, record["seed"], record["options"])
    for entry in record["commands"]:
        state, _ = game.apply(state, entry["seat"], entry["cmd"])
    assert game.result(state) == record["result"]
