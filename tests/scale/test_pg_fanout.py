"""Postgres LISTEN/NOTIFY fan-out between two instances in one process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from server import metrics
from server.realtime.pg_fanout import (
    PostgresFanOut,
    asyncpg_dsn,
    decode_payload,
    encode_payload,
)
from tests.scale.pg import fresh_database


def fanout_events(event: str) -> int:
    """This process's ``guildhall_fanout_events_total`` for ``event`` (0 when absent)."""
    sample = f'guildhall_fanout_events_total{{event="{event}"}} '
    lines = [ln for ln in metrics.render().splitlines() if ln.startswith(sample)]
    return int(float(lines[0].rsplit(" ", 1)[1])) if lines else 0


class Inbox:
    """A listener that records ``(table, version)`` and lets a test wait for a count."""

    def __init__(self) -> None:
        self.got: list[tuple[str, int]] = []
        self._changed = asyncio.Event()

    def __call__(self, table_id: str, version: int) -> None:
        self.got.append((table_id, version))
        self._changed.set()

    async def wait_for(self, count: int) -> list[tuple[str, int]]:
        async with asyncio.timeout(10):
            while len(self.got) < count:
                self._changed.clear()
                await self._changed.wait()
        return self.got


def test_payload_is_table_and_version_and_round_trips() -> None:
    assert encode_payload("t-1:x", 7) == "t-1:x:7"
    assert decode_payload("t-1:x:7") == ("t-1:x", 7)
    assert decode_payload("garbage") is None
    assert decode_payload("t:-1") is None


def test_sqlalchemy_urls_become_libpq_dsns_and_others_are_refused() -> None:
    assert asyncpg_dsn("postgresql+asyncpg://u@h:5432/d") == "postgresql://u@h:5432/d"
    assert asyncpg_dsn("postgres://u@h/d") == "postgresql://u@h/d"
    with pytest.raises(ValueError):
        asyncpg_dsn("sqlite+aiosqlite:///x.db")


@pytest.fixture
async def pair() -> AsyncIterator[tuple[PostgresFanOut, PostgresFanOut, str]]:
    with fresh_database("gh_fanout") as url:
        a, b = PostgresFanOut(url), PostgresFanOut(url)
        await a.start()
        await b.start()
        try:
            yield a, b, url
        finally:
            await a.stop()
            await b.stop()


@pytest.mark.postgres
async def test_publish_reaches_the_other_instance_and_local_subscribers_once(pair: Any) -> None:
    a, b, _ = pair
    sent, received = fanout_events("sent"), fanout_events("received")
    local, remote, other_table = Inbox(), Inbox(), Inbox()
    a.subscribe("t1", local)
    b.subscribe("t1", remote)
    b.subscribe("t2", other_table)
    for version in (1, 2, 3):
        await a.publish("t1", version)
    assert await remote.wait_for(3) == [("t1", 1), ("t1", 2), ("t1", 3)]
    # A marker published after the echoes would have arrived shows none were delivered twice.
    await a.publish("t2", 9)
    await other_table.wait_for(1)
    assert local.got == [("t1", 1), ("t1", 2), ("t1", 3)]
    assert other_table.got == [("t2", 9)]
    assert fanout_events("sent") == sent + 4
    # b heard all four; a heard none of them, they were its own.
    assert fanout_events("received") == received + 4


@pytest.mark.postgres
async def test_unsubscribed_listeners_hear_nothing_more(pair: Any) -> None:
    a, b, _ = pair
    gone, marker = Inbox(), Inbox()
    b.subscribe("t1", gone)
    b.subscribe("t2", marker)
    await a.publish("t1", 1)
    await gone.wait_for(1)
    b.unsubscribe("t1", gone)
    b.unsubscribe("t1", gone)  # twice is harmless
    await a.publish("t1", 2)
    await a.publish("t2", 1)
    await marker.wait_for(1)
    assert gone.got == [("t1", 1)]
    assert b.listeners.tables() == ["t2"]


@pytest.mark.postgres
async def test_a_failing_listener_does_not_stop_the_others(pair: Any) -> None:
    a, b, _ = pair

    def broken(_table: str, _version: int) -> None:
        raise RuntimeError("receiver bug")

    healthy = Inbox()
    b.subscribe("t1", broken)
    b.subscribe("t1", healthy)
    await a.publish("t1", 4)
    assert await healthy.wait_for(1) == [("t1", 4)]


