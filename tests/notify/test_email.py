"""The e-mail channel through the real app and an SMTP server (aiosmtpd) on 127.0.0.1, and the
address that only its own seat may set, read or remove, and that nothing else ever shows."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.support.wsclient import WsClient

from .conftest import App, Mailbox, Receiver, make_settings, running
from .test_email_confirm import link_token

ADDRESS = "bela.kovacs@example.org"


def smtp(database_url: str, mailbox: Mailbox, **more: Any) -> Any:
    return make_settings(
        database_url, smtp_host="127.0.0.1", smtp_port=mailbox.port, smtp_tls="none", **more
    )


def confirmed(app: App, mailbox: Mailbox, mails: int) -> None:
    """Open the link of the newest of ``mails`` mails and confirm the address."""
    token = link_token(mailbox.wait_for(mails)[mails - 1][1])
    assert app.client.post(f"/email/confirm/{token}").status_code == 200


def test_the_smtp_server_receives_the_mail_with_the_table_and_no_token(
    database_url: str, mailbox: Mailbox
) -> None:
    with running(smtp(database_url, mailbox)) as app:
        table_id, anna, bela = app.table(start=False)
        set_ = app.post(f"/api/tables/{table_id}/seats/1/email", {"email": ADDRESS}, bela)
        assert set_.status_code == 200, set_.text
        assert set_.json() == {
            "seat": 1,
            "creator": False,
            "email": ADDRESS,
            "email_on": True,
            "webhook": None,
            "email_confirmed": False,
            "email_links_left": 4,
        }
        confirmed(app, mailbox, 1)
        app.start(table_id, anna)
        app.now.at += 60
        assert app.sweep() == 1  # Anna left no address and the table has no webhook
        _link, (to, mail) = mailbox.wait_for(2)
        assert to == [ADDRESS]
        assert mail["To"] == ADDRESS
        assert mail["From"] == "guildhall@guildhall.test"
        assert mail["Subject"] == f"Your move at Toy · {table_id}"
        body = str(mail.get_content()).replace("\r\n", "\n")
        assert f"Bela, it is your move at Toy · {table_id}. Time left: 23 h 59 min." in body
        assert f"http://guildhall.test/t/{table_id}\n" in body
        whole = mail.as_string()
        assert anna not in whole and bela not in whole and "seat=" not in whole


def test_only_the_seat_s_own_token_sets_reads_or_removes_its_address(
    database_url: str, mailbox: Mailbox
) -> None:
    with running(smtp(database_url, mailbox)) as app:
        table_id, anna, bela = app.table()
        path = f"/api/tables/{table_id}/seats/1/email"
        assert app.post(path, {"email": ADDRESS}, bela).status_code == 200
        confirmed(app, mailbox, 1)
        outsider = app.post("/api/tables", {"game": "toy", "seats": 2, "name": "Eve"}).json()
        for token, code in ((anna, "not_your_seat"), (outsider["token"], "bad_token")):
            for body in ({"email": "evil@example.org"}, {"email": None}):
                refused = app.post(path, body, token)
                assert refused.json()["code"] == code, refused.text
        assert app.post(path, {"email": None}).json()["code"] == "no_token"
        assert app.post(f"/api/tables/{table_id}/seats/7/email", {"email": ADDRESS}, bela).json()[
            "code"
        ] == ("bad_seat")
        # Anna reads her own (none), never Bela's; the outsider reads nothing.
        notes = f"/api/tables/{table_id}/notifications"
        assert app.get(notes, anna).json()["email"] is None
        assert ADDRESS not in app.get(notes, anna).text
        assert app.get(notes, outsider["token"]).json()["code"] == "bad_token"
        assert app.get(notes, bela).json()["email"] == ADDRESS
        # Bela removes it: no mail for his next decision.
        assert app.post(path, {"email": None}, bela).json()["email"] is None
        app.now.at += 60
        assert app.sweep() == 0
        assert len(mailbox.mails) == 1  # the link alone


@pytest.mark.parametrize(
    "address",
    [
        "no-at-sign",
        "two@@example.org",
        "a@b",
        "anna@example.org\r\nBcc: all@example.org",
        "anna <anna@example.org>",
        "x" * 65 + "@example.org",
        "anna@" + "a" * 250 + ".org",
        "",
    ],
)
def test_an_address_that_is_not_one_is_refused(
    sqlite_url: str, mailbox: Mailbox, address: str
) -> None:
    with running(smtp(sqlite_url, mailbox)) as app:
        table_id, _anna, bela = app.table()
        refused = app.post(f"/api/tables/{table_id}/seats/1/email", {"email": address}, bela)
        assert refused.json()["code"] == "bad_email", refused.text
        assert app.get(f"/api/tables/{table_id}/notifications", bela).json()["email"] is None


def test_without_an_smtp_server_no_address_is_taken(sqlite_url: str) -> None:
    with running(make_settings(sqlite_url)) as app:
        table_id, _anna, bela = app.table()
        refused = app.post(f"/api/tables/{table_id}/seats/1/email", {"email": ADDRESS}, bela)
        assert (refused.status_code, refused.json()["code"]) == (409, "email_off")
        assert app.get(f"/api/tables/{table_id}/notifications", bela).json()["email_on"] is False


def test_no_address_reaches_any_document_summary_webhook_or_log(
    database_url: str, mailbox: Mailbox, receiver: Receiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = smtp(database_url, mailbox, webhook_allow_private=True)
    with running(settings) as app:
        table_id, anna, bela = app.table()
        app.post(f"/api/tables/{table_id}/webhook", {"url": receiver.url}, anna)
        app.post(f"/api/tables/{table_id}/seats/1/email", {"email": ADDRESS}, bela)
        confirmed(app, mailbox, 1)
        app.post(f"/api/tables/{table_id}/seats/0/email", {"email": "anna@example.org"}, anna)
        confirmed(app, mailbox, 2)
        seen = [
            app.get(f"/api/tables/{table_id}").text,
            app.get("/api/tables").text,
            app.get(f"/api/tables/{table_id}/me", anna).text,
            app.get(f"/api/tables/{table_id}/me", bela).text,
            app.get(f"/api/tables/{table_id}/notifications", anna).text,
            app.client.get(f"/t/{table_id}").text,
        ]
        for token in (anna, bela, None):
            ws = WsClient(app.client, table_id, token).connect()
            seen.append(repr(ws.messages))
            ws.close()
        app.now.at += 60
        assert app.sweep() == 2
        seen += [repr(p.body) for p in receiver.wait_for(2)]
        # Every line the server logs, and every other library's at INFO and above (a
        # library's DEBUG output, such as the SQLite driver's statements, is no log of ours;
        # "mail.log" is the test's SMTP server, the address's destination).
        seen += [
            repr(r.__dict__)
            for r in caplog.records
            if r.name.startswith("server") or (r.levelno >= logging.INFO and r.name != "mail.log")
        ]
        assert len(mailbox.wait_for(4)) == 4  # two links, two notices
        leaks = [text for text in seen if ADDRESS in text]
        assert leaks == []
        # Anna's page showed her own address only through her own notifications answer.
        assert "anna@example.org" in seen[4]
        assert all("anna@example.org" not in text for text in seen[:4] + seen[5:])
