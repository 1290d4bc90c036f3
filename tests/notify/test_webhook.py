"""The webhook channel through the real app: a JSON POST to a receiver on 127.0.0.1, and the
guard that keeps a stranger's URL from reaching the server's own network."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from .conftest import Receiver, make_settings, running

PUBLIC = "93.184.215.14"  # a global address: the fake resolver's answer, never connected to


def resolver(answers: dict[str, list[str]]) -> Any:
    async def resolve(host: str, _port: int) -> list[str]:
        return list(answers.get(host, []))

    return resolve


def test_the_receiver_gets_one_json_post_per_seat_and_decision_without_any_token(
    database_url: str, receiver: Receiver
) -> None:
    settings = make_settings(database_url, webhook_allow_private=True, notify_after=0)
    with running(settings) as app:
        table_id, anna, bela = app.table(start=False)
        answer = app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        assert answer.status_code == 200, answer.text
        assert answer.json()["webhook"] == receiver.url
        app.start(table_id, anna)
        app.now.at += 20  # away longer than two presence heartbeats (10 s)
        assert app.sweep() == 2  # both seats plan at once: both are owed a notice
        posts = receiver.wait_for(2)
        assert sorted(p.body["player"] for p in posts) == ["Anna", "Bela"]
        for post in posts:
            assert post.path == "/hook"
            assert post.headers["Content-Type"] == "application/json"
            assert post.body["url"] == f"http://guildhall.test/t/{table_id}"
            assert post.body["table"] == f"Toy · {table_id}"
            assert post.body["kind"] == "turn"
            assert 86000 < post.body["seconds_left"] <= 86400
            assert post.body["text"] == post.body["content"]
            assert f"it is your move at Toy · {table_id}" in post.body["text"]
            raw = repr(post.body) + repr(post.headers)
            assert anna not in raw and bela not in raw and "#seat" not in raw
        # Sent once: later sweeps of the same decision send nothing.
        app.now.at += 60
        assert app.sweep() == 0
        assert len(receiver.posts) == 2
        assert app.notices(table_id) == {0: ("turn", "sent", 0), 1: ("turn", "sent", 0)}


def test_with_the_default_settings_a_loopback_url_is_refused_when_set_and_when_sent(
    database_url: str, receiver: Receiver
) -> None:
    with running(make_settings(database_url, notify_after=0)) as app:
        table_id, anna, _bela = app.table()
        refused = app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        assert refused.status_code == 400
        assert refused.json()["code"] == "private_webhook"
        assert app.get(f"/api/tables/{table_id}/notifications", anna).json()["webhook"] is None

        # A name that resolved to a public address when set, and to 127.0.0.1 when sent
        # (DNS rebinding), reaches nothing: the send resolves again and checks again.
        answers = {"hook.example": [PUBLIC]}
        app.state.webhook_guard.resolve = resolver(answers)
        url = f"http://hook.example:{receiver.port}/hook"
        assert app.post(f"/api/tables/{table_id}/webhook", {"url": url}, anna).status_code == 200
        answers["hook.example"] = ["127.0.0.1"]
        app.now.at += 20  # away longer than two presence heartbeats (10 s)
        assert app.sweep() == 0
        assert receiver.posts == []
        assert app.notices(table_id) == {0: ("turn", "gone", 0), 1: ("turn", "gone", 0)}


@pytest.mark.parametrize(
    "address", ["10.0.0.7", "192.168.1.20", "169.254.169.254", "fe80::1", "::ffff:127.0.0.1"]
)
def test_a_name_that_resolves_to_a_private_address_is_refused(
    sqlite_url: str, address: str
) -> None:
    with running(make_settings(sqlite_url)) as app:
        table_id, anna, _bela = app.table()
        app.state.webhook_guard.resolve = resolver({"chat.example": [PUBLIC, address]})
        body = {"url": "https://chat.example/hooks/abc"}
        refused = app.post(f"/api/tables/{table_id}/webhook", body, anna)
        assert refused.status_code == 400
        assert refused.json()["code"] == "private_webhook"
        assert app.get(f"/api/tables/{table_id}/notifications", anna).json()["webhook"] is None


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("ftp://chat.example/x", "bad_webhook"),
        ("file:///etc/passwd", "bad_webhook"),
        ("https://", "bad_webhook"),
        ("chat.example/hook", "bad_webhook"),
        ("https://chat.example:99999/x", "bad_webhook"),
        ("https://chat.example/a b", "bad_webhook"),
        ("https://nowhere.example/x", "bad_webhook"),  # does not resolve
        ("https://chat.example/" + "x" * 2000, "bad_webhook"),
        ("http://127.0.0.1/x", "private_webhook"),
        ("http://[::1]/x", "private_webhook"),
    ],
)
def test_a_url_that_is_no_webhook_is_refused_with_its_code(
    sqlite_url: str, url: str, code: str
) -> None:
    with running(make_settings(sqlite_url)) as app:
        table_id, anna, _bela = app.table()
        answers = {"chat.example": [PUBLIC], "127.0.0.1": ["127.0.0.1"], "::1": ["::1"]}
        app.state.webhook_guard.resolve = resolver(answers)
        refused = app.post(f"/api/tables/{table_id}/webhook", {"url": url}, anna)
        assert refused.status_code == 400, refused.text
        assert refused.json()["code"] == code


def test_only_the_creator_sets_or_reads_the_webhook(database_url: str) -> None:
    with running(make_settings(database_url)) as app:
        table_id, anna, bela = app.table()
        app.state.webhook_guard.resolve = resolver({"chat.example": [PUBLIC]})
        secret_url = "https://chat.example/hooks/s3cret"
        assert app.post(f"/api/tables/{table_id}/webhook", {"url": secret_url}, anna).is_success
        other = app.table()[0]
        outsider = app.post("/api/tables", {"game": "toy", "seats": 2, "name": "Eve"}).json()
        for token, code in ((bela, "not_creator"), (outsider["token"], "bad_token")):
            changed = app.post(f"/api/tables/{table_id}/webhook", {"url": None}, token)
            assert changed.json()["code"] == code
        assert app.post(f"/api/tables/{table_id}/webhook", {"url": None}).status_code == 401
        # Bela's view of the table's notices holds no webhook; an outsider gets nothing.
        assert app.get(f"/api/tables/{table_id}/notifications", bela).json()["webhook"] is None
        assert (
            app.get(f"/api/tables/{table_id}/notifications", outsider["token"]).json()["code"]
            == "bad_token"
        )
        # The creator of another table is no creator here.
        assert app.get(f"/api/tables/{other}/notifications", anna).json()["code"] == "bad_token"
        # Nothing public shows it.
        assert secret_url not in app.get(f"/api/tables/{table_id}").text
        assert secret_url not in app.get(f"/api/tables/{table_id}/me", bela).text
        assert app.get(f"/api/tables/{table_id}/notifications", anna).json()["webhook"] == (
            secret_url
        )
        # The creator removes it.
        removed = app.post(f"/api/tables/{table_id}/webhook", {"url": None}, anna)
        assert removed.json()["webhook"] is None


def test_a_redirect_is_not_followed(database_url: str, receiver: Receiver) -> None:
    settings = make_settings(database_url, webhook_allow_private=True, notify_after=0)
    with running(settings) as app:
        table_id, anna, _bela = app.table()
        # The webhook answers with a redirect that keeps the method (a follower would POST
        # again, to /elsewhere).
        receiver.status = 307
        receiver.location = f"http://127.0.0.1:{receiver.port}/elsewhere"
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        app.now.at += 20  # away longer than two presence heartbeats (10 s)
        app.sweep()
        assert [p.path for p in receiver.posts] == ["/hook", "/hook"]  # never /elsewhere
        assert app.notices(table_id) == {0: ("turn", "gone", 0), 1: ("turn", "gone", 0)}


def test_a_failing_receiver_is_retried_with_backoff_then_dropped_with_a_log_line(
    database_url: str, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    settings = make_settings(
        database_url,
        webhook_allow_private=True,
        notify_after=0,
        notify_attempts=3,
        notify_retry=10,
    )
    with running(settings) as app:
        table_id, anna, bela = app.table(start=False)
        receiver.status = 503
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        # Bela leaves the table to a bot at once: only Anna is owed notices.
        bot = app.post(f"/api/tables/{table_id}/seats/1/bot", {"kind": "random"}, bela)
        assert bot.status_code == 200, bot.text
        app.start(table_id, anna)
        app.now.at += 20  # away longer than two presence heartbeats (10 s)
        caplog.set_level(logging.INFO, logger="server.notify")
        tries = []
        for step in (0, 5, 5, 10, 20, 100):  # due at +0, +10, +10+20; nothing after
            app.now.at += step
            app.sweep()
            tries.append(len(receiver.posts))
        assert tries == [1, 1, 2, 2, 3, 3]
        assert app.notices(table_id)[0] == ("turn", "dropped", 3)
        dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
        assert len(dropped) == 1
        assert dropped[0].table_id == table_id and dropped[0].seat == 0  # type: ignore[attr-defined]
        assert "webhook" in dropped[0].getMessage()