@pytest.mark.postgres
async def test_a_killed_listen_connection_reconnects_and_resyncs(pair: Any) -> None:
    a, b, url = pair
    inbox, unknown = Inbox(), Inbox()
    b.subscribe("t1", inbox)
    b.subscribe("no-such-table", unknown)
    reconnected = fanout_events("reconnected")
    admin = await asyncpg.connect(url)
    try:
        # The part of the schema the resync reads; the table moved on while nobody listened.
        await admin.execute("CREATE TABLE tables (id text PRIMARY KEY, version int NOT NULL)")
        await admin.execute("INSERT INTO tables VALUES ('t1', 41), ('t9', 3)")
        killed = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND query LIKE 'LISTEN%'"
        )
    finally:
        await admin.close()
    assert killed == 2  # both instances' listening connections
    assert (await inbox.wait_for(1))[0] == ("t1", 41)
    await a.publish("t1", 42)
    assert await inbox.wait_for(2) == [("t1", 41), ("t1", 42)]
    assert unknown.got == []
    assert fanout_events("reconnected") >= reconnected + 1  # b's, at least; a's may lag


@pytest.mark.postgres
async def test_publish_survives_a_killed_notify_connection(pair: Any) -> None:
    a, b, url = pair
    inbox = Inbox()
    b.subscribe("t1", inbox)
    await a.publish("t1", 1)
    await inbox.wait_for(1)
    admin = await asyncpg.connect(url)
    try:
        killed = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND query LIKE 'SELECT pg_notify%'"
        )
    finally:
        await admin.close()
    assert killed == 1
    await a.publish("t1", 2)
    await a.publish("t1", 3)
    assert await inbox.wait_for(3) == [("t1", 1), ("t1", 2), ("t1", 3)]


@pytest.mark.postgres
async def test_the_sweep_announces_a_version_whose_notification_was_lost(pair: Any) -> None:
    a, b, url = pair
    inbox = Inbox()
    b.subscribe("t1", inbox)
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("CREATE TABLE tables (id text PRIMARY KEY, version int NOT NULL)")
        await admin.execute("INSERT INTO tables VALUES ('t1', 3)")
        await a.publish("t1", 3)
        await inbox.wait_for(1)
        assert await b.sweep() == 0  # nothing was missed
        swept = fanout_events("swept")
        # A writer that died between its commit and its NOTIFY.
        await admin.execute("UPDATE tables SET version = 4 WHERE id = 't1'")
    finally:
        await admin.close()
    assert await b.sweep() == 1
    assert inbox.got == [("t1", 3), ("t1", 4)]
    assert await b.sweep() == 0
    assert fanout_events("swept") == swept + 1


@pytest.mark.postgres
async def test_the_sweep_runs_by_itself() -> None:
    with fresh_database("gh_sweep") as url:
        admin = await asyncpg.connect(url)
        await admin.execute("CREATE TABLE tables (id text PRIMARY KEY, version int NOT NULL)")
        await admin.execute("INSERT INTO tables VALUES ('t1', 8)")
        fanout = PostgresFanOut(url, sweep_interval=0.05)
        inbox = Inbox()
        fanout.subscribe("t1", inbox)
        await fanout.start()
        try:
            assert await inbox.wait_for(1) == [("t1", 8)]
            await admin.execute("UPDATE tables SET version = 9 WHERE id = 't1'")
            assert (await inbox.wait_for(2))[1] == ("t1", 9)
        finally:
            await fanout.stop()
            await admin.close()


@pytest.mark.postgres
async def test_stop_while_reconnecting_closes_the_connection_being_opened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """stop() can cancel a reconnect after it connected but before it listens; that
    connection belongs to nobody yet, so the fan-out must close it (once left open,
    asyncpg warned of it at teardown)."""
    opened: list[asyncpg.Connection] = []
    listening = asyncio.Event()
    real_connect = asyncpg.connect

    async def connect(*args: Any, **kwargs: Any) -> asyncpg.Connection:
        conn = await real_connect(*args, **kwargs)
        opened.append(conn)
        return conn

    async def never_listens(self: asyncpg.Connection, *_args: Any) -> None:
        listening.set()
        await asyncio.Event().wait()

    with fresh_database("gh_fanout") as url:
        fan = PostgresFanOut(url)
        await fan.start()
        monkeypatch.setattr(asyncpg, "connect", connect)
        monkeypatch.setattr(asyncpg.Connection, "add_listener", never_listens)
        assert fan._listen_conn is not None
        fan._on_listener_lost(fan._listen_conn)
        async with asyncio.timeout(10):
            await listening.wait()
        await fan.stop()
    assert len(opened) == 1 and opened[0].is_closed()
