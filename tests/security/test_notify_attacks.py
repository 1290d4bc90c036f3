"""The notification edges attacked through the routes of the real app (SQLite): a stranger
makes a table of their own (so holds its creator's token and a seat) and tries to make the
server send where it must not.

- **Webhook and push addresses**: every address form of tests/support/address_forms.py, typed
  as a URL's literal host and as a name that resolves to it, is accepted only when it is
  public; no refused one is stored. The figures (forms tried, accepted, refused by code) are
  printed.
- **Push devices**: a seat holder registers as many devices as they can, on the browsers' push
  services and on hosts of their own: three are kept, no other host is taken.
- **A victim's mailbox**: a stranger types one victim's address, in every spelling (capitals,
  ``+tags``), on a dozen tables of their own, and all at once from many threads: the victim
  gets at most the hour's budget of mails, links only, never a notice; the typist never sees
  the link; guessed links confirm nothing.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.notify.addresses import system_resolve
from server.settings import Settings
from tests.notify.conftest import Mailbox, running_mailbox
from tests.support.address_forms import FORMS, Form
from tests.support.databases import migrated_database
from tests.support.play import running_app, set_up_table
from tests.support.push_service import Device
from tests.support.testclient import TestClient

URL_FORMS = [f for f in FORMS if f.address and f.address != "[::1]"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module: each test makes its own tables."""
    with migrated_database("sqlite", tmp_path_factory.mktemp("notify")) as url:
        settings = Settings(
            database_url=url,
            public_url="http://testserver",
            secret_key="notify-attacks",
            bot_delay=0.0,
            rate_limit=1000.0,
            create_rate=1000,
            push_hosts="*",  # any host: what is tried here is the address check
        )
        with running_app(settings) as client:
            yield client


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def literal(form: Form) -> str:
    """The form as a URL's host: an IPv6 address in brackets, its zone escaped."""
    if ":" in form.address and not form.address.startswith("["):
        return f"[{form.address.replace('%', '%25')}]"
    return form.address


def answering(address: str) -> Any:
    async def resolve(_host: str, _port: int) -> list[str]:
        return [address]

    return resolve


def own_table(app: TestClient) -> tuple[str, str]:
    table_id, tokens = set_up_table(app, "toy", 2)
    assert tokens[0] is not None
    return table_id, tokens[0]


def try_webhooks(app: TestClient, table_id: str, token: str, urls: list[str]) -> Counter[str]:
    outcomes: Counter[str] = Counter()
    for url in urls:
        answer = app.post(f"/api/tables/{table_id}/webhook", json={"url": url},
                          headers=bearer(token))  # fmt: skip
        outcomes["accepted" if answer.status_code == 200 else answer.json()["code"]] += 1
    return outcomes


def test_a_webhook_url_reaches_only_public_addresses_in_every_form(app: TestClient) -> None:
    table_id, token = own_table(app)
    outcomes: Counter[str] = Counter()
    for form in URL_FORMS:
        url = f"http://{literal(form)}/hook"
        got = try_webhooks(app, table_id, token, [url])
        outcomes += got
        assert ("accepted" in got) is form.public, (form, got)
        stored = app.get(f"/api/tables/{table_id}/notifications", headers=bearer(token))
        assert (stored.json()["webhook"] == url) is form.public
    print(f"webhook literals: {len(URL_FORMS)} forms, {dict(outcomes)}")
    assert set(outcomes) <= {"accepted", "private_webhook", "bad_webhook"}


def test_a_webhook_name_resolving_to_any_form_reaches_only_public_ones(app: TestClient) -> None:
    table_id, token = own_table(app)
    guard = app.app.state.webhook_guard  # type: ignore[attr-defined]
    outcomes: Counter[str] = Counter()
    try:
        for form in URL_FORMS:
            guard.resolve = answering(form.address)
            got = try_webhooks(app, table_id, token, ["https://hook.example/x"])
            outcomes += got
            assert ("accepted" in got) is form.public, (form, got)
    finally:
        guard.resolve = system_resolve
    print(f"webhook names: {len(URL_FORMS)} forms, {dict(outcomes)}")


