"""The analysis of a finished game in one app (SQLite): queued when the game ends, run in
the background (games of many addresses in turns), served by ``GET /api/tables/{id}/analysis``
only once the game is over."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.settings import Settings
from tests.support.databases import migrated_database
from tests.support.play import running_app, set_up_table
from tests.support.testclient import TestClient
from tests.support.waiting import wait_for

PLAYOUTS = 1  # per position: the fewest, a wide margin; keeps the test short


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    with migrated_database("sqlite", tmp_path) as url:
        yield url


def analysis_settings(database_url: str, **extra: Any) -> Settings:
    """Settings of an app that analyses its finished games at once, one play-out a position."""
    values: dict[str, Any] = {
        "database_url": database_url,
        "secret_key": "k",
        "bot_delay": 0,
        "analysis_cpu": 1.0,
        "analysis_playouts": PLAYOUTS,
    }
    return Settings(**{**values, **extra})


def bots_finish(client: TestClient, game: str = "norenberc", seats: int = 2) -> str:
    """A table whose creator hands seat 0 to a bot: the bots play it to the end."""
    table_id, tokens = set_up_table(client, game, seats, bots=[None] + ["greedy"] * (seats - 1))
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    handed = client.post(
        f"/api/tables/{table_id}/seats/0/bot", json={"kind": "greedy"}, headers=auth
    )
    assert handed.status_code == 200, handed.text
    wait_for(
        "the bots finish the game",
        lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "finished",
    )
    return table_id


@pytest.mark.parametrize(("game", "seats"), [("norenberc", 2), ("strasbourg", 3)])
def test_a_finished_game_is_analysed_in_the_background(
    database_url: str, game: str, seats: int
) -> None:
    with running_app(analysis_settings(database_url)) as client:
        table_id = bots_finish(client, game, seats)

        def done() -> dict[str, Any] | None:
            answer = client.get(f"/api/tables/{table_id}/analysis")
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            return body if body["status"] == "done" else None

        figures = wait_for("the analysis is done", done)
        assert figures["done"] == figures["steps"] == len(figures["chances"])
        assert all(len(c) == seats and abs(sum(c) - 1) < 1e-9 for c in figures["chances"])
        assert figures["rounds"][0] == 1 and figures["rounds"][-1] >= 2
        assert len(figures["swings"]) <= 3
        record = client.get(f"/api/tables/{table_id}/record").json()
        winners = record["result"]["winners"]
        last = [1 / len(winners) if s in winners else 0 for s in range(seats)]
        assert figures["chances"][-1] == last
        # Each position says how many play-outs it rests on (the result itself: none) and
        # how far each seat's chance may be off.
        playouts = figures["playouts"]
        assert playouts[-1] == 0 and figures["margins"][-1] == [0.0] * seats
        assert set(playouts[:-1]) == {PLAYOUTS}
        assert all(0 < m < 0.5 for ms in figures["margins"][:-1] for m in ms)


def test_the_analysis_waits_for_the_end_of_the_game(database_url: str) -> None:
    with running_app(analysis_settings(database_url)) as client:
        table_id, _tokens = set_up_table(client, "norenberc", 2)
        answer = client.get(f"/api/tables/{table_id}/analysis")
        assert answer.status_code == 409 and answer.json()["code"] == "not_finished"
        answer = client.get("/api/tables/nosuchtable/analysis")
        assert answer.status_code == 404


def test_an_app_that_stops_gives_its_analysis_up_and_the_next_resumes_it(
    database_url: str, tmp_path: Path
) -> None:
    """A graceful stop ends the lease at once; the next app computes only the positions not
    stored yet."""

    def row(table_id: str) -> tuple[Any, ...]:
        with sqlite3.connect(tmp_path / "guildhall.db") as db:
            query = "SELECT status, lease_until, done, steps FROM analyses WHERE table_id = ?"
            found = db.execute(query, (table_id,)).fetchone()
        return tuple(found) if found else ()

    with running_app(analysis_settings(database_url, analysis_cpu=0.2)) as client:
        table_id = bots_finish(client)
        wait_for("a few positions stored", lambda: (r := row(table_id)) and r[2] >= 3)
    status, lease_until, stored, steps = row(table_id)
    assert status == "running" and lease_until == 0 and 3 <= stored < steps
    with running_app(analysis_settings(database_url)) as client:
        wait_for("the analysis resumed and done", lambda: row(table_id)[0] == "done")
        computed = client.app.state.analysis.computed  # type: ignore[attr-defined]
    assert row(table_id)[2] == steps
    assert stored <= steps - computed <= stored + 1  # at most the position in flight again


async def _claims_in_turn(client: TestClient) -> list[str]:
    """Four games queued for analysis, three from one address before one from another (and
    one table of no address): the order in which they are claimed, by address."""
    service = client.app.state.service  # type: ignore[attr-defined]
    job = client.app.state.analysis  # type: ignore[attr-defined]
    made: dict[str, str] = {}
    for n, address in enumerate(["198.51.100.1"] * 3 + ["203.0.113.9", None]):
        data, _ = await service.create_table("norenberc", 2, {}, [], "Ada", address=address)
        made[data.id] = f"{address or 'none'} #{n}"
        job.now = lambda n=n: 1000.0 + n  # queued one after another
        await job.queue(data.id)
    job.now = lambda: 2000.0
    claimed = []
    while (table_id := await job.claim()) is not None:
        claimed.append(made[table_id])
    return claimed


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_games_of_many_addresses_are_analysed_in_turns(kind: str, tmp_path: Path) -> None:
    """The analysis time is shared by all: one address finishing game after game does not
    keep another's analysis waiting behind all of them."""
    with (
        migrated_database(kind, tmp_path) as url,
        # Nothing claims the analysis but the test.
        running_app(analysis_settings(url, analysis_cpu=0)) as client,
    ):
        assert client.portal is not None
        claimed = client.portal.call(_claims_in_turn, client)
    assert claimed == [
        "198.51.100.1 #0",
        "203.0.113.9 #3",
        "none #4",
        "198.51.100.1 #1",
        "198.51.100.1 #2",
    ]
