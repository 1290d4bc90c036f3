"""The notification edges attacked through the routes of the real app (SQLite): a stranger
makes a table of their own (so holds its creator's token and a seat) and tries to make the
server send where it must not.

- **Webhook and push addresses**: every address form of tests/support/address_forms.py, typed
  as a URL's literal host and as a name that resolves to it, is accepted only when it is
  public; no refused one is stored. The figures (forms tried, accepted, refused by code) are
  printed.
- **Push devices**: a seat holder registers as many devices as they can, on the browsers' push
  services and on hosts of their own: three are kept, no other host is taken.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.notify.addresses import system_resolve
from server.settings import Settings
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
