"""Every route of the app and every websocket message, tried with every kind of token, against
the seat model (``server.tables.seats.RIGHTS``, docs/seats.md): the routes come from the app's
own router, so a route added without a right fails here (and the app refuses to start).

The kinds of token, at a started three-seat table (seat 0 the creator, seat 1 the owner whose
seat the routes name, seat 2 another person): the owner playing, the owner while a bot stands
in, the creator playing and covered likewise, another seat's token, no token (a spectator),
a token of no seat (an outsider), and a token of another table (an old one). A refusal is
one of the seat model's codes and leaves the table at its version; what the model allows is
never refused for the token (the route may still say no for its own reasons: the game is not
over, the player is present …).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.api.rights import route_keys
from server.realtime.protocol import CLIENT_TYPES
from server.settings import Settings
from server.tables import TableService
from server.tables.seats import RIGHTS, Right
from tests.support.databases import migrated_database
from tests.support.play import running_app
from tests.support.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
KINDS = (
    "owner playing",
    "owner covered",
    "creator playing",
    "creator covered",
    "other seat",
    "spectator",
    "outsider",
    "old token",
)
AUTH_CODES = {"no_token", "bad_token", "not_your_seat", "not_creator", "seat_lost"}
ALLOWED = None
_EVERYONE = dict.fromkeys(KINDS, ALLOWED)
_STRANGERS = {"spectator": "no_token", "outsider": "bad_token", "old token": "bad_token"}

# The seat model as this test reads it: for each right, what each kind of token gets.
EXPECTED: dict[Right, dict[str, str | None]] = {
    Right.ANYONE: _EVERYONE,
    Right.WATCH: _EVERYONE,
    Right.OWNER: {**_EVERYONE, **_STRANGERS},
    Right.OWN_SEAT: {
        **_STRANGERS,
        "owner playing": ALLOWED,
        "owner covered": ALLOWED,
        "creator playing": "not_your_seat",
        "creator covered": "not_your_seat",
        "other seat": "not_your_seat",
    },
    Right.OWN_SEAT_PLAYER: {
        **_STRANGERS,
        "owner playing": ALLOWED,
        "owner covered": "seat_lost",
        "creator playing": "not_your_seat",
        "creator covered": "not_your_seat",
        "other seat": "not_your_seat",
    },
    Right.PLAYER: {
        **_STRANGERS,
        "owner playing": ALLOWED,
        "owner covered": "seat_lost",
        "creator playing": ALLOWED,
        "creator covered": "seat_lost",
        "other seat": ALLOWED,
    },
    Right.HOST: {
        **_STRANGERS,
        "owner playing": "not_creator",
        "owner covered": "not_creator",
        "creator playing": ALLOWED,
        "creator covered": ALLOWED,
        "other seat": "not_creator",
    },
    Right.CREATOR: {
        **_STRANGERS,
        "owner playing": "not_creator",
        "owner covered": "not_creator",
        "creator playing": ALLOWED,
        "creator covered": "seat_lost",
        "other seat": "not_creator",
    },
    Right.OWN_SEAT_OR_CREATOR: {
        **_STRANGERS,
        "owner playing": ALLOWED,
        "owner covered": ALLOWED,
        "creator playing": ALLOWED,
        "creator covered": "seat_lost",
        "other seat": "not_your_seat",
    },
}

# A body each route takes (the token is what is tried, not the body).
BODIES: dict[str, Any] = {
    "POST /api/tables": {"game": "toy", "seats": 2, "name": "Zed"},
    "POST /api/tables/mine": {"seats": []},
    "POST /api/tables/{table_id}/join": {"name": "Zed"},
    "POST /api/tables/{table_id}/seats/{seat}/bot": {"kind": "random"},
    "POST /api/tables/{table_id}/clock": {"mode": "untimed"},
    "POST /api/tables/{table_id}/seats/{seat}/time": {"seconds": 60},
    "POST /api/tables/{table_id}/pause": {},
    "POST /api/tables/{table_id}/pause/agree": {"proposal": 1},
    "POST /api/tables/{table_id}/pause/decline": {"proposal": 1},
    "POST /api/tables/{table_id}/seats/{seat}/away": {"until": None},
    "POST /api/tables/{table_id}/seats/{seat}/email": {"email": None},
    "POST /api/tables/{table_id}/webhook": {"url": None},
    # Keys that are no P-256 point: refused as 'bad_subscription' once the token may ask,
    # before any address is looked up.
    "POST /api/tables/{table_id}/seats/{seat}/push": {
        "endpoint": "https://push.example/device",
        "keys": {"p256dh": "x", "auth": "y"},
    },
}
PLACES = {"seat": "1", "step": "0", "subscription_id": "1", "path:path": "js/table.js"}
PLACES |= {"version": "1", "lang": "en", "scope": "table"}
PLACES |= {"token": "no-such-link", "game": "norenberc"}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with migrated_database("sqlite", tmp_path_factory.mktemp("rights")) as url:
        yield from _running(url)


def _running(url: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=url,
        secret_key="seat-rights",
        bot_delay=3600.0,  # the bots must not move while the routes are tried
        act_rate=1000,
        table_act_rate=1000,
        create_rate=1000,
        unjoined_per_address=1000,
    )
    with running_app(settings) as client:
        yield client


def _service(client: TestClient) -> TableService:
    service: TableService = client.app.state.service  # type: ignore[attr-defined]
    return service


def _call(client: TestClient, fn: Any, *args: Any, **kwargs: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(lambda: fn(*args, **kwargs))


def table_for(client: TestClient, kind: str) -> tuple[str, str | None]:
    """A started table of Anna (seat 0), Bela (seat 1) and Cara (seat 2) on a days clock, as
    ``kind`` needs it; returns its id and the token to try."""
    service = _service(client)
    clock = {"mode": "days", "per_decision": 86400}
    data, anna = _call(client, service.create_table, "toy", 3, {}, [], "Anna", clock=clock)
    invite = service.invite_code(data.id)
    _, bela = _call(client, service.join, data.id, "Bela", None, invite)
    _, cara = _call(client, service.join, data.id, "Cara", None, invite)
    _call(client, service.start, data.id, anna)
    tokens = {"owner": bela, "creator": anna}
    who, _, state = kind.partition(" ")
    if state == "covered":
        _call(
            client, service.assign_bot, data.id, tokens[who], 1 if who == "owner" else 0, "random"
        )
    if kind == "old token":  # a seat token, of another table
        old, _ = _call(client, service.create_table, "toy", 2, {}, [], "Olga")
        _, otto = _call(client, service.join, old.id, "Otto", None, service.invite_code(old.id))
        return data.id, otto
    token = {"other seat": cara, "spectator": None, "outsider": "no-seat-of-this-table"}.get(
        kind, tokens.get(who)
    )
    return data.id, token


def concrete(key: str, table_id: str) -> tuple[str, str]:
    method, _, path = key.partition(" ")
    path = path.replace("{table_id}", table_id)
    return method, re.sub(r"\{([^}]+)\}", lambda m: PLACES[m.group(1)], path)


def _version(client: TestClient, table_id: str) -> int:
    return int(client.get(f"/api/tables/{table_id}").json()["version"])


HTTP_KEYS = sorted(k for k in RIGHTS if not k.startswith("WS "))


def test_every_route_of_the_app_has_a_right_and_every_right_a_route(app: TestClient) -> None:
    routes = set(route_keys(app.app))  # type: ignore[arg-type]
    assert routes - set(RIGHTS) == set()
    messages = {f"WS {t}" for t in CLIENT_TYPES}
    assert set(RIGHTS) - routes == messages, "a right for a route or message that is not there"


@pytest.mark.parametrize("key", HTTP_KEYS)
def test_each_route_takes_exactly_the_tokens_the_seat_model_gives_it(
    app: TestClient, key: str
) -> None:
    outcomes = {}
    for kind in KINDS:
        table_id, token = table_for(app, kind)
        before = _version(app, table_id)
        method, path = concrete(key, table_id)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = app.request(method, path, json=BODIES.get(key), headers=headers)
        code = None
        if answer.headers.get("content-type", "").startswith("application/json"):
            body = answer.json()
            code = body.get("code") if isinstance(body, dict) else None
        refused = code if code in AUTH_CODES else None
        outcomes[kind] = refused
        if refused is not None:
            assert answer.status_code in (401, 403), (key, kind, answer.status_code)
            assert _version(app, table_id) == before, (key, kind)
    assert outcomes == EXPECTED[RIGHTS[key]], key


def _until(ws: Any, types: set[str]) -> dict[str, Any]:
    while True:
        message = json.loads(ws.receive_text())
        if message["type"] in types:
            return dict(message)


@pytest.mark.parametrize("kind", KINDS)
def test_each_websocket_message_takes_exactly_the_tokens_the_seat_model_gives_it(
    app: TestClient, kind: str
) -> None:
    table_id, token = table_for(app, kind)
    with app.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "ping"})
        assert _until(ws, {"pong", "error"})["type"] == "pong"  # ANYONE, before hello too
        ws.send_json({"type": "hello", "token": token})
        hello = _until(ws, {"snapshot", "error"})
        # WATCH: a token reads its seat only while it plays it; anyone may watch.
        expected_hello = EXPECTED[Right.PLAYER][kind] if token else ALLOWED
        assert (hello.get("code") if hello["type"] == "error" else None) == expected_hello
        ws.send_json({"type": "command", "id": "c1", "cmd": {"type": "wait"}})
        answer = _until(ws, {"error", "patch", "snapshot", "ack"})
        refused = answer.get("code") in {"spectator", "hello_required", "seat_lost", "bad_token"}
        assert (None if not refused else "refused") == (
            None if EXPECTED[RIGHTS["WS command"]][kind] is ALLOWED else "refused"
        ), (kind, answer)
        if hello["type"] == "error":
            ws.send_json({"type": "hello"})  # watching is anyone's
            assert _until(ws, {"snapshot", "error"})["type"] == "snapshot"
        ws.send_json({"type": "snapshot_request"})
        assert _until(ws, {"snapshot", "error"})["type"] == "snapshot"


def _chat_hello(ws: Any, token: str | None) -> None:
    """Say hello asking for the chat. A covered owner's token is refused for reading its seat
    (``seat_lost``) and follows as a spectator who chats as the seat's owner; a token of no
    seat (``bad_token``) gets nothing, and that client watches without one."""
    ws.send_json({"type": "hello", "token": token, "chat": True})
    first = _until(ws, {"snapshot", "error"})
    if first["type"] == "error" and first["code"] == "bad_token":
        ws.send_json({"type": "hello", "chat": True})
    if first["type"] == "error":
        _until(ws, {"snapshot"})
    _until(ws, {"chat_history"})


@pytest.mark.parametrize("kind", KINDS)
def test_each_chat_message_takes_exactly_the_tokens_the_seat_model_gives_it(
    app: TestClient, kind: str
) -> None:
    """``chat`` and ``chat_history`` are anyone's (the room is the chat's own rule: a seat's
    owner, covered or not, writes in the players' room, anyone else in the spectators');
    hiding a message and opening or closing the spectators' room are the host's (seat 0's
    token, a bot standing in or not)."""
    table_id, token = table_for(app, kind)
    seated = kind.startswith(("owner", "creator", "other"))
    room = "players" if seated else "spectators"
    with app.websocket_connect(f"/ws/tables/{table_id}") as ws:
        _chat_hello(ws, token)
        post = {"type": "chat", "id": "m1", "room": room, "text": "hello", "name": "Zed"}
        ws.send_json(post)
        posted = _until(ws, {"chat_ack", "error"})
        assert posted["type"] == "chat_ack", (kind, posted)  # WS chat: ANYONE
        ws.send_json({"type": "chat_history", "before": posted["seq"]})
        assert _until(ws, {"chat_history", "error"})["type"] == "chat_history"
        host = EXPECTED[RIGHTS["WS chat_hide"]][kind] is ALLOWED
        assert EXPECTED[RIGHTS["WS chat_room"]][kind] is EXPECTED[RIGHTS["WS chat_hide"]][kind]
        for message in (
            {"type": "chat_room", "id": "r1", "spectators": True},
            {"type": "chat_hide", "id": "h1", "seq": posted["seq"]},
        ):
            ws.send_json(message)
            answer = _until(ws, {"chat_ack", "error"})
            if host:
                assert answer["type"] == "chat_ack", (kind, message, answer)
            else:
                assert (answer["type"], answer.get("code")) == ("error", "not_creator"), kind


def test_a_creator_a_bot_stands_in_for_sees_and_changes_no_webhook(app: TestClient) -> None:
    table_id, anna = table_for(app, "creator playing")
    auth = {"Authorization": f"Bearer {anna}"}
    hook = {"url": "https://hooks.example.org/guildhall"}
    guard = app.app.state.webhook_guard  # type: ignore[attr-defined]

    async def public(_host: str, _port: int) -> list[str]:
        return ["93.184.216.34"]  # a public address, without a lookup

    guard.resolve = public
    set_hook = app.post(f"/api/tables/{table_id}/webhook", json=hook, headers=auth)
    assert set_hook.status_code == 200, set_hook.json()
    covered = app.post(f"/api/tables/{table_id}/seats/0/bot", json={"kind": "random"}, headers=auth)
    assert covered.status_code == 200
    read = app.get(f"/api/tables/{table_id}/notifications", headers=auth).json()
    assert (read["webhook"], read["creator"]) == (None, False)
    refused = app.post(f"/api/tables/{table_id}/webhook", json={"url": None}, headers=auth)
    assert (refused.status_code, refused.json()["code"]) == (403, "seat_lost")
    back = app.post(f"/api/tables/{table_id}/seats/0/reclaim", headers=auth)
    assert back.status_code == 200
    read = app.get(f"/api/tables/{table_id}/notifications", headers=auth).json()
    assert read["webhook"] == hook["url"]  # kept for the creator, back at the table


def test_in_the_waiting_room_the_creator_seats_bots_even_while_a_bot_plays_for_her(
    app: TestClient,
) -> None:
    made = app.post("/api/tables", json={"game": "toy", "seats": 3, "name": "Anna"}).json()
    table_id, auth = made["table_id"], {"Authorization": f"Bearer {made['token']}"}
    for seat in (0, 1, 2):  # her own seat first: she will watch the bots play
        answer = app.post(
            f"/api/tables/{table_id}/seats/{seat}/bot", json={"kind": "random"}, headers=auth
        )
        assert answer.status_code == 200, answer.json()
    assert [s["bot"] for s in app.get(f"/api/tables/{table_id}").json()["seats"]] == ["random"] * 3


def test_docs_seats_lists_the_seat_model_as_the_code_has_it() -> None:
    text = (ROOT / "docs" / "seats.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([A-Z]+ [^`]+)` \| ([a-z, ]+) \|", text, re.MULTILINE))
    assert rows == {key: right.value for key, right in RIGHTS.items()}
