"""Push subscription routes over HTTP against the real app (SQLite and Postgres): the seat's
own token adds, lists and removes its devices; an outsider or another seat's token cannot;
the endpoint and keys are checked; a subscription never shows in any document."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from server.notify.push import PushNotices
from server.settings import Settings
from tests.support.play import play_round_robin, running_app, set_up_table
from tests.support.push_service import Device, b64url
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

ORIGIN = "https://push.example.net"


@pytest.fixture
def settings(database_url: str) -> Settings:
    # Endpoints are never contacted here: a public name that need not resolve is refused
    # unless private addresses are allowed, which skips the lookup.
    return Settings(
        database_url=database_url,
        public_url="http://testserver",
        secret_key="test-secret",
        bot_delay=0.0,
        rate_limit=1000.0,
        webhook_allow_private=True,
        push_hosts="push.example.net",
    )


@pytest.fixture
def table(client: TestClient) -> tuple[str, list[str]]:
    table_id, tokens = set_up_table(client, "toy", 3)
    return table_id, [t for t in tokens if t is not None]


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def route(table_id: str, seat: int) -> str:
    return f"/api/tables/{table_id}/seats/{seat}/push"


def device(path: str = "d1") -> Device:
    return Device(endpoint=f"{ORIGIN}/wpush/v2/{path}")


def subscribe(client: TestClient, table_id: str, seat: int, token: str | None, body: Any) -> Any:
    return client.post(route(table_id, seat), json=body, headers=auth(token))


def devices(client: TestClient, table_id: str, seat: int, token: str) -> list[dict[str, Any]]:
    answer = client.get(route(table_id, seat), headers=auth(token))
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["devices"]
    return found


def test_a_seat_adds_lists_and_removes_its_devices(
    client: TestClient, table: tuple[str, list[str]]
) -> None:
    table_id, tokens = table
    phone, laptop = device("phone"), device("laptop")
    added = subscribe(client, table_id, 1, tokens[1], {**phone.subscription(), "lang": "hu"})
    assert added.status_code == 201, added.text
    subscribe(client, table_id, 1, tokens[1], laptop.subscription())
    listed = client.get(route(table_id, 1), headers=auth(tokens[1])).json()
    assert listed["public_key"] == client.get("/api/push/key").json()["public_key"]
    assert [(d["device"], d["service"], d["lang"]) for d in listed["devices"]] == [
        (hashlib.sha256(phone.endpoint.encode()).hexdigest()[:16], "push.example.net", "hu"),
        (hashlib.sha256(laptop.endpoint.encode()).hexdigest()[:16], "push.example.net", "en"),
    ]
    # Neither answer ever carries an endpoint or a key.
    for text in (added.text, json.dumps(listed)):
        for secret in (phone.endpoint, phone.p256dh, phone.subscription()["keys"]["auth"]):
            assert secret not in text
    gone = client.delete(f"{route(table_id, 1)}/{added.json()['id']}", headers=auth(tokens[1]))
    assert gone.status_code == 204
    assert [d["device"] for d in devices(client, table_id, 1, tokens[1])] == [
        hashlib.sha256(laptop.endpoint.encode()).hexdigest()[:16]
    ]


def test_the_same_device_again_is_one_row_with_new_keys(
    client: TestClient, table: tuple[str, list[str]]
) -> None:
    table_id, tokens = table
    first = device()
    again = Device(endpoint=first.endpoint)  # the browser made new keys for the same endpoint
    one = subscribe(client, table_id, 0, tokens[0], first.subscription()).json()
    two = subscribe(client, table_id, 0, tokens[0], {**again.subscription(), "lang": "de"})
    assert two.status_code == 201 and two.json()["id"] == one["id"]
    assert [d["lang"] for d in devices(client, table_id, 0, tokens[0])] == ["de"]
    stored = _rows(client)
    assert [(r["p256dh"], r["lang"]) for r in stored] == [(again.p256dh, "de")]


def _rows(client: TestClient) -> list[dict[str, Any]]:
    import sqlalchemy as sa

    from server.store.models import PushSubscriptionRow

    async def read() -> list[dict[str, Any]]:
        sessions = client.app.state.push.sessions  # type: ignore[attr-defined]
        async with sessions() as session:
            rows = (await session.execute(sa.select(PushSubscriptionRow))).scalars()
            return [{"seat": r.seat, "p256dh": r.p256dh, "lang": r.lang} for r in rows]

    assert client.portal is not None
    return client.portal.call(read)


@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
def test_an_outsider_or_another_seat_cannot_touch_a_seats_devices(
    client: TestClient, table: tuple[str, list[str]], method: str
) -> None:
    table_id, tokens = table
    mine = subscribe(client, table_id, 1, tokens[1], device().subscription()).json()
    path = route(table_id, 1) + (f"/{mine['id']}" if method == "DELETE" else "")
    body = device("other").subscription() if method == "POST" else None
    for token, status, code in [
        (None, 401, "no_token"),
        ("not-a-token", 403, "bad_token"),
        (tokens[0], 403, "not_your_seat"),  # the creator, too
        (tokens[2], 403, "not_your_seat"),
    ]:
        answer = client.request(method, path, json=body, headers=auth(token))
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    unknown = client.request(method, path.replace(table_id, "nosuchtable"), json=body,
                             headers=auth(tokens[1]))  # fmt: skip
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_table")
    assert [d["id"] for d in devices(client, table_id, 1, tokens[1])] == [mine["id"]]


def test_a_rogue_player_cannot_remove_another_seats_device_by_its_id(
    client: TestClient, table: tuple[str, list[str]]
) -> None:
    table_id, tokens = table
    theirs = subscribe(client, table_id, 1, tokens[1], device().subscription()).json()
    answer = client.delete(f"{route(table_id, 2)}/{theirs['id']}", headers=auth(tokens[2]))
    assert (answer.status_code, answer.json()["code"]) == (404, "unknown_subscription")
    assert [d["id"] for d in devices(client, table_id, 1, tokens[1])] == [theirs["id"]]


def _with(sub: dict[str, Any], **changes: Any) -> dict[str, Any]:
    keys = {**sub["keys"], **changes.pop("keys", {})}
    return {**sub, **changes, "keys": keys}


BAD = "bad_subscription"


def _bad_subscriptions() -> list[tuple[str, Any, int, str]]:
    sub = device().subscription()
    off_curve = b64url(b"\x04" + b"\x01" * 64)
    short = b64url(b"\x04" + b"\x01" * 10)
    return [
        ("http endpoint", _with(sub, endpoint="http://push.example.net/x"), 400, BAD),
        ("not a URL", _with(sub, endpoint="push.example.net/x"), 400, BAD),
        ("user and password", _with(sub, endpoint="https://u:p@push.example.net/x"), 400, BAD),
        ("a space", _with(sub, endpoint="https://push.example.net/a b"), 400, BAD),
        ("too long", _with(sub, endpoint=f"{ORIGIN}/{'x' * 2048}"), 422, "bad_request"),
        ("short key", _with(sub, keys={"p256dh": short}), 400, BAD),
        ("key off the curve", _with(sub, keys={"p256dh": off_curve}), 400, BAD),
        ("auth of 8 bytes", _with(sub, keys={"auth": b64url(b"12345678")}), 400, BAD),
        ("not base64", _with(sub, keys={"auth": "!!!!"}), 400, BAD),
        ("no keys", {"endpoint": sub["endpoint"]}, 422, "bad_request"),
        ("unknown field", {**sub, "extra": 1}, 422, "bad_request"),
        ("not JSON", "{", 400, "bad_json"),
    ]


def test_a_bad_subscription_is_refused_and_nothing_stored(
    client: TestClient, table: tuple[str, list[str]]
) -> None:
    table_id, tokens = table
    for why, body, status, code in _bad_subscriptions():
        if isinstance(body, str):
            headers = {**auth(tokens[1]), "Content-Type": "application/json"}
            answer = client.post(route(table_id, 1), content=body, headers=headers)
        else:
            answer = subscribe(client, table_id, 1, tokens[1], body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (why, answer.text)
    assert devices(client, table_id, 1, tokens[1]) == []


def test_a_seat_has_at_most_three_devices(client: TestClient, table: tuple[str, list[str]]) -> None:
    table_id, tokens = table
    for n in range(3):
        answer = subscribe(client, table_id, 1, tokens[1], device(f"d{n}").subscription())
        assert answer.status_code == 201, answer.text
    answer = subscribe(client, table_id, 1, tokens[1], device("d3").subscription())
    assert (answer.status_code, answer.json()["code"]) == (409, "too_many_devices")
    # One of the three again is still welcome (new keys), and another seat has its own three.
    assert subscribe(client, table_id, 1, tokens[1], device("d1").subscription()).status_code == 201
    assert subscribe(client, table_id, 2, tokens[2], device("d3").subscription()).status_code == 201
    assert len(devices(client, table_id, 1, tokens[1])) == 3


KNOWN = (
    "https://fcm.googleapis.com/fcm/send/dXk1",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
    "https://push.services.mozilla.com/wpush/v2/gAAA",
    "https://web.push.apple.com/QGuQyavX",
    "https://api.push.apple.com/3/device/x",
    "https://wns2-db5p.notify.windows.com/w/?token=BQYAAA",
    "https://FCM.googleapis.com./fcm/send/dXk2",
)
UNKNOWN = (
    "https://push.example.org/x",  # a host nobody allowed
    "https://fcm.googleapis.com.evil.example/x",
    "https://evilfcm.googleapis.com/x",
    "https://push.apple.com/x",  # *.push.apple.com is its subdomains only
    "https://notify.windows.com.example/x",
    "https://fcm.googleapis.com:8443/x",  # a known service, off https's port
    "https://93.184.215.14/x",
    "https://[2606:4700:4700::1111]/x",
)


def test_only_the_browsers_push_services_are_allowed_by_default(database_url: str) -> None:
    base = Settings(database_url=database_url, secret_key="k", bot_delay=0.0,
                    webhook_allow_private=True)  # fmt: skip
    with running_app(base) as client:
        table_id, tokens = set_up_table(client, "toy", 2)
        for n, endpoint in enumerate(KNOWN + UNKNOWN):
            answer = subscribe(client, table_id, 1, tokens[1], _with(device(str(n)).subscription(),
                                                                    endpoint=endpoint))  # fmt: skip
            expected = (201, None) if endpoint in KNOWN else (400, "unknown_push_service")
            assert (answer.status_code, answer.json().get("code")) == expected, endpoint
            if answer.status_code == 201:
                gone = client.delete(f"{route(table_id, 1)}/{answer.json()['id']}",
                                     headers=auth(tokens[1]))  # fmt: skip
                assert gone.status_code == 204
        assert devices(client, table_id, 1, str(tokens[1])) == []


@pytest.mark.parametrize(
    ("hosts", "allowed"),
    [
        ("push.example.org", ["https://push.example.org/x", "https://push.example.org:8443/x"]),
        ("*.example.org", ["https://a.example.org/x", "https://b.c.example.org/x"]),
        ("*", ["https://anything.example/x", "https://93.184.215.14/x"]),
    ],
)
def test_a_self_hoster_allows_other_push_hosts(
    database_url: str, hosts: str, allowed: list[str]
) -> None:
    settings = Settings(database_url=database_url, secret_key="k", bot_delay=0.0,
                        webhook_allow_private=True, push_hosts=hosts)  # fmt: skip
    with running_app(settings) as client:
        table_id, tokens = set_up_table(client, "toy", 2)
        for n, endpoint in enumerate([*allowed, KNOWN[0]]):
            body = _with(device(str(n)).subscription(), endpoint=endpoint)
            answer = subscribe(client, table_id, 1, tokens[1], body)
            assert answer.status_code == 201, (endpoint, answer.text)
        if hosts != "*":
            body = _with(device("x").subscription(), endpoint="https://example.org/x")
            refused = subscribe(client, table_id, 1, tokens[1], body)
            assert refused.json()["code"] == "unknown_push_service"


PRIVATE = (
    "https://127.0.0.1/x",
    "https://localhost:8443/x",
    "https://10.1.2.3/x",
    "https://192.168.1.1/x",
    "https://169.254.169.254/latest",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://2130706433/x",
    "https://0.0.0.0/x",
)


def test_a_private_endpoint_is_refused_unless_the_self_hoster_allows_it(database_url: str) -> None:
    strict = Settings(database_url=database_url, secret_key="k", bot_delay=0.0, push_hosts="*")
    for settings, status in ((strict, 400), (strict.with_(webhook_allow_private=True), 201)):
        with running_app(settings) as client:
            table_id, tokens = set_up_table(client, "toy", 2)
            for n, endpoint in enumerate(PRIVATE):
                body = _with(device(str(n)).subscription(), endpoint=endpoint)
                answer = subscribe(client, table_id, 1, tokens[1], body)
                assert answer.status_code == status, (endpoint, answer.text)
                if status == 400:
                    assert answer.json()["code"] == "private_endpoint"
                    assert devices(client, table_id, 1, str(tokens[1])) == []
                else:  # stored; removed again to stay within the seat's devices
                    assert len(devices(client, table_id, 1, str(tokens[1]))) == 1
                    gone = client.delete(f"{route(table_id, 1)}/{answer.json()['id']}",
                                         headers=auth(tokens[1]))  # fmt: skip
                    assert gone.status_code == 204


def test_no_document_record_or_replay_carries_a_subscription(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    phone = device()
    sub = phone.subscription()
    assert subscribe(client, table_id, 0, tokens[0], sub).status_code == 201
    secrets = (phone.endpoint, "wpush", sub["keys"]["p256dh"], sub["keys"]["auth"])
    players = {
        seat: WsClient(client, table_id, token).connect() for seat, token in enumerate(tokens)
    }
    watcher = WsClient(client, table_id).connect()
    play_round_robin(client, table_id, players, [watcher], random.Random(3))
    seen = [json.dumps(ws.messages) for ws in [*players.values(), watcher]]
    for path in ("", "/me", "/record", "/replay/0", "/replay/3"):
        seen.append(client.get(f"/api/tables/{table_id}{path}", headers=auth(tokens[0])).text)
    seen.append(client.get("/api/tables").text)
    seen.append(client.get("/metrics").text)
    for text in seen:
        assert not any(secret in text for secret in secrets)
    # The game is over: no notice will follow, and the table's devices are forgotten (by
    # the process that stored the last move, once its deletion has run).
    assert client.portal is not None
    notices: PushNotices = client.app.state.push  # type: ignore[attr-defined]
    client.portal.call(notices.settle)
    late = subscribe(client, table_id, 1, tokens[1], device("late").subscription())
    assert (late.status_code, late.json()["code"]) == (409, "finished")
    assert devices(client, table_id, 0, str(tokens[0])) == []