def try_endpoint(app: TestClient, table_id: str, token: str, endpoint: str) -> str:
    """Subscribe ``endpoint`` for seat 0; 'accepted' (and removed again) or the code."""
    body = {**Device(endpoint=endpoint).subscription(), "lang": "en"}
    route = f"/api/tables/{table_id}/seats/0/push"
    answer = app.post(route, json=body, headers=bearer(token))
    if answer.status_code != 201:
        return str(answer.json()["code"])
    removed = app.delete(f"{route}/{answer.json()['id']}", headers=bearer(token))
    assert removed.status_code == 204
    return "accepted"


def test_a_push_endpoint_reaches_only_public_addresses_in_every_form(app: TestClient) -> None:
    table_id, token = own_table(app)
    outcomes: Counter[str] = Counter()
    for form in URL_FORMS:
        got = try_endpoint(app, table_id, token, f"https://{literal(form)}/wpush/1")
        outcomes[got] += 1
        assert (got == "accepted") is form.public, (form, got)
    print(f"push literals: {len(URL_FORMS)} forms, {dict(outcomes)}")
    assert set(outcomes) <= {"accepted", "private_endpoint", "bad_subscription"}


def test_a_push_host_resolving_to_any_form_reaches_only_public_ones(app: TestClient) -> None:
    table_id, token = own_table(app)
    push = app.app.state.push  # type: ignore[attr-defined]
    outcomes: Counter[str] = Counter()
    try:
        for form in URL_FORMS:
            push.resolve = answering(form.address)
            got = try_endpoint(app, table_id, token, "https://fcm.googleapis.com/fcm/send/x1")
            outcomes[got] += 1
            assert (got == "accepted") is form.public, (form, got)
    finally:
        push.resolve = system_resolve
    print(f"push names: {len(URL_FORMS)} forms, {dict(outcomes)}")


def test_a_seat_holder_cannot_make_one_notice_into_many_posts_or_post_anywhere(
    tmp_path: Path,
) -> None:
    with migrated_database("sqlite", tmp_path) as url:
        settings = Settings(database_url=url, secret_key="k", bot_delay=0.0)  # the defaults
        with running_app(settings) as app:
            app.app.state.push.resolve = answering("142.250.185.74")  # type: ignore[attr-defined]
            table_id, token = own_table(app)
            route = f"/api/tables/{table_id}/seats/0/push"
            outcomes: Counter[str] = Counter()
            endpoints = [f"https://fcm.googleapis.com/fcm/send/d{n}" for n in range(10)]
            endpoints += [
                "https://attacker.example/collect",
                "https://142.250.185.74/fcm/send/x",
                "https://fcm.googleapis.com.attacker.example/x",
                "https://fcm.googleapis.com:8443/x",
                "https://attacker.example/.push.apple.com/x",
            ]
            for endpoint in endpoints:
                body = {**Device(endpoint=endpoint).subscription(), "lang": "en"}
                answer = app.post(route, json=body, headers=bearer(token))
                outcomes["accepted" if answer.status_code == 201 else answer.json()["code"]] += 1
            print(f"push devices: {len(endpoints)} tried, {dict(outcomes)}")
            assert outcomes == {"accepted": 3, "too_many_devices": 7, "unknown_push_service": 5}
            listed = app.get(route, headers=bearer(token)).json()["devices"]
            assert {d["service"] for d in listed} == {"fcm.googleapis.com"} and len(listed) == 3


VICTIM = "victim@example.org"
SPELLINGS = [VICTIM, "Victim@Example.org", " VICTIM@EXAMPLE.ORG ", "victim+1@example.org",
             "Victim+guildhall@EXAMPLE.org", "victim+a+b@example.org"]  # fmt: skip


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    with running_mailbox() as box:
        yield box


def mail_settings(url: str, mailbox: Mailbox, **more: Any) -> Settings:
    return Settings(
        database_url=url, public_url="http://testserver", secret_key="mail-attacks",
        bot_delay=0.0, rate_limit=1000.0, create_rate=1000, smtp_host="127.0.0.1",
        smtp_port=mailbox.port, smtp_tls="none", **more,
    )  # fmt: skip


