"""The lobby's "your tables" (``POST /api/tables/mine``), stale tables leaving the public list,
and ``guildhall cleanup``: on SQLite and on Postgres, through the real app."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from server.cli import main
from server.settings import Settings
from server.store.models import CommandRow, SeatRow, TableRow
from tests.support.acks import is_ack
from tests.support.play import play_round_robin, running_app, set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

DAYS_CLOCK = {"mode": "days", "per_decision": 43200}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _mine(client: TestClient, *links: tuple[str, str]) -> list[dict[str, Any]]:
    body = {"seats": [{"table_id": table_id, "token": token} for table_id, token in links]}
    reply = client.post("/api/tables/mine", json=body)
    assert reply.status_code == 200, reply.text
    assert isinstance(reply.json()["server_time"], float)
    return list(reply.json()["tables"])


def _given(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if value is not None}


def _two_people(client: TestClient, **extra: object) -> tuple[str, str, str]:
    body = {"game": "toy", "seats": 2, "name": "Ada", **extra}
    created = client.post("/api/tables", json=body).json()
    join = {"name": "Bea", "invite": created["invite"]}
    bea = client.post(f"/api/tables/{created['table_id']}/join", json=join).json()
    return created["table_id"], created["token"], bea["token"]


def _run(client: TestClient, query: Any) -> Any:
    """Run ``query(session)`` in the app's own database sessions; commits."""
    service = client.app.state.service  # type: ignore[attr-defined]

    async def run() -> Any:
        async with service.sessions.read() as session:
            value = await query(session)
            await session.commit()
            return value

    assert client.portal is not None
    return client.portal.call(run)


def _age(client: TestClient, table_id: str, days: float) -> None:
    """Make the table's last change ``days`` old, as if nobody had touched it since."""
    moment = datetime.now(UTC) - timedelta(days=days)
    statement = sa.update(TableRow).where(TableRow.id == table_id).values(updated_at=moment)
    _run(client, lambda session: session.execute(statement))


def _rows(client: TestClient, model: Any, table_id: str) -> int:
    query = sa.select(sa.func.count()).select_from(model)
    column = model.id if model is TableRow else model.table_id
    counted = partial(_scalar, query.where(column == table_id))
    return int(_run(client, counted))


async def _scalar(query: Any, session: Any) -> Any:
    return (await session.execute(query)).scalar_one()


def _plan(client: TestClient, table_id: str, token: str, value: int) -> dict[str, Any]:
    """The seat of ``token`` plans ``value`` over the websocket; returns its game view."""
    ws = WsClient(client, table_id, token).connect()
    ack = ws.outcome(ws.command({"type": "plan", "value": value}))
    assert is_ack(ack), ack
    ws.sync(ack["version"])
    game = ws.game
    ws.close()
    return game


def _finish(client: TestClient, table_id: str, tokens: list[str | None]) -> None:
    players = {s: WsClient(client, table_id, t).connect() for s, t in enumerate(tokens) if t}
    play_round_robin(client, table_id, players, [], random.Random(7))
    for ws in players.values():
        ws.close()


# -------------------------------------------------------------------- your tables


def test_your_tables_say_whose_turn_it_is_and_how_long_you_have(client: TestClient) -> None:
    table_id, ada, bea = _two_people(client, clock=DAYS_CLOCK)
    waiting = _mine(client, (table_id, ada))[0]
    assert waiting["status"] == "open" and waiting["your_move"] is False
    assert waiting["seat"] == 0 and waiting["creator"] is True and waiting["round"] is None
    client.post(f"/api/tables/{table_id}/start", headers=_auth(ada))
    both = _mine(client, (table_id, ada), (table_id, bea))
    assert [e["seat"] for e in both] == [0, 1]
    assert all(e["your_move"] and e["to_act"] == [0, 1] for e in both)  # sealed planning
    assert all(e["round"] == 1 and e["clock"] == "days" for e in both)
    deadline = both[0]["deadline"]
    assert deadline is not None and 43000 < deadline - time.time() <= 43200
    summary = client.get(f"/api/tables/{table_id}").json()
    assert deadline == summary["clock"]["seats"][0]["deadline"]
    _plan(client, table_id, ada, 2)
    after = _mine(client, (table_id, ada), (table_id, bea))
    assert after[0]["your_move"] is False and after[0]["deadline"] is None
    assert after[1]["your_move"] is True and after[1]["to_act"] == [1]
    assert after[1]["deadline"] == summary["clock"]["seats"][1]["deadline"]


