"""A seat's devices on a real database (SQLite and Postgres): a notice goes to every device of
the seat and no other, a device its push service calls gone (410, 404) loses its row, and
what the seat's devices answered decides whether the notice is retried."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest

import tests.support.toy  # noqa: F401  (registers the "toy" game)
from server.notify import subscriptions
from server.notify.push import PushNotices, YourMove
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings
from server.store.db import make_engine, make_sessionmaker
from server.tables import TableService
from tests.support.push_service import Device, PushService


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with PushService() as running:
        yield running


class Seats:
    """A started toy table of three seats, its subscriptions and the notices to them."""

    def __init__(self, notices: PushNotices, service: TableService, table_id: str, token: str):
        self.notices, self.service, self.table_id, self.token = notices, service, table_id, token

    async def add(self, seat: int, device: Device) -> None:
        sub = device.subscription()
        keys = (sub["keys"]["p256dh"], sub["keys"]["auth"])
        await subscriptions.add(
            self.notices.sessions, self.table_id, seat, device.endpoint, keys, "en"
        )

    async def endpoints(self, seat: int) -> list[str]:
        found = await subscriptions.for_seat(self.notices.sessions, self.table_id, seat)
        return [s.endpoint for s in found]

    def move(self, seat: int) -> YourMove:
        return YourMove(self.table_id, "Toy night", seat, f"P{seat}", 300.0)


@pytest.fixture
async def seats(database_url: str, push_service: PushService) -> AsyncIterator[Seats]:
    settings = Settings(
        database_url=database_url,
        secret_key="k",
        bot_delay=0.0,
        push_allow_http=True,
        push_hosts=PushService.HOSTS,
        webhook_allow_private=True,
    )
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    service = TableService(settings, sessions, MemoryFanOut())
    data, token = await service.create_table("toy", 3, {}, [], "P0")
    notices = await PushNotices(sessions, settings).start()
    push_service.vapid_key = notices.public_key
    try:
        yield Seats(notices, service, data.id, token)
    finally:
        await notices.close()
        await service.close()
        await engine.dispose()


async def test_a_notice_reaches_every_device_of_the_seat_and_only_them(
    seats: Seats, push_service: PushService
) -> None:
    phone, laptop, other = push_service.device(), push_service.device(), push_service.device()
    await seats.add(1, phone)
    await seats.add(1, laptop)
    await seats.add(2, other)
    assert await seats.notices.notify(seats.move(1)) == "sent"
    for device in (phone, laptop):
        [got] = push_service.pushes_to(device)
        assert got.problems == []
        assert (
            got.payload is not None and got.payload["body"] == "P1, it is your move (5 min left)."
        )
    assert push_service.pushes_to(other) == []


async def test_a_device_gone_at_its_push_service_loses_its_row(
    seats: Seats, push_service: PushService
) -> None:
    gone, moved, kept = push_service.device(), push_service.device(), push_service.device()
    gone.answer, moved.answer = 410, 404
    for device in (gone, moved, kept):
        await seats.add(0, device)
    assert await seats.notices.notify(seats.move(0)) == "sent"
    assert await seats.endpoints(0) == [kept.endpoint]
    kept.answer = 410
    assert await seats.notices.notify(seats.move(0)) == "gone"
    assert await seats.endpoints(0) == []
    # A seat without a device: nothing to send, nothing sent.
    assert await seats.notices.notify(seats.move(0)) == "gone"
    assert len(push_service.received) == 4


async def test_a_busy_push_service_means_a_retry_and_the_device_is_kept(
    seats: Seats, push_service: PushService
) -> None:
    busy = push_service.device()
    busy.answer = 503
    await seats.add(2, busy)
    assert await seats.notices.notify(seats.move(2)) == "retry"
    assert await seats.endpoints(2) == [busy.endpoint]
    busy.answer = 201
    assert await seats.notices.notify(seats.move(2)) == "sent"


async def test_a_stale_notice_is_not_sent(seats: Seats, push_service: PushService) -> None:
    device = push_service.device()
    await seats.add(0, device)
    late = YourMove(seats.table_id, "Toy night", 0, "P0", 0.2)
    assert await seats.notices.notify(late) == "failed"
    assert push_service.pushes_to(device) == []


@dataclass(frozen=True)
class Notice:
    """A notice as the outbox hands it to a channel (server.notify.notice.Notice's fields)."""

    table_id: str
    seat: int
    kind: str
    table_name: str
    seat_name: str
    seconds_left: float | None
    url: str = ""


async def test_as_a_channel_a_reminder_is_urgent_and_an_undeliverable_notice_is_gone(
    seats: Seats, push_service: PushService
) -> None:
    device = push_service.device()
    await seats.add(1, device)
    reminder = Notice(seats.table_id, 1, "reminder", "Toy · t1", "P1", 7200.0)
    assert await seats.notices.deliver(reminder) == "sent"
    [got] = push_service.pushes_to(device)
    assert (got.headers["urgency"], got.headers["ttl"]) == ("high", "7200")
    assert got.payload is not None and got.payload["body"] == "P1, only 2 h left for your move."
    device.answer = 400  # the push service refuses this notice: trying again would not help
    assert await seats.notices.deliver(reminder) == "gone"
    assert await seats.endpoints(1) == [device.endpoint]  # the device itself stays


async def test_the_channel_has_an_address_for_the_seats_of_playing_tables_with_a_device(
    seats: Seats, push_service: PushService
) -> None:
    await seats.add(0, push_service.device())
    await seats.add(2, push_service.device())
    await seats.add(2, push_service.device())

    async def addressed() -> set[tuple[str, int]]:
        async with seats.notices.sessions() as session:
            return await subscriptions.addressed(session)

    assert await addressed() == set()  # the table has not started
    for seat in (1, 2):
        invite = seats.service.invite_code(seats.table_id)
        await seats.service.join(seats.table_id, f"P{seat}", invite=invite)
    await seats.service.start(seats.table_id, seats.token)
    assert await addressed() == {(seats.table_id, 0), (seats.table_id, 2)}


async def test_a_seat_holding_more_devices_than_the_cap_is_pushed_to_its_newest_three(
    seats: Seats, push_service: PushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Five devices subscribed while a seat could still hold ten.
    monkeypatch.setattr(subscriptions, "MAX_DEVICES", 10)
    devices = [push_service.device() for _ in range(5)]
    for device in devices:
        await seats.add(1, device)
    monkeypatch.setattr(subscriptions, "MAX_DEVICES", 3)
    assert await seats.notices.notify(seats.move(1)) == "sent"
    assert [len(push_service.pushes_to(d)) for d in devices] == [0, 0, 1, 1, 1]
