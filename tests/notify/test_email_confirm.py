"""E-mail double opt-in through the real app and an SMTP server (aiosmtpd) on 127.0.0.1: an
address typed for a seat gets one mail, a link to confirm it, and no notice until the link
has been opened and confirmed; a link works once and for a day; a seat has five links
mailed at most; and an address gets at most GUILDHALL_MAIL_PER_HOUR mails an hour from all
tables and processes together, counted in the database."""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import Any

import pytest

from server.notify.contacts import CONFIRM_HOURS, MAX_LINKS

from .conftest import App, Mailbox, make_settings, running

ADDRESS = "bela.kovacs@example.org"
LINK = re.compile(r"https?://[^/\s]+/email/confirm/([A-Za-z0-9_-]+)")


def at_an_hour_s_start(*apps: App) -> None:
    """Move the apps' clocks to the start of the next hour: a budget counts per clock hour,
    and a test's minutes must not straddle two."""
    start = (int(apps[0].now.at // 3600) + 1) * 3600 + 1
    for app in apps:
        app.now.at = start


def smtp(database_url: str, mailbox: Mailbox, **more: Any) -> Any:
    return make_settings(
        database_url, smtp_host="127.0.0.1", smtp_port=mailbox.port, smtp_tls="none", **more
    )


def body(mail: EmailMessage) -> str:
    return str(mail.get_content()).replace("\r\n", "\n")


def link_token(mail: EmailMessage) -> str:
    found = LINK.search(body(mail))
    assert found is not None, body(mail)
    return found.group(1)


def set_email(app: App, table_id: str, token: str, address: str | None, seat: int = 1) -> Any:
    return app.post(f"/api/tables/{table_id}/seats/{seat}/email", {"email": address}, token)


def settings_of(app: App, table_id: str, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = app.get(f"/api/tables/{table_id}/notifications", token).json()
    return answer


def test_no_notice_goes_to_an_address_until_its_link_is_confirmed(
    database_url: str, mailbox: Mailbox
) -> None:
    with running(smtp(database_url, mailbox)) as app:
        table_id, anna, bela = app.table()
        answer = set_email(app, table_id, bela, ADDRESS)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {
            "seat": 1, "creator": False, "email": ADDRESS, "email_on": True, "webhook": None,
            "email_confirmed": False, "email_links_left": MAX_LINKS - 1,
        }  # fmt: skip
        ((to, mail),) = mailbox.wait_for(1)
        assert to == [ADDRESS]
        assert mail["Subject"] == f"Confirm your e-mail for Toy · {table_id}"
        text = body(mail)
        assert f"within {CONFIRM_HOURS} hours" in text
        # Nothing a player typed (their names), no seat token.
        assert "Anna" not in text and "Bela" not in text
        assert anna not in mail.as_string() and bela not in mail.as_string()
        token = link_token(mail)
        # Waiting: the outbox owes the address nothing, however long Bela is away.
        app.now.at += 3600
        assert app.sweep() == 0
        assert len(mailbox.mails) == 1
        # Opening the link asks; it confirms nothing (mail scanners open links too).
        page = app.client.get(f"/email/confirm/{token}")
        assert page.status_code == 200
        assert ADDRESS in page.text and f"Toy · {table_id}" in page.text
        assert 'method="post"' in page.text
        assert page.headers["cache-control"] == "no-store"
        assert settings_of(app, table_id, bela)["email_confirmed"] is False
        done = app.client.post(f"/email/confirm/{token}")
        assert done.status_code == 200 and "Confirmed" in done.text
        assert f'href="/t/{table_id}"' in done.text
        assert settings_of(app, table_id, bela)["email_confirmed"] is True
        # Confirmed: the next look at the outbox sends Bela's notice.
        app.now.at += 60
        assert app.sweep() == 1
        _, notice = mailbox.wait_for(2)[1]
        assert notice["Subject"] == f"Your move at Toy · {table_id}"


def test_a_link_works_once_and_for_a_day_and_a_new_address_needs_its_own(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    with running(smtp(sqlite_url, mailbox)) as app:
        table_id, _anna, bela = app.table()
        set_email(app, table_id, bela, ADDRESS)
        first = link_token(mailbox.wait_for(1)[0][1])
        assert app.client.post(f"/email/confirm/{first}").status_code == 200
        used = app.client.post(f"/email/confirm/{first}")
        assert used.status_code == 404 and "does not work" in used.text
        # The same address again, once confirmed, stays confirmed and is mailed nothing.
        for spelling in (ADDRESS, ADDRESS.upper()):
            again = set_email(app, table_id, bela, spelling).json()
            assert again["email_confirmed"] is True and again["email"] == ADDRESS
        assert len(mailbox.mails) == 1
        # Another address waits for its own link; the first link does not confirm it.
        other = set_email(app, table_id, bela, "bela@example.net").json()
        assert other["email_confirmed"] is False and other["email"] == "bela@example.net"
        second = link_token(mailbox.wait_for(2)[1][1])
        app.now.at += CONFIRM_HOURS * 3600 + 1
        for route in (app.client.get, app.client.post):
            late = route(f"/email/confirm/{second}")
            assert late.status_code == 410 and "expired" in late.text
        assert settings_of(app, table_id, bela)["email_confirmed"] is False
        # A removed address's link confirms nothing either.
        set_email(app, table_id, bela, ADDRESS)
        third = link_token(mailbox.wait_for(3)[2][1])
        set_email(app, table_id, bela, None)
        assert app.client.post(f"/email/confirm/{third}").status_code == 404
        assert settings_of(app, table_id, bela)["email"] is None


@pytest.mark.parametrize("token", ["x", "A" * 43, "A" * 5000, "%00", "..%2F..%2Fetc"])
def test_a_made_up_link_is_refused(sqlite_url: str, mailbox: Mailbox, token: str) -> None:
    with running(smtp(sqlite_url, mailbox)) as app:
        for route in (app.client.get, app.client.post):
            assert route(f"/email/confirm/{token}").status_code == 404


def test_a_seat_has_its_link_mailed_at_most_five_times(sqlite_url: str, mailbox: Mailbox) -> None:
    with running(smtp(sqlite_url, mailbox, mail_per_hour=100)) as app:
        table_id, _anna, bela = app.table()
        addresses = [ADDRESS, ADDRESS, "b@example.org", ADDRESS, "c@example.org"]
        for n, address in enumerate(addresses):
            answer = set_email(app, table_id, bela, address)
            assert answer.json()["email_links_left"] == MAX_LINKS - 1 - n, answer.text
        refused = set_email(app, table_id, bela, "d@example.org")
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_links")
        assert len(mailbox.wait_for(MAX_LINKS)) == MAX_LINKS
        # Nothing changed by the refusal: the last address still waits for its link.
        now = settings_of(app, table_id, bela)
        assert (now["email"], now["email_confirmed"]) == ("c@example.org", False)
        # Removing the address gives no links back.
        set_email(app, table_id, bela, None)
        assert set_email(app, table_id, bela, ADDRESS).json()["code"] == "too_many_links"
        assert len(mailbox.mails) == MAX_LINKS


def test_an_address_gets_its_hourly_budget_of_mails_from_all_tables_and_processes(
    database_url: str, mailbox: Mailbox
) -> None:
    settings = smtp(database_url, mailbox, mail_per_hour=3)
    with running(settings) as first, running(settings) as second:
        at_an_hour_s_start(first, second)
        tables = [app.table() for app in (first, second, first, second)]
        apps = [first, second, first, second]
        codes = []
        for app, (table_id, _anna, bela) in zip(apps, tables, strict=True):
            answer = set_email(app, table_id, bela, ADDRESS.upper() if app is second else ADDRESS)
            codes.append(answer.json().get("code", answer.status_code))
        assert codes == [200, 200, 200, "mail_budget"]
        assert len(mailbox.wait_for(3)) == 3
        refused_table, _, refused_bela = tables[3]
        assert settings_of(second, refused_table, refused_bela)["email"] is None  # unchanged
        # The next hour the budget is whole again.
        for app in apps[:2]:
            app.now.at += 3600
        again = set_email(second, refused_table, refused_bela, ADDRESS)
        assert again.status_code == 200, again.text
        assert len(mailbox.wait_for(4)) == 4


def test_a_notice_beyond_the_address_s_budget_is_not_sent(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    with running(smtp(sqlite_url, mailbox, mail_per_hour=2)) as app:
        at_an_hour_s_start(app)
        made = [app.table() for _ in range(2)]
        for n, (table_id, _anna, bela) in enumerate(made):
            set_email(app, table_id, bela, ADDRESS)
            token = link_token(mailbox.wait_for(n + 1)[n][1])
            assert app.client.post(f"/email/confirm/{token}").status_code == 200
        # Two links this hour: both tables' notices find the budget spent.
        app.now.at += 60
        assert app.sweep() == 0
        assert len(mailbox.mails) == 2
        assert {app.notices(t)[1][1] for t, _a, _b in made} == {"gone"}


def test_the_budget_keeps_an_address_s_current_hours_only(
    sqlite_url: str, mailbox: Mailbox
) -> None:
    import sqlalchemy as sa

    from server.notify import budget
    from server.store.models import MailBudgetRow

    with running(smtp(sqlite_url, mailbox)) as app:
        at_an_hour_s_start(app)
        start = app.now.at

        async def spend(address: str, at: float) -> list[tuple[str, int, int]]:
            async with app.state.service.sessions.read() as session:
                await budget.spend(session, "k", address, 10, at)
                await session.commit()
                rows = await session.execute(sa.select(MailBudgetRow))
                return sorted((r.address_key[:4], r.hour - int(start // 3600), r.sent)
                              for r in rows.scalars())  # fmt: skip

        anna, bela = (
            budget.address_key("k", "anna@x.org")[:4],
            budget.address_key("k", "b@x.org")[:4],
        )
        app.call(spend, "anna@x.org", start)
        app.call(spend, "Anna@X.org", start + 60)
        app.call(spend, "b@x.org", start)
        assert app.call(spend, "anna@x.org", start + 3600) == sorted(
            [(anna, 0, 2), (anna, 1, 1), (bela, 0, 1)]
        )
        # Two hours on, the address's oldest hour goes; another address's rows wait for
        # its own next mail.
        assert app.call(spend, "anna@x.org", start + 2 * 3600) == sorted(
            [(anna, 1, 1), (anna, 2, 1), (bela, 0, 1)]
        )


def test_a_link_the_mail_server_did_not_take_leaves_the_address_waiting(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from server.devtools.load.servers import free_port

    closed = Mailbox(port=free_port())  # nothing listens there
    with running(smtp(sqlite_url, closed, smtp_timeout=2)) as app:
        table_id, _anna, bela = app.table()
        answer = set_email(app, table_id, bela, ADDRESS)
        assert (answer.status_code, answer.json()["code"]) == (503, "email_not_sent")
        now = settings_of(app, table_id, bela)
        assert (now["email"], now["email_confirmed"]) == (ADDRESS, False)
        assert now["email_links_left"] == MAX_LINKS - 1  # the card offers to send it again
        assert not [r for r in caplog.records if ADDRESS in r.getMessage() + repr(r.__dict__)]


@pytest.mark.parametrize(
    ("spellings", "one"),
    [
        (["anna@example.org", "Anna@EXAMPLE.org", "anna+guildhall@example.org"], True),
        (["a.n.n.a@gmail.com", "anna+x@googlemail.com", "ANNA@gmail.com"], True),
        (["anna@example.org", "a.nna@example.org"], False),  # dots matter elsewhere
        (["anna@example.org", "anna@example.net"], False),
    ],
)
def test_the_budget_counts_every_spelling_of_one_mailbox_once(
    spellings: list[str], one: bool
) -> None:
    from server.notify.budget import address_key

    assert (len({address_key("k", s) for s in spellings}) == 1) is one
