"""The Web Push sender against a push service on 127.0.0.1 (tests/support/push_service.py),
which checks every request (VAPID JWT, TTL, Topic, Urgency) and decrypts its body with
http_ece and the keys a browser would have made."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest

from server.notify.push import (
    PushMessage,
    PushSender,
    YourMove,
    message,
    time_left,
    topic,
)
from server.notify.push import strings as dictionary
from server.notify.push_resolver import GuardedResolver, RefusedAddress
from server.notify.subscriptions import Subscription
from server.notify.vapid import VapidKeys
from server.settings import Settings
from tests.support.push_service import TOPIC, Device, PushService


def settings(**changes: Any) -> Settings:
    values: dict[str, Any] = {
        "public_url": "https://games.example.org",
        "secret_key": "push-test",
        "push_allow_http": True,
        "push_hosts": PushService.HOSTS,
        "webhook_allow_private": True,
    }
    return Settings(**{**values, **changes})


@pytest.fixture
def service() -> Iterator[PushService]:
    with PushService() as running:
        yield running


@pytest.fixture
def keys(service: PushService) -> VapidKeys:
    made = VapidKeys.generate()
    service.vapid_key = made.public_key
    return made


def subscription(device: Device, lang: str = "en") -> Subscription:
    sub = device.subscription()
    return Subscription(
        1, "T1", 2, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], lang
    )


def move(**changes: Any) -> YourMove:
    values: dict[str, Any] = {
        "table_id": "T1",
        "table_name": "Friday night",
        "seat": 2,
        "seat_name": "Bea",
        "seconds_left": 600,
    }
    return YourMove(**{**values, **changes})


async def send(keys: VapidKeys, device: Device, msg: PushMessage | None, **changes: Any) -> Any:
    assert msg is not None
    sender = PushSender(keys, settings(**changes))
    try:
        return await sender.send(subscription(device), msg)
    finally:
        await sender.close()


async def test_a_push_is_signed_timed_topical_and_decrypts(
    service: PushService, keys: VapidKeys
) -> None:
    device = service.device()
    msg = message(move(), "en", "push-test")
    result = await send(keys, device, msg)
    assert result.outcome == "sent" and result.status == 201
    [got] = service.pushes_to(device)
    assert got.problems == []
    assert got.claims["aud"] == service.origin
    assert time.time() < got.claims["exp"] <= time.time() + 24 * 3600
    assert got.claims["sub"] == "https://games.example.org"
    assert got.headers["ttl"] == "600"
    assert got.headers["topic"] == topic("T1", "push-test")
    assert got.headers["urgency"] == "normal"
    # Nothing but what the table shows everyone, and the page's path (no seat token).
    assert got.payload == {
        "title": "Your move: Friday night",
        "body": "Bea, it is your move (10 min left).",
        "url": "/t/T1",
        "tag": topic("T1", "push-test"),
    }


async def test_the_reminder_is_urgent_and_says_how_little_time_is_left(
    service: PushService, keys: VapidKeys
) -> None:
    device = service.device()
    msg = message(move(seconds_left=120, reminder=True), "en", "push-test")
    await send(keys, device, msg)
    [got] = service.pushes_to(device)
    assert got.problems == []
    assert got.headers["urgency"] == "high"
    assert got.payload is not None and got.payload["body"] == "Bea, only 2 min left for your move."


async def test_the_contact_comes_from_the_settings(service: PushService, keys: VapidKeys) -> None:
    device = service.device()
    msg = message(move(), "en", "push-test")
    await send(keys, device, msg, push_contact="mailto:admin@games.example.org")
    [got] = service.pushes_to(device)
    assert got.problems == [] and got.claims["sub"] == "mailto:admin@games.example.org"


async def test_a_notice_is_written_in_the_language_of_the_subscription(
    service: PushService, keys: VapidKeys
) -> None:
    device = service.device()
    msg = message(move(seconds_left=3 * 86400), "hu", "push-test")
    await send(keys, device, msg)
    [got] = service.pushes_to(device)
    assert got.payload is not None
    assert got.payload["title"] == "Te jössz: Friday night"
    assert got.payload["body"] == "Bea, te következel (még 3 nap)."


async def test_a_push_signed_with_another_key_is_refused_and_not_retried(
    service: PushService, keys: VapidKeys
) -> None:
    device = service.device()
    msg = message(move(), "en", "push-test")
    result = await send(VapidKeys.generate(), device, msg)
    assert (result.outcome, result.status) == ("failed", 403)
    [got] = service.pushes_to(device)
    assert got.problems == ["VAPID key is not the one the device subscribed with"]


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        (410, "gone"),
        (404, "gone"),
        (429, "retry"),
        (503, "retry"),
        (400, "failed"),
        (413, "failed"),
    ],
)
async def test_what_the_push_service_answers_decides_the_outcome(
    service: PushService, keys: VapidKeys, answer: int, outcome: str
) -> None:
    device = service.device()
    device.answer = answer
    if answer == 429:
        device.headers["Retry-After"] = "120"
    result = await send(keys, device, message(move(), "en", "push-test"))
    assert (result.outcome, result.status) == (outcome, answer)
    if answer == 429:
        assert result.retry_after == 120.0


async def test_a_redirect_is_never_followed(service: PushService, keys: VapidKeys) -> None:
    device = service.device()
    elsewhere = service.device()
    device.answer = 307
    device.headers["Location"] = elsewhere.endpoint
    result = await send(keys, device, message(move(), "en", "push-test"))
    assert (result.outcome, result.status) == ("failed", 307)
    assert service.pushes_to(elsewhere) == []


async def test_a_private_address_is_refused_unless_allowed(
    service: PushService, keys: VapidKeys
) -> None:
    literal = service.device()
    named = service.device(origin=service.origin.replace("127.0.0.1", "localhost"))
    msg = message(move(), "en", "push-test")
    for device in (literal, named):
        result = await send(keys, device, msg, webhook_allow_private=False)
        assert result.outcome == "gone"
        assert service.pushes_to(device) == []
    # The same endpoints with the self-hoster's permission: it was the address that was refused.
    for device in (literal, named):
        assert (await send(keys, device, msg)).outcome == "sent"
        assert [r.problems for r in service.pushes_to(device)] == [[]]


async def test_an_http_endpoint_is_refused_without_the_test_setting(
    service: PushService, keys: VapidKeys
) -> None:
    device = service.device()
    msg = message(move(), "en", "push-test")
    result = await send(keys, device, msg, push_allow_http=False)
    assert result.outcome == "gone"
    assert service.pushes_to(device) == []


async def test_the_resolver_refuses_a_name_with_a_private_address() -> None:
    resolver = GuardedResolver()
    try:
        with pytest.raises(RefusedAddress):
            await resolver.resolve("localhost", 443)
    finally:
        await resolver.close()


async def test_an_unreachable_service_is_retried(keys: VapidKeys) -> None:
    with PushService() as gone:
        device = gone.device()
    result = await send(keys, device, message(move(), "en", "push-test"))
    assert result.outcome == "retry"


async def test_the_log_names_no_endpoint(
    service: PushService, keys: VapidKeys, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ok, refused = service.device(), service.device()
    with PushService() as closed:
        unreachable = closed.device()
    msg = message(move(), "en", "push-test")
    await send(keys, ok, msg)
    await send(keys, refused, msg, webhook_allow_private=False)
    await send(keys, unreachable, msg)
    secrets = [d.endpoint.rsplit("/", 1)[1] for d in (ok, refused, unreachable)]
    for record in caplog.records:
        text = record.getMessage() + repr(record.__dict__)
        assert not any(secret in text for secret in secrets), text


def test_ttl_is_the_time_left_and_a_day_when_untimed() -> None:
    timed = message(move(seconds_left=3600), "en", "k")
    untimed = message(move(seconds_left=None), "en", "k")
    assert timed is not None and timed.ttl == 3600
    assert untimed is not None and untimed.ttl == 86400
    assert untimed.body == "Bea, it is your move."
    assert message(move(seconds_left=0.5), "en", "k") is None


def test_the_topic_is_one_per_table_short_and_url_safe() -> None:
    first, again, other = topic("T1", "k"), topic("T1", "k"), topic("T2", "k")
    assert first == again != other
    assert TOPIC.fullmatch(first) and len(first) <= 32
    assert "T1" not in first


def test_time_left_reads_well() -> None:
    words = dictionary("en")
    assert [time_left(s, words) for s in (40, 600, 5 * 3600, 30 * 3600, 86400 * 2)] == [
        "40 s",
        "10 min",
        "5 h",
        "30 h",
        "2 days",
    ]


def test_a_language_not_shipped_gets_english() -> None:
    msg = message(move(seconds_left=None), "xx", "k")
    assert msg is not None and msg.title == "Your move: Friday night"


async def test_pushes_to_many_devices_go_out_together(
    service: PushService, keys: VapidKeys
) -> None:
    devices = [service.device() for _ in range(5)]
    sender = PushSender(keys, settings())
    msg = message(move(), "en", "push-test")
    assert msg is not None
    try:
        results = await asyncio.gather(*(sender.send(subscription(d), msg) for d in devices))
    finally:
        await sender.close()
    assert [r.outcome for r in results] == ["sent"] * 5
    assert all(service.pushes_to(d)[0].problems == [] for d in devices)


async def test_a_push_service_the_settings_no_longer_allow_is_not_sent_to(
    service: PushService, keys: VapidKeys
) -> None:
    device = service.device()
    msg = message(move(), "en", "push-test")
    result = await send(keys, device, msg, push_hosts="")
    assert result.outcome == "gone"  # its row is deleted (PushNotices)
    assert service.pushes_to(device) == []
    assert (await send(keys, device, msg, push_hosts="127.0.0.1")).outcome == "sent"