def test_your_tables_hold_nothing_another_seat_may_not_know(client: TestClient) -> None:
    table_id, ada, bea = _two_people(client)
    client.post(f"/api/tables/{table_id}/start", headers=_auth(ada))
    coins = _plan(client, table_id, ada, 3)["coins"]
    reply = client.post("/api/tables/mine", json={"seats": [{"table_id": table_id, "token": bea}]})
    text = reply.text
    invite = client.get(f"/api/tables/{table_id}/me", headers=_auth(ada)).json()["invite"]
    for secret in (ada, bea, invite, '"value"', '"coins"', "my_plan", "seed"):
        assert secret not in text
    entry = reply.json()["tables"][0]
    assert set(_given(entry)) == {
        "table_id", "game", "title", "status", "seat", "plays", "creator", "seats",
        "round", "to_act", "your_move", "clock", "chat",
    }  # fmt: skip
    assert entry["seats"] == [
        {"seat": 0, "name": "Ada", "bot": None, "stand_in": False},
        {"seat": 1, "name": "Bea", "bot": None, "stand_in": False},
    ]
    assert coins >= 1  # Ada's own document has her coins; Bea's answer has nobody's


def test_a_link_that_holds_no_seat_or_no_table_says_so_and_nothing_more(
    client: TestClient,
) -> None:
    table_id, ada, _bea = _two_people(client)
    other_id, other, _ = _two_people(client)
    asked = [
        (table_id, "not-a-token"),
        (table_id, other),  # another table's token
        ("NoSuchTbl", ada),
        ("../x y", ada),  # cannot be a table id
        (other_id, other),
    ]
    answers = _mine(client, *asked)
    assert [_given(a) for a in answers[:4]] == [
        {"table_id": table_id, "error": "bad_token"},
        {"table_id": table_id, "error": "bad_token"},
        {"table_id": "NoSuchTbl", "error": "unknown_table"},
        {"table_id": "../x y", "error": "unknown_table"},
    ]
    assert answers[4]["seat"] == 0 and answers[4]["error"] is None


def test_your_tables_refuse_more_than_50_links_and_bad_bodies(client: TestClient) -> None:
    many = {"seats": [{"table_id": "t", "token": "x"}] * 51}
    reply = client.post("/api/tables/mine", json=many)
    assert reply.status_code == 422 and reply.json()["code"] == "bad_request"
    junk = client.post(
        "/api/tables/mine", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert junk.status_code == 400 and junk.json()["code"] == "bad_json"
    huge = {"seats": [{"table_id": "t" * 65, "token": "x"}]}
    assert client.post("/api/tables/mine", json=huge).status_code == 422


def test_a_finished_table_shows_its_result_and_a_stand_in_is_not_your_move(
    client: TestClient,
) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    ada, bea = str(tokens[0]), str(tokens[1])
    handed = client.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"kind": "random"}, headers=_auth(bea)
    )
    assert handed.status_code == 200
    stand_in = _mine(client, (table_id, bea))[0]
    assert stand_in["plays"] is False and stand_in["your_move"] is False
    assert stand_in["seats"][1]["stand_in"] is True
    _finish(client, table_id, [ada, None])
    done = _mine(client, (table_id, ada))[0]
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert done["status"] == "finished" and done["to_act"] == [] and not done["your_move"]
    assert done["result"] == {
        "scores": record["result"]["scores"],
        "winners": record["result"]["winners"],
    }


# -------------------------------------------------------------------- stale tables


