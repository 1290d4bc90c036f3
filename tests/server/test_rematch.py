"""Rematch: the same people and bots at a new table, each person's seat claimed only through
their own old seat token; one rematch per finished game, also when two processes race."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from server.cli import main
from server.engine import get_game
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings
from server.store.db import make_engine, make_sessionmaker
from server.store.models import TableRow
from server.tables import TableService
from tests.support.play import play_round_robin, set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

LIVE_CLOCK = {"mode": "live", "plan": 90, "action": 30, "bank": 120, "increment": 5}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _finished(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    """A finished toy game of Ada (seat 0), Bea (seat 1) and a random bot (seat 2)."""
    body = {"game": "toy", "seats": 3, "name": "Ada", "bots": [None, None, "random"], **extra}
    created = client.post("/api/tables", json=body).json()
    table_id, ada = created["table_id"], created["token"]
    join = {"name": "Bea", "invite": created["invite"]}
    bea = client.post(f"/api/tables/{table_id}/join", json=join).json()["token"]
    assert client.post(f"/api/tables/{table_id}/start", headers=_auth(ada)).status_code == 200
    players = {0: WsClient(client, table_id, ada).connect()}
    players[1] = WsClient(client, table_id, bea).connect()
    play_round_robin(client, table_id, players, [], random.Random(3))
    for ws in players.values():
        ws.close()
    return table_id, ada, bea


def _rematch(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    reply = client.post(f"/api/tables/{table_id}/rematch", headers=_auth(token))
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def test_a_rematch_seats_the_same_people_and_bots_each_with_their_own_new_link(
    client: TestClient,
) -> None:
    old_id, ada, bea = _finished(client, public=True, clock=LIVE_CLOCK)
    old = client.get(f"/api/tables/{old_id}").json()
    assert old["rematch"] is None
    spectator = WsClient(client, old_id).connect()

    first = _rematch(client, old_id, bea)  # anyone seated may ask first
    new_id = first["table_id"]
    assert new_id != old_id and first["seat"] == 1
    assert first["token"] not in (ada, bea) and first["link"].endswith(f"#seat={first['token']}")
    new = client.get(f"/api/tables/{new_id}").json()
    assert [(s["name"], s["bot"]) for s in new["seats"]] == [
        ("Ada", None),
        ("Bea", None),
        (None, "random"),
    ]
    assert new["game"] == "toy" and new["options"] == old["options"] and new["public"] is True
    assert (
        new["clock"]["config"] == old["clock"]["config"]
        and new["seed_sha256"] != old["seed_sha256"]
    )
    assert new["status"] == "open"  # Ada has not come yet
    # The old table's document tells everyone, spectators included, where the rematch is.
    assert client.get(f"/api/tables/{old_id}").json()["rematch"] == new_id
    spectator.sync(old["version"] + 1)
    assert spectator.doc is not None and spectator.doc["table"]["rematch"] == new_id
    spectator.close()

    again = _rematch(client, old_id, bea)
    assert again == first  # the same link again (another device, a second press)
    second = _rematch(client, old_id, ada)
    assert second["table_id"] == new_id and second["seat"] == 0
    assert second["token"] not in (first["token"], ada, bea)
    me = client.get(f"/api/tables/{new_id}/me", headers=_auth(second["token"])).json()
    assert me["seat"] == 0 and me["creator"] is True and me["plays"] is True
    bea_me = client.get(f"/api/tables/{new_id}/me", headers=_auth(first["token"])).json()
    assert bea_me["seat"] == 1 and bea_me["creator"] is False
    # Everyone has come: the rematch is dealt, bot included.
    assert client.get(f"/api/tables/{new_id}").json()["status"] == "playing"
    tables = sa.select(sa.func.count()).select_from(TableRow)
    assert _scalar(client, tables) == 2


def test_the_creator_may_start_a_rematch_before_everyone_came(client: TestClient) -> None:
    old_id, ada, _bea = _finished(client)
    link = _rematch(client, old_id, ada)
    started = client.post(f"/api/tables/{link['table_id']}/start", headers=_auth(link["token"]))
    assert started.status_code == 200 and started.json()["status"] == "playing"


def test_nobody_but_a_seat_owner_gets_a_seat_at_the_rematch(client: TestClient) -> None:
    old_id, ada, bea = _finished(client)
    other_id, other_ada, _ = _finished(client)
    missing = client.post(f"/api/tables/{old_id}/rematch")
    assert missing.status_code == 401 and missing.json()["code"] == "no_token"
    for rogue in ("guess", other_ada, ada[:-1] + ("A" if ada[-1] != "A" else "B")):
        refused = client.post(f"/api/tables/{old_id}/rematch", headers=_auth(rogue))
        assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
    assert client.get(f"/api/tables/{old_id}").json()["rematch"] is None  # nothing was made
    unknown = client.post("/api/tables/NoSuchTbl/rematch", headers=_auth(ada))
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_table"

    link = _rematch(client, old_id, ada)
    new_id = link["table_id"]
    # Bea's seat is Bea's: her old token claims seat 1 and nothing else; Ada's new token,
    # an invite or a token of the old table claim no other seat either.
    assert _rematch(client, old_id, bea)["seat"] == 1
    for token in (ada, bea, other_ada):
        me = client.get(f"/api/tables/{new_id}/me", headers=_auth(token))
        assert me.status_code == 403 and me.json()["code"] == "bad_token"
    join = {"name": "Eve", "invite": link["invite"], "seat": 1}
    taken = client.post(f"/api/tables/{new_id}/join", json=join)
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    # Another table's rematch stays its own.
    assert _rematch(client, other_id, other_ada)["table_id"] != new_id


def test_a_game_not_yet_over_has_no_rematch(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    refused = client.post(f"/api/tables/{table_id}/rematch", headers=_auth(str(tokens[0])))
    assert refused.status_code == 409 and refused.json()["code"] == "not_finished"
    assert client.get(f"/api/tables/{table_id}").json()["rematch"] is None


def test_a_player_whose_seat_a_bot_played_at_the_end_gets_it_back_in_the_rematch(
    client: TestClient,
) -> None:
    body = {"game": "toy", "seats": 2, "name": "Ada"}
    created = client.post("/api/tables", json=body).json()
    table_id, ada = created["table_id"], created["token"]
    join = {"name": "Bea", "invite": created["invite"]}
    bea = client.post(f"/api/tables/{table_id}/join", json=join).json()["token"]
    client.post(f"/api/tables/{table_id}/start", headers=_auth(ada))
    handed = client.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"kind": "greedy"}, headers=_auth(bea)
    )
    assert handed.status_code == 200
    players = {0: WsClient(client, table_id, ada).connect()}
    play_round_robin(client, table_id, players, [], random.Random(5))
    players[0].close()
    link = _rematch(client, table_id, bea)
    seats = client.get(f"/api/tables/{link['table_id']}").json()["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("Ada", None), ("Bea", None)]
    assert link["seat"] == 1


def _scalar(client: TestClient, query: Any) -> int:
    service = client.app.state.service  # type: ignore[attr-defined]

    async def run() -> int:
        async with service.sessions.read() as session:
            return int((await session.execute(query)).scalar_one())

    assert client.portal is not None
    return client.portal.call(run)


# -------------------------------------------------------------------- two processes


class _Process:
    """One app process's table service (its own held tables, locks and connections)."""

    def __init__(self, settings: Settings) -> None:
        self.engine = make_engine(settings.database_url)
        self.service = TableService(settings, make_sessionmaker(self.engine), MemoryFanOut())

    async def close(self) -> None:
        await self.service.close()
        await self.engine.dispose()


