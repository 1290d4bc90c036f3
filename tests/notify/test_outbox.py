"""When a notice is owed and sent: presence, the reminder, replacement, and two app instances
on one Postgres (the webhook receiver on 127.0.0.1 stands for every channel)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from server.notify.addresses import Guard
from server.notify.channel import ChannelContext
from server.notify.contacts import ContactBook
from server.notify.outbox import Outbox, build_channels
from server.realtime.fanout import MemoryFanOut
from server.store.db import make_engine, make_sessionmaker
from server.tables import TableService
from tests.support.acks import is_ack
from tests.support.wsclient import WsClient

from .conftest import FakeTime, Receiver, make_settings, running

DAY = 86400


def test_no_notice_while_a_socket_of_the_seat_is_open_and_one_once_it_closes_on_their_move(
    database_url: str, receiver: Receiver
) -> None:
    with running(make_settings(database_url, webhook_allow_private=True)) as app:
        table_id, anna, bela = app.table()
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        anna_ws = WsClient(app.client, table_id, anna).connect()
        bela_ws = WsClient(app.client, table_id, bela).connect()
        app.now.at += 3600
        assert app.sweep() == 0
        assert receiver.posts == []
        assert app.notices(table_id) == {0: ("turn", "pending", 0), 1: ("turn", "pending", 0)}
        # Bela plans (his decision ends) and both leave; Anna's decision goes on.
        done = bela_ws.command({"type": "plan", "value": 2})
        assert is_ack(bela_ws.outcome(done))
        anna_ws.close()
        bela_ws.close()
        app.now.at += 3600
        assert app.sweep() == 1
        (post,) = receiver.wait_for(1)
        assert (post.body["player"], post.body["kind"]) == ("Anna", "turn")
        assert app.notices(table_id)[1] == ("turn", "expired", 0)


def test_a_player_away_less_than_notify_after_gets_no_notice_yet(
    database_url: str, receiver: Receiver
) -> None:
    settings = make_settings(database_url, webhook_allow_private=True, notify_after=600)
    with running(settings) as app:
        table_id, anna, _bela = app.table()
        # Anna was seen creating the table; Bela's page was open until now (joining alone
        # is no visit: a player who never came is not held).
        app.call(app.state.service.mark_seen, {table_id: {1}})
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        app.now.at += 300
        assert app.sweep() == 0
        assert receiver.posts == []
        app.now.at += 330  # both have been away, over 600 s now
        assert app.sweep() == 2


def test_a_timed_decision_brings_a_reminder_at_80_percent_and_an_untimed_one_does_not(
    database_url: str, receiver: Receiver
) -> None:
    settings = make_settings(database_url, webhook_allow_private=True)
    with running(settings) as app:
        days, anna, _bela = app.table({"mode": "days", "per_decision": DAY}, start=False)
        untimed, creator, _other = app.table({"mode": "untimed"}, start=False)
        for table_id, token in ((days, anna), (untimed, creator)):
            app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, token)
            app.start(table_id, token)
        started = app.now.at
        app.now.at += 60
        assert app.sweep() == 4
        app.now.at = started + 0.8 * DAY - 1
        assert app.sweep() == 0
        app.now.at = started + 0.8 * DAY
        assert app.sweep() == 2
        reminders = [p.body for p in receiver.wait_for(6)[4:]]
        assert {(r["table_id"], r["kind"]) for r in reminders} == {(days, "reminder")}
        assert [r["seconds_left"] for r in reminders] == [round(0.2 * DAY)] * 2
        assert "Time left: 4 h 48 min" in reminders[0]["text"]
        app.now.at = started + 30 * DAY  # untimed: no reminder, however long
        assert app.sweep() == 0
        assert Counter(p.body["kind"] for p in receiver.posts) == {"turn": 4, "reminder": 2}


def test_a_newer_notice_replaces_one_not_sent_yet(database_url: str, receiver: Receiver) -> None:
    with running(make_settings(database_url, webhook_allow_private=True)) as app:
        table_id, anna, _bela = app.table({"mode": "days", "per_decision": DAY}, start=False)
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        app.start(table_id, anna)
        started = app.now.at
        anna_ws = WsClient(app.client, table_id, anna).connect()
        app.now.at += 60
        app.sweep()  # Bela's turn notice; Anna's is held while she is here
        app.now.at = started + 0.8 * DAY
        app.sweep()  # Bela's reminder; Anna's held turn notice becomes her reminder
        anna_ws.close()
        app.now.at += 301  # a held notice is looked at again a sweep later (300 s here)
        app.sweep()
        sent = [(p.body["player"], p.body["kind"]) for p in receiver.wait_for(3)]
        assert sent == [("Bela", "turn"), ("Bela", "reminder"), ("Anna", "reminder")]


@pytest.mark.postgres
async def test_two_app_instances_on_one_postgres_send_each_notice_once(
    receiver: Receiver, tmp_path: object
) -> None:
    from server.store.migrate import upgrade
    from tests.support.databases import fresh_postgres

    with fresh_postgres() as url:
        await asyncio.to_thread(upgrade, url)
        settings = make_settings(url, webhook_allow_private=True, notify_after=0)
        now = FakeTime()
        instances = []
        for _ in range(2):
            engine = make_engine(settings.database_url)
            service = TableService(settings, make_sessionmaker(engine), MemoryFanOut())
            service.now = now
            guard = Guard(allow_private=True)
            context = ChannelContext(settings, service.sessions.maker, guard)
            instances.append(
                (engine, service, Outbox(service, build_channels(context), service.sessions))
            )
        try:
            service = instances[0][1]
            book = ContactBook(service, Guard(allow_private=True), service.sessions)
            tables = 4
            for _ in range(tables):
                data, anna = await service.create_table("toy", 2, {}, [], "Anna")
                await service.join(data.id, "Bela", invite=service.invite_code(data.id))
                await book.set_webhook(data.id, anna, receiver.url)
                await service.start(data.id, anna)
            now.at += 60
            for _round in range(3):
                await asyncio.gather(*(outbox.sweep() for _e, _s, outbox in instances))
            posts = receiver.wait_for(2 * tables)
            keys = Counter((p.body["table_id"], p.body["seat"], p.body["kind"]) for p in posts)
            assert len(keys) == 2 * tables
            assert set(keys.values()) == {1}
            assert sum(outbox.sent for _e, _s, outbox in instances) == 2 * tables
        finally:
            for engine, service, _outbox in instances:
                await service.close()
                await engine.dispose()


def test_a_seat_s_devices_get_the_notice_through_web_push_once(database_url: str) -> None:
    from server.notify import subscriptions
    from tests.support.push_service import PushService

    settings = make_settings(
        database_url,
        push_allow_http=True,
        push_hosts=PushService.HOSTS,
        webhook_allow_private=True,
    )
    with PushService() as push_service, running(settings) as app:
        table_id, _anna, _bela = app.table()
        push_service.vapid_key = app.state.push.public_key
        phone = push_service.device()
        sub = phone.subscription()
        keys = (sub["keys"]["p256dh"], sub["keys"]["auth"])
        sessions = app.state.push.sessions
        app.call(subscriptions.add, sessions, table_id, 1, phone.endpoint, keys, "en")
        app.now.at += 3600
        assert app.sweep() == 1  # Bela's device; Anna has none
        app.now.at += 3600
        assert app.sweep() == 0
        [got] = push_service.pushes_to(phone)
        assert got.problems == []
        assert got.payload is not None and got.payload["body"].startswith("Bela, it is your move")
        assert app.notices(table_id) == {1: ("turn", "sent", 0)}


def test_a_nudge_reaches_a_player_away_once_per_nudge(
    database_url: str, receiver: Receiver
) -> None:
    settings = make_settings(database_url, webhook_allow_private=True, nudge_after=0)
    with running(settings) as app:
        table_id, anna, _bela = app.table({"mode": "untimed"}, start=False)
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        app.start(table_id, anna)
        app.now.at += 60
        assert app.sweep() == 2  # both seats' turn
        nudged = app.post(f"/api/tables/{table_id}/seats/1/nudge", {}, anna)
        assert nudged.status_code == 200, nudged.text
        assert app.sweep() == 1
        assert app.sweep() == 0  # once per nudge
        last = receiver.wait_for(3)[-1].body
        assert (last["player"], last["kind"], last["by"]) == ("Bela", "nudge", "Anna")
        assert last["text"].startswith(
            f"Bela, Anna nudged you: it is your move at Toy · {table_id}."
        )
        assert app.notices(table_id)[1] == ("nudge", "sent", 0)