def set_email(app: TestClient, table_id: str, token: str, address: str | None) -> Any:
    return app.post(f"/api/tables/{table_id}/seats/0/email", json={"email": address},
                    headers=bearer(token))  # fmt: skip


def test_a_stranger_cannot_flood_a_mailbox_from_many_tables(
    tmp_path: Path, mailbox: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with (
        migrated_database("sqlite", tmp_path) as url,
        running_app(mail_settings(url, mailbox)) as app,
    ):
        tables = [own_table(app) for _ in range(12)]
        outcomes: Counter[str] = Counter()
        seen = []
        for table_id, token in tables:
            for spelling in SPELLINGS:
                answer = set_email(app, table_id, token, spelling)
                outcomes[str(answer.json().get("code", answer.status_code))] += 1
                seen.append(answer.text)
            seen.append(app.get(f"/api/tables/{table_id}/notifications",
                                headers=bearer(token)).text)  # fmt: skip
            seen.append(app.get(f"/api/tables/{table_id}").text)
        mails = mailbox.wait_for(10)
        print(f"mail flood: {sum(outcomes.values())} tries on {len(tables)} tables, "
              f"{dict(outcomes)}, {len(mails)} mails reached the victim")  # fmt: skip
        assert len(mails) == 10  # GUILDHALL_MAIL_PER_HOUR, and not one more
        assert all("Confirm your e-mail" in str(mail["Subject"]) for _to, mail in mails)
        assert set(outcomes) <= {"200", "mail_budget", "too_many_links"}
        # The links went to the victim alone: no answer, document or log line of ours
        # shows the typist a token of them.
        tokens = [str(m.get_content()).split("/email/confirm/")[1].split()[0] for _t, m in mails]
        seen += [repr(r.__dict__) for r in caplog.records if r.name.startswith("server")]
        assert not [t for t in tokens if any(t in text for text in seen)]
        # Guessed links confirm nothing.
        for _ in range(200):
            assert app.post(f"/email/confirm/{secrets.token_urlsafe(32)}").status_code == 404
        for table_id, token in tables:
            answer = app.get(f"/api/tables/{table_id}/notifications", headers=bearer(token))
            assert answer.json()["email_confirmed"] is False


@pytest.mark.parametrize(
    "database_kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_many_requests_at_once_cannot_overspend_an_address_s_budget(
    tmp_path: Path, mailbox: Mailbox, database_kind: str
) -> None:
    with (
        migrated_database(database_kind, tmp_path) as url,
        running_app(mail_settings(url, mailbox, mail_per_hour=3)) as app,
    ):
        tables = [own_table(app) for _ in range(12)]
        start = threading.Barrier(len(tables))
        codes: list[str] = []

        def attack(table_id: str, token: str) -> None:
            start.wait()
            answer = set_email(app, table_id, token, VICTIM)
            codes.append(str(answer.json().get("code", answer.status_code)))

        threads = [threading.Thread(target=attack, args=t) for t in tables]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"budget race ({database_kind}): {dict(Counter(codes))}")
        assert Counter(codes) == {"200": 3, "mail_budget": 9}
        assert len(mailbox.wait_for(3)) == 3


def test_a_rogue_player_can_neither_set_nor_confirm_another_seat_s_address(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    with (
        migrated_database("sqlite", tmp_path) as url,
        running_app(mail_settings(url, mailbox)) as app,
    ):
        table_id, tokens = set_up_table(app, "toy", 2)
        anna, rogue = str(tokens[0]), str(tokens[1])
        assert set_email(app, table_id, anna, "anna@example.org").status_code == 200
        for address in (VICTIM, None, "anna@example.org"):
            refused = set_email(app, table_id, rogue, address)
            assert refused.json()["code"] == "not_your_seat"
        theirs = app.get(f"/api/tables/{table_id}/notifications", headers=bearer(rogue)).json()
        assert theirs["email"] is None and "anna@example.org" not in str(theirs)
        assert len(mailbox.wait_for(1)) == 1  # Anna's link, nobody else's
        mine = app.get(f"/api/tables/{table_id}/notifications", headers=bearer(anna)).json()
        assert (mine["email"], mine["email_confirmed"]) == ("anna@example.org", False)