async def _finish(service: TableService, table_id: str) -> None:
    """Play the toy game to its end from the server side (every seat its first command)."""
    for _ in range(200):
        data = await service.get_stored(table_id)
        if data.status == "finished":
            return
        game = data.state
        assert game is not None
        rules = get_game(data.game)
        seat = min(rules.to_act(game))
        await service.submit(table_id, seat, rules.legal(game, seat)[0])
    raise AssertionError("the game did not end in 200 moves")


@pytest.mark.postgres
@pytest.mark.parametrize("database_kind", ["postgres"], indirect=True)
async def test_two_processes_asked_at_once_make_one_rematch(settings: Settings) -> None:
    one, two = _Process(settings), _Process(settings)
    games = 10
    try:
        for _ in range(games):
            data, ada = await one.service.create_table("toy", 3, {}, [None, None, "random"], "Ada")
            invite = one.service.invite_code(data.id)
            bea = (await one.service.join(data.id, "Bea", invite=invite))[1]
            await one.service.start(data.id, ada)
            await _finish(one.service, data.id)
            await two.service.get_stored(data.id)  # both hold the finished table
            made = await asyncio.gather(
                one.service.rematch(data.id, ada), two.service.rematch(data.id, bea)
            )
            assert made[0][0] == made[1][0] and [m[1] for m in made] == [0, 1]
            again = await asyncio.gather(
                two.service.rematch(data.id, ada), one.service.rematch(data.id, bea)
            )
            assert again == made
            assert (await two.service.get_stored(made[0][0])).status == "playing"
        count = sa.select(sa.func.count()).select_from(TableRow)
        async with one.service.sessions.read() as session:
            total = (await session.execute(count)).scalar_one()
        assert total == 2 * games  # each game and its one rematch, never two
    finally:
        await one.close()
        await two.close()


def test_a_rematch_cleaned_up_unused_is_made_anew_when_asked_again(
    client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    old_id, ada, bea = _finished(client)
    left = _rematch(client, old_id, ada)["table_id"]  # Bea never came: it stays open
    version = client.get(f"/api/tables/{old_id}").json()["version"]
    _age(client, left, 30)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("SECRET_KEY", settings.secret_key)
    assert main(["cleanup", "--yes"]) == 0
    assert client.get(f"/api/tables/{left}").status_code == 404
    old = client.get(f"/api/tables/{old_id}").json()
    assert old["rematch"] is None and old["version"] == version + 1  # kept, link dropped
    anew = _rematch(client, old_id, bea)
    assert anew["table_id"] not in (left, old_id) and anew["seat"] == 1


def _age(client: TestClient, table_id: str, days: float) -> None:
    moment = datetime.now(UTC) - timedelta(days=days)
    statement = sa.update(TableRow).where(TableRow.id == table_id).values(updated_at=moment)
    service = client.app.state.service  # type: ignore[attr-defined]

    async def run() -> None:
        async with service.sessions.read() as session:
            await session.execute(statement)
            await session.commit()

    assert client.portal is not None
    client.portal.call(run)