def test_a_table_untouched_for_the_stale_time_leaves_the_public_list(client: TestClient) -> None:
    fresh, _, _ = _two_people(client, public=True)
    old, _ada, _ = _two_people(client, public=True)
    playing, tokens = set_up_table(client, "toy", 2)
    _run(client, lambda s: s.execute(sa.update(TableRow).values(public=True)))
    listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
    assert listed == {fresh, old, playing}
    _age(client, old, 14.1)
    _age(client, playing, 15)
    _age(client, fresh, 13.9)
    listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
    assert listed == {fresh}
    # Untouched, not gone: its page and its players' links still work, and a change brings
    # it back.
    assert client.get(f"/api/tables/{old}").status_code == 200
    _plan(client, playing, str(tokens[0]), 1)
    listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
    assert listed == {fresh, playing}


def test_the_stale_time_is_a_setting(settings: Settings) -> None:
    with running_app(settings.model_copy(update={"stale_after": 0.5})) as client:
        first, _, _ = _two_people(client, public=True)
        second, _, _ = _two_people(client, public=True)
        _age(client, first, 0.6)
        _age(client, second, 0.4)
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [second]


# -------------------------------------------------------------------- guildhall cleanup


def _cleanup(monkeypatch: pytest.MonkeyPatch, settings: Settings, capsys: Any, *args: str) -> str:
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("SECRET_KEY", settings.secret_key)
    assert main(["cleanup", *args]) == 0
    return str(capsys.readouterr().out)


def test_cleanup_counts_by_default_and_deletes_only_with_yes(
    client: TestClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: Any,
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the working tree
    old_open, _, _ = _two_people(client)
    old_playing, tokens = set_up_table(client, "toy", 2)
    _plan(client, old_playing, str(tokens[0]), 1)
    finished, done_tokens = set_up_table(client, "toy", 2)
    _finish(client, finished, done_tokens)
    fresh, _, _ = _two_people(client)
    for table_id in (old_open, old_playing, finished):
        _age(client, table_id, 20)

    dry = _cleanup(monkeypatch, settings, capsys)
    assert dry.splitlines() == [
        "would delete 2 tables untouched for 14 days (1 open, 1 playing)",
        "finished games are kept (--finished deletes old ones too)",
        "nothing was deleted: run again with --yes to delete them",
    ]
    assert client.get(f"/api/tables/{old_open}").status_code == 200
    assert "would delete 0 tables" in _cleanup(monkeypatch, settings, capsys, "--older-than", "21")

    done = _cleanup(monkeypatch, settings, capsys, "--yes")
    assert done.splitlines()[0] == "deleted 2 tables untouched for 14 days (1 open, 1 playing)"
    for table_id in (old_open, old_playing):
        gone = client.get(f"/api/tables/{table_id}")
        assert gone.status_code == 404 and gone.json()["code"] == "unknown_table"
        assert _rows(client, SeatRow, table_id) == _rows(client, CommandRow, table_id) == 0
    assert client.get(f"/api/tables/{finished}/record").status_code == 200
    assert client.get(f"/api/tables/{fresh}").status_code == 200
    gone_link = _mine(client, (old_open, "x"))[0]
    assert _given(gone_link) == {"table_id": old_open, "error": "unknown_table"}

    everything = _cleanup(monkeypatch, settings, capsys, "--finished", "--yes")
    assert everything.splitlines() == [
        "deleted 1 tables untouched for 14 days (0 open, 0 playing, 1 finished)"
    ]
    assert client.get(f"/api/tables/{finished}/record").status_code == 404
    assert _rows(client, CommandRow, finished) == 0
    assert client.get(f"/api/tables/{fresh}").status_code == 200


def test_cleanup_refuses_a_bad_age(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    for bad in ("0", "-3", "soon"):
        with pytest.raises(SystemExit) as exited:
            main(["cleanup", "--older-than", bad])
        assert exited.value.code == 2
        assert "--older-than" in capsys.readouterr().err
