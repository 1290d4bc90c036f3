"""Chat notices through the real app (SQLite and Postgres): a message at a table played over
days reaches the other player, who is away, through a push service, an SMTP server and the
table's webhook on 127.0.0.1, saying who wrote and where but never what; at most one an
hour; none to someone who has been at the table since, none for the spectators' room, none
to the writer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from server.store.models import ChatNoticeRow
from tests.support.push_service import PushService
from tests.support.wsclient import WsClient

from .conftest import App, Mailbox, Receiver, make_settings, running
from .test_email import confirmed
from .test_push_outbox import subscribe

SECRET = "meet me at the brewers, 3 beer for the bailiff"


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with PushService() as service:
        yield service


@pytest.fixture
def app(database_url: str, push_service: PushService, mailbox: Mailbox) -> Iterator[App]:
    settings = make_settings(
        database_url,
        push_allow_http=True,
        push_hosts=PushService.HOSTS,
        webhook_allow_private=True,
        smtp_host="127.0.0.1",
        smtp_port=mailbox.port,
        smtp_tls="none",
    )
    with running(settings) as started:
        push_service.vapid_key = started.get("/api/push/key").json()["public_key"]
        yield started


def say(ws: WsClient, text: str, room: str = "players") -> None:
    message_id = f"m{len(ws.messages)}"
    ws.send({"type": "chat", "id": message_id, "text": text, "room": room})
    answer = ws.read_until(lambda m: m.get("id") == message_id)
    assert answer["type"] == "chat_ack", answer


def chatting(app: App, table_id: str, token: str) -> WsClient:
    ws = WsClient(app.client, table_id, token).connect(hello=False)
    ws.send({"type": "hello", "token": token, "chat": True})
    ws.read_until(lambda m: m["type"] == "chat_history")
    return ws


def chat_pushes(push_service: PushService, device: Any) -> list[dict[str, Any]]:
    return [
        r.payload
        for r in push_service.pushes_to(device)
        if r.payload and "wrote" in r.payload["title"]
    ]


def chat_rows(app: App, table_id: str) -> dict[int, str]:
    async def read() -> dict[int, str]:
        async with app.state.service.sessions.read() as session:
            query = sa.select(ChatNoticeRow).where(ChatNoticeRow.table_id == table_id)
            return {r.seat: r.status for r in (await session.execute(query)).scalars()}

    return dict(app.call(read))


def test_an_away_player_is_told_who_wrote_never_what_at_most_once_an_hour(
    app: App, push_service: PushService, mailbox: Mailbox, receiver: Receiver
) -> None:
    table_id, anna, bela = app.table({"mode": "days"})
    hooked = app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
    assert hooked.status_code == 200, hooked.text
    phone = push_service.device()
    subscribe(app, table_id, 1, bela, phone)
    links = len(mailbox.mails)
    set_mail = app.post(
        f"/api/tables/{table_id}/seats/1/email", {"email": "bela@example.org"}, bela
    )
    assert set_mail.status_code == 200, set_mail.text
    confirmed(app, mailbox, links + 1)  # no notice goes to an address before it is confirmed
    anna_phone = push_service.device()
    subscribe(app, table_id, 0, anna, anna_phone)
    writer = chatting(app, table_id, anna)
    app.sweep()  # the "your move" notices of the start go their own way
    mails_before = len(mailbox.mails)
    app.now.at += 60  # after the moment Bela joined (a seat is seen when it is taken)

    say(writer, SECRET)
    say(writer, "and spectators, hello", room="spectators")
    assert chat_rows(app, table_id) == {1: "pending"}
    app.now.at += 60
    app.sweep()
    (pushed,) = chat_pushes(push_service, phone)
    assert pushed["title"] == f"Anna wrote at table Toy · {table_id}"
    assert pushed["body"] == "Open the table to read it."
    ((to, mail),) = mailbox.wait_for(mails_before + 1)[mails_before:]
    assert to == ["bela@example.org"]
    assert mail["Subject"] == f"Anna wrote at table Toy · {table_id}"
    (hook,) = [p.body for p in receiver.wait_for(1) if p.body["kind"] == "chat"]
    assert (hook["player"], hook["by"], hook["seat"]) == ("Bela", "Anna", 1)
    assert hook["text"].startswith(f"Anna wrote at table Toy · {table_id}. Open the table")
    everything = str(pushed) + mail.as_string() + repr([p.body for p in receiver.posts])
    assert "brewers" not in everything and "spectators, hello" not in everything
    assert anna not in everything and bela not in everything
    assert chat_pushes(push_service, anna_phone) == []  # the writer is not told
    assert chat_rows(app, table_id) == {1: "sent"}

    # More messages within the hour: one notice waits for the hour to end.
    say(writer, "still there?")
    app.now.at += 600
    app.sweep()
    assert len(chat_pushes(push_service, phone)) == 1
    app.now.at += 3000
    app.sweep()
    assert len(chat_pushes(push_service, phone)) == 2
    assert len([p for p in receiver.wait_for(2) if p.body["kind"] == "chat"]) == 2

    # Bela comes to the table and reads: what Anna writes while he is there owes nothing.
    reader = chatting(app, table_id, bela)
    say(writer, "welcome back")
    app.now.at += 3600
    app.sweep()
    assert len(chat_pushes(push_service, phone)) == 2
    assert chat_rows(app, table_id) == {1: "expired"}
    reader.close()


def test_a_table_without_days_sends_no_chat_notice(app: App, push_service: PushService) -> None:
    table_id, anna, bela = app.table({"mode": "live"})
    phone = push_service.device()
    subscribe(app, table_id, 1, bela, phone)
    app.now.at += 60
    say(chatting(app, table_id, anna), "quick game")
    app.now.at += 60
    app.sweep()
    assert chat_pushes(push_service, phone) == []
    assert chat_rows(app, table_id) == {}
