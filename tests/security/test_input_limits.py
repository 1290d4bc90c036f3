"""Abuse limits, in one app on SQLite and Postgres: table creation per client address, tables
nobody else joined (per address and in all), tables only bots play, the bots' thinking
budget, and bad tokens that cost no reloads. The same limits against real servers, with
two processes on one database: ``test_input_caps.py``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from server.api.errors import status_of
from server.settings import Settings
from server.tables import ServiceError, TableService, limits
from server.tables.bots import ThinkingBudget
from tests.support.play import running_app
from tests.support.testclient import TestClient

TOY = {"game": "toy", "seats": 2, "name": "Ada"}


@pytest.fixture
def limited(settings: Settings) -> Iterator[TestClient]:
    # Slow bots: an all-bot table must not finish while a test looks at it.
    capped = settings.with_(
        create_rate=3, unjoined_per_address=2, unjoined_tables=4, bot_tables=1, bot_delay=30.0
    )
    with running_app(capped) as client:
        yield client


def _service(client: TestClient) -> TableService:
    service: TableService = client.app.state.service  # type: ignore[attr-defined]
    return service


def _call(client: TestClient, fn: Any, *args: Any, **kwargs: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(lambda: fn(*args, **kwargs))


def _create(client: TestClient, address: str) -> str:
    data, _ = _call(client, _service(client).create_table, "toy", 2, {}, [], "Ada", address=address)
    return str(data.id)


def _refusal(client: TestClient, address: str) -> tuple[str, int]:
    with pytest.raises(ServiceError) as refused:
        _create(client, address)
    return refused.value.code, status_of(refused.value.code)


def _join(client: TestClient, table_id: str) -> None:
    service = _service(client)
    _call(client, service.join, table_id, "Bo", None, service.invite_code(table_id))


async def _check_at(service: TableService, address: str, now: datetime) -> None:
    key = limits.address_key(service.settings.secret_key, address)
    async with service.sessions.read() as session:
        await limits.check_create(session, service.settings, key, now=now)


def test_one_address_creates_at_most_the_rate_a_minute(limited: TestClient) -> None:
    for _ in range(3):
        made = limited.post("/api/tables", json=TOY)
        assert made.status_code == 201
        _join(limited, made.json()["table_id"])  # joined: only the rate holds them back
    refused = limited.post("/api/tables", json=TOY)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_tables"
    assert "3 new tables a minute" in refused.json()["message"]
    assert "try again in" in refused.json()["message"]


def test_the_window_slides_and_addresses_are_counted_apart(limited: TestClient) -> None:
    service = _service(limited)
    for _ in range(3):
        _join(limited, _create(limited, "198.51.100.7"))
    assert _refusal(limited, "198.51.100.7") == ("too_many_tables", 429)
    _join(limited, _create(limited, "198.51.100.8"))  # another address is not held back
    later = datetime.now(UTC) + timedelta(seconds=limits.CREATE_WINDOW + 2)
    _call(limited, _check_at, service, "198.51.100.7", later)  # the three have left the window
    # IPv6 addresses count by their /64: one household, or one attacker, holds it whole.
    for _ in range(3):
        _join(limited, _create(limited, f"2001:db8:1:2::{_ + 1}"))
    assert _refusal(limited, "2001:db8:1:2:ffff::9") == ("too_many_tables", 429)
    _create(limited, "2001:db8:1:3::1")


def test_tables_nobody_joined_are_capped_per_address_and_in_all(limited: TestClient) -> None:
    service = _service(limited)
    first = _create(limited, "203.0.113.1")
    _create(limited, "203.0.113.1")
    assert _refusal(limited, "203.0.113.1") == ("too_many_unjoined_tables", 429)
    _join(limited, first)  # a friend came: that table no longer counts
    _create(limited, "203.0.113.1")
    # A table left alone for a day stops counting against its address.
    idle = datetime.now(UTC) + limits.UNJOINED_IDLE + timedelta(minutes=1)
    _call(limited, _check_at, service, "203.0.113.1", idle)
    # In all: 2 unjoined from .1, 2 more from .2 make the server's four.
    _create(limited, "203.0.113.2")
    _create(limited, "203.0.113.2")
    assert _refusal(limited, "203.0.113.2") == ("too_many_unjoined_tables", 429)
    # An address with none still gets its first: strangers filling the server do not
    # refuse a player their own table. Its second meets the total.
    _create(limited, "203.0.113.3")
    assert _refusal(limited, "203.0.113.3") == ("server_full", 503)
    assert limited.post("/api/tables", json=TOY).status_code == 201
    refused = limited.post("/api/tables", json=TOY)
    assert (refused.status_code, refused.json()["code"]) == (503, "server_full")


def test_at_most_the_cap_of_tables_play_with_bots_alone(limited: TestClient) -> None:
    def all_bots() -> tuple[str, dict[str, str]]:
        made = limited.post("/api/tables", json={**TOY, "bots": [None, "random"]}).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        assert (
            limited.post(
                f"/api/tables/{made['table_id']}/seats/0/bot", json={"kind": "random"}, headers=auth
            ).status_code
            == 200
        )
        return made["table_id"], auth

    first, first_auth = all_bots()
    assert limited.post(f"/api/tables/{first}/start", headers=first_auth).status_code == 200
    second, second_auth = all_bots()
    refused = limited.post(f"/api/tables/{second}/start", headers=second_auth)
    assert (refused.status_code, refused.json()["code"]) == (503, "too_many_bot_tables")
    assert limited.get(f"/api/tables/{second}").json()["status"] == "open"  # unchanged


def _all_bot_table(client: TestClient, address: str) -> tuple[str, dict[str, str]]:
    """A table made from ``address`` with bots on every seat but the creator's, who has just
    let a bot play for her in the waiting room."""
    service = _service(client)
    data, token = _call(
        client, service.create_table, "toy", 2, {}, [None, "random"], "Ada", address=address
    )
    auth = {"Authorization": f"Bearer {token}"}
    handed = client.post(
        f"/api/tables/{data.id}/seats/0/bot", json={"kind": "random"}, headers=auth
    )
    assert handed.status_code == 200, handed.json()
    return data.id, auth


def test_one_address_holds_only_its_share_of_the_bot_tables(settings: Settings) -> None:
    shared = settings.with_(bot_tables=3, bot_tables_per_address=2, bot_delay=30.0)
    with running_app(shared) as client:
        for _ in range(2):
            table, auth = _all_bot_table(client, "198.51.100.50")
            assert client.post(f"/api/tables/{table}/start", headers=auth).status_code == 200
        table, auth = _all_bot_table(client, "198.51.100.50")
        refused = client.post(f"/api/tables/{table}/start", headers=auth)
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_own_bot_tables")
        assert "at most 2" in refused.json()["message"]
        assert client.get(f"/api/tables/{table}").json()["status"] == "open"  # unchanged
        # Another address takes the last place; one more of its own meets the total.
        table, auth = _all_bot_table(client, "198.51.100.51")
        assert client.post(f"/api/tables/{table}/start", headers=auth).status_code == 200
        table, auth = _all_bot_table(client, "198.51.100.51")
        refused = client.post(f"/api/tables/{table}/start", headers=auth)
        assert (refused.status_code, refused.json()["code"]) == (503, "too_many_bot_tables")


def test_a_solo_player_may_let_a_bot_play_for_them_when_strangers_filled_the_server(
    settings: Settings,
) -> None:
    shared = settings.with_(bot_tables=2, bot_tables_per_address=1, bot_delay=30.0)
    with running_app(shared) as client:
        for address in ("192.0.2.70", "192.0.2.71"):  # two strangers fill the server
            table, auth = _all_bot_table(client, address)
            assert client.post(f"/api/tables/{table}/start", headers=auth).status_code == 200
        service = _service(client)
        data, token = _call(
            client, service.create_table, "toy", 2, {}, [None, "random"], "Solo",
            address="203.0.113.77",
        )  # fmt: skip
        auth = {"Authorization": f"Bearer {token}"}
        assert client.post(f"/api/tables/{data.id}/start", headers=auth).status_code == 200
        handed = client.post(
            f"/api/tables/{data.id}/seats/0/bot", json={"kind": "random"}, headers=auth
        )
        assert handed.status_code == 200, handed.json()
        assert client.get(f"/api/tables/{data.id}").json()["seats"][0]["bot"] == "random"


def test_the_thinking_budget_fills_at_its_rate_and_charges_what_was_used() -> None:
    now = [0.0]
    budget = ThinkingBudget(0.5, burst=1.0, clock=lambda: now[0])
    assert budget.take(0.7) == pytest.approx(0.7)  # a full bucket grants a whole search
    assert budget.take(0.7) == pytest.approx(0.3)  # then what is left
    assert budget.take(0.7) == 0.0  # then nothing: the bot must not search
    now[0] = 1.0
    assert budget.take(0.7) == pytest.approx(0.5)  # one second brings half a second back
    budget.settle(0.5, 0.8)  # it overran by 0.3: a debt
    now[0] = 1.4
    assert budget.take(0.7) == 0.0  # 0.2 of the 0.3 came back: still in debt
    now[0] = 100.0
    assert budget.take(5.0) == pytest.approx(1.0)  # never more than the burst
    budget.settle(1.0, 0.1)  # finished early: the rest goes back
    assert budget.take(5.0) == pytest.approx(0.9)
    # However decisions interleave, what is granted over T seconds is at most burst + rate T.
    spent = sum([budget.take(0.7) for now[0] in [100.0 + step / 10 for step in range(200)]], 0.0)
    assert spent <= 1.0 + 0.5 * 19.9 + 1e-9


def test_one_address_spends_only_its_share_of_the_thinking_budget(
    limited: TestClient,
) -> None:
    now = [0.0]
    budget = ThinkingBudget(1.0, burst=2.0, clock=lambda: now[0], share=0.25)
    assert budget.take(0.7, "a") == pytest.approx(0.7)  # a full share: a whole search
    budget.settle(0.7, 0.7, "a")
    assert budget.take(0.7, "a") == 0.0  # a's share is spent, though the process has more
    assert budget.take(0.7, "b") == pytest.approx(0.7)  # which b's bots still get
    budget.settle(0.7, 0.7, "b")
    now[0] = 2.0
    assert budget.take(0.7, "a") == pytest.approx(0.5)  # a's share refills at 0.25 s a second
    assert budget.take(0.7, None) == pytest.approx(0.7)  # no address: the process budget alone
    # The bots of a table are charged to the address that created it.
    table_id = _create(limited, "192.0.2.80")
    data = _call(limited, _service(limited).get_stored, table_id)
    key = limits.address_key(_service(limited).settings.secret_key, "192.0.2.80")
    assert data.creator_key == key


def test_a_flood_of_bad_tokens_costs_one_query_each_and_no_table_load(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/tables", json=TOY).json()
    table_id = created["table_id"]
    service = _service(client)
    service.cache.tables.pop(table_id, None)  # not held: the first asker loads it, once
    loads: list[str] = []
    load = service.cache.load

    async def counting_load(session: Any, table_id: str, row: Any = None) -> Any:
        loads.append(table_id)
        return await load(session, table_id, row)

    monkeypatch.setattr(service.cache, "load", counting_load)
    selects: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        # This table's reads only: the app's own sweeps (clocks, fan-out) read on their own.
        if statement.lstrip().upper().startswith("SELECT") and table_id in str(parameters):
            selects.append(statement)

    engine = service.sessions.maker.kw["bind"].sync_engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        base = f"/api/tables/{table_id}"
        routes = [
            ("POST", f"{base}/start", None),
            ("POST", f"{base}/seats/1/bot", {"kind": "random"}),
            ("POST", f"{base}/seats/0/reclaim", None),
            ("GET", f"{base}/me", None),
        ]
        asked = 0
        for i in range(25):
            for method, path, body in routes:
                auth = {"Authorization": f"Bearer bad-{i}-{len(path)}"}
                res = client.request(method, path, json=body, headers=auth)
                assert (res.status_code, res.json()["code"]) == (403, "bad_token")
                asked += 1
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            for i in range(25):
                ws.send_json({"type": "hello", "token": f"bad-{i}"})
                assert ws.receive_json()["code"] == "bad_token"
                asked += 1
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)
    # The first request loaded the table; every one after it cost one version query.
    assert loads == [table_id]
    first_load = 3  # the table row, its seats, its commands
    assert len(selects) == asked + first_load, selects[:8]
    assert all("version" in q for q in selects[first_load + 1 :])
    # A token made by a join (the version moved) is still found.
    joined = client.post(f"{base}/join", json={"name": "Bo", "invite": created["invite"]}).json()
    service.cache.tables.pop(table_id, None)
    assert client.portal is not None
    access = client.portal.call(service.authenticate, table_id, joined["token"])
    assert access.seat == 1 and access.plays


def test_a_live_tables_record_and_replay_are_refused_for_one_version_query_each(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/tables", json=TOY).json()
    table_id = created["table_id"]
    service = _service(client)
    loads: list[str] = []
    load = service.cache.load

    async def counting_load(session: Any, table_id: str, row: Any = None) -> Any:
        loads.append(table_id)
        return await load(session, table_id, row)

    monkeypatch.setattr(service.cache, "load", counting_load)
    selects: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and table_id in str(parameters):
            selects.append(statement)

    engine = service.sessions.maker.kw["bind"].sync_engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        for n in range(20):
            for path in (f"/api/tables/{table_id}/record", f"/api/tables/{table_id}/replay/{n}"):
                res = client.get(path)
                assert (res.status_code, res.json()["code"]) == (409, "not_finished")
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)
    assert loads == [] and len(selects) == 40
    assert all("version" in q and "commands" not in q for q in selects)
