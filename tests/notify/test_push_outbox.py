"""Web Push through the whole path (SQLite and Postgres): a player subscribes a device with
their seat link, the seat becomes due with none of its sockets open, the outbox sweeps, and
the push service on 127.0.0.1 receives a push it can verify and decrypt; a seat with a socket
open gets none; a device gone at its push service (410) loses its row."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.notify.push import topic
from tests.support.push_service import Device, PushService
from tests.support.wsclient import WsClient

from .conftest import App, make_settings, running

DAY = 86400


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with PushService() as service:
        yield service


@pytest.fixture
def app(database_url: str, push_service: PushService) -> Iterator[App]:
    settings = make_settings(
        database_url,
        push_allow_http=True,
        push_hosts=PushService.HOSTS,
        webhook_allow_private=True,
    )
    with running(settings) as started:
        push_service.vapid_key = started.get("/api/push/key").json()["public_key"]
        yield started


def subscribe(app: App, table_id: str, seat: int, token: str, device: Device) -> int:
    route = f"/api/tables/{table_id}/seats/{seat}/push"
    answer = app.post(route, {**device.subscription(), "lang": "en"}, token)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def devices(app: App, table_id: str, seat: int, token: str) -> list[dict[str, Any]]:
    answer = app.get(f"/api/tables/{table_id}/seats/{seat}/push", token)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["devices"]
    return found


def test_a_due_seat_with_no_socket_open_gets_a_push_and_one_with_a_socket_none(
    app: App, push_service: PushService
) -> None:
    table_id, anna, bela = app.table({"mode": "days", "per_decision": DAY})
    started = app.now.at
    anna_phone, bela_phone = push_service.device(), push_service.device()
    subscribe(app, table_id, 0, anna, anna_phone)
    subscribe(app, table_id, 1, bela, bela_phone)
    anna_ws = WsClient(app.client, table_id, anna).connect()
    app.now.at = started + 3600
    assert app.sweep() == 1  # Bela's; Anna is at the table
    [got] = push_service.pushes_to(bela_phone)
    assert got.problems == []  # the JWT verifies (aud, exp within 24 h, sub), the body decrypts
    assert got.claims["sub"] == "mailto:guildhall@guildhall.test"
    assert got.headers["ttl"] == str(DAY - 3600)  # the time left for the decision
    assert (got.headers["urgency"], got.headers["topic"]) == (
        "normal",
        topic(table_id, "notify-test"),
    )
    assert got.payload == {
        "title": f"Your move: Toy · {table_id}",
        "body": "Bela, it is your move (23 h left).",
        "url": f"/t/{table_id}",
        "tag": topic(table_id, "notify-test"),
    }
    assert push_service.pushes_to(anna_phone) == []
    # Anna leaves: her notice goes out at the next look.
    anna_ws.close()
    app.now.at += 301
    assert app.sweep() == 1
    [hers] = push_service.pushes_to(anna_phone)
    assert hers.problems == [] and hers.payload is not None
    assert hers.payload["body"].startswith("Anna, it is your move")
    assert app.notices(table_id) == {0: ("turn", "sent", 0), 1: ("turn", "sent", 0)}


def test_the_reminder_at_80_percent_is_urgent_and_lives_as_long_as_the_time_left(
    app: App, push_service: PushService
) -> None:
    table_id, _anna, bela = app.table({"mode": "days", "per_decision": DAY})
    started = app.now.at
    phone = push_service.device()
    subscribe(app, table_id, 1, bela, phone)
    app.now.at = started + 60
    app.sweep()
    app.now.at = started + 0.8 * DAY
    app.sweep()
    first, reminder = push_service.pushes_to(phone)
    assert [first.problems, reminder.problems] == [[], []]
    assert (first.headers["urgency"], reminder.headers["urgency"]) == ("normal", "high")
    assert reminder.headers["ttl"] == str(round(0.2 * DAY))
    assert reminder.headers["topic"] == first.headers["topic"]  # it replaces an unseen first
    assert reminder.payload is not None
    assert reminder.payload["body"] == "Bela, only 5 h left for your move."


def test_a_device_its_push_service_calls_gone_is_deleted_and_the_notice_not_retried(
    app: App, push_service: PushService
) -> None:
    table_id, _anna, bela = app.table({"mode": "days", "per_decision": DAY})
    gone, kept = push_service.device(), push_service.device()
    gone.answer = 410
    subscribe(app, table_id, 1, bela, gone)
    kept_id = subscribe(app, table_id, 1, bela, kept)
    app.now.at += 3600
    assert app.sweep() == 1
    assert len(push_service.pushes_to(gone)) == len(push_service.pushes_to(kept)) == 1
    assert [d["id"] for d in devices(app, table_id, 1, bela)] == [kept_id]
    # The last device goes too: the seat has no address left, and nothing is tried again.
    kept.answer = 410
    app.now.at += 0.8 * DAY
    app.sweep()
    assert devices(app, table_id, 1, bela) == []
    assert app.notices(table_id)[1][1] == "gone"
    app.now.at += DAY / 10
    app.sweep()
    assert len(push_service.pushes_to(kept)) == 2


def test_a_busy_push_service_is_tried_again_later(app: App, push_service: PushService) -> None:
    table_id, _anna, bela = app.table({"mode": "days", "per_decision": DAY})
    phone = push_service.device()
    phone.answer = 503
    subscribe(app, table_id, 1, bela, phone)
    app.now.at += 3600
    app.sweep()
    assert app.notices(table_id)[1] == ("turn", "pending", 1)
    phone.answer = 201
    app.now.at += 3600  # past the first backoff
    assert app.sweep() == 1
    assert [r.problems for r in push_service.pushes_to(phone)] == [[], []]
    assert app.notices(table_id)[1] == ("turn", "sent", 1)
