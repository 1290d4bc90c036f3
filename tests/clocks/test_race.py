"""Two services on one database (two app processes' worth of state: their own held tables,
connections and keepers) race every deadline: exactly one move is stored each time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from server.settings import Settings

from .conftest import T0, FakeTime, Process
from .test_tables import LIVE, commands, two_people

RUNS = 25


def plans(_kind: str, _game: str, view: dict[str, Any], _seat: int, _seed: str) -> Any:
    """A bot that always commits a plan: a covered decision is then exactly one move."""
    return next(c for c in view["legal"] if c["type"] == "plan")


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_two_processes_racing_one_timeout_store_one_bot_move(
    process: Process, settings: Settings, now: FakeTime
) -> None:
    other = Process(settings, now)
    process.keeper._decide = other.keeper._decide = plans
    try:
        for _ in range(RUNS):
            now.at = T0
            table_id, anna, _bela = await two_people(process, LIVE)
            await process.service.start(table_id, anna)
            await process.service.submit(table_id, 1, {"type": "plan", "value": 1})
            await other.service.get_stored(table_id)  # both hold the table as it is
            now.at = T0 + 91
            await asyncio.gather(process.keeper.fire(table_id), other.keeper.fire(table_id))
            rows = await commands(process, table_id)
            assert [row.seat for row in rows] == [1, 0]  # one covered move, not two
            data = await other.service.get_stored(table_id)
            assert [entry["type"] for entry in data.seat_log] == ["timed_out"]
        assert process.keeper.fired + other.keeper.fired == RUNS
        print(
            f"\n{RUNS} races: {process.keeper.fired} won by one, {other.keeper.fired} by the other"
        )
    finally:
        await other.close()


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_two_processes_racing_one_bot_turn_store_one_move(
    process: Process, settings: Settings, now: FakeTime
) -> None:
    other = Process(settings, now)
    process.keeper._decide = other.keeper._decide = plans
    try:
        for _ in range(RUNS):
            data, anna = await process.service.create_table(
                "toy", 2, {}, [None, "random"], "Anna", clock={"mode": "untimed"}
            )
            await process.service.start(data.id, anna)
            await other.service.get_stored(data.id)
            # The bot is due at once (bot_delay 0); one planning step is its whole decision.
            await asyncio.gather(process.keeper.fire(data.id), other.keeper.fire(data.id))
            rows = await commands(process, data.id)
            assert [row.seat for row in rows] == [1]
        moves = process.keeper.bot_moves + other.keeper.bot_moves
        assert moves == RUNS
        print(f"\n{RUNS} bot turns: {process.keeper.bot_moves} / {other.keeper.bot_moves}")
    finally:
        await other.close()


async def test_a_timeout_seen_by_a_process_holding_an_old_version_does_nothing(
    process: Process, settings: Settings, now: FakeTime
) -> None:
    other = Process(settings, now)
    try:
        table_id, anna, _bela = await two_people(process, LIVE)
        await process.service.start(table_id, anna)
        await process.service.submit(table_id, 1, {"type": "plan", "value": 1})
        stale = await other.service.get_stored(table_id)
        now.at = T0 + 91
        await process.service.submit(table_id, 0, {"type": "plan", "value": 2})  # just in time
        assert await other.keeper._fire_once(stale) is True  # its write found nothing
        assert [row.seat for row in await commands(process, table_id)] == [1, 0]
        assert (await other.service.get_stored(table_id)).seat_log == ()
    finally:
        await other.close()


async def test_two_processes_starting_on_a_new_database_write_one_beat(
    process: Process, settings: Settings, now: FakeTime
) -> None:
    other = Process(settings, now)
    try:
        extended = await asyncio.gather(
            process.keeper.extend_after_downtime(), other.keeper.extend_after_downtime()
        )
        assert list(extended) == [0, 0]  # the first start ever: no downtime to give back
        async with process.service.sessions.read() as session:
            from server.store.models import ClockBeat

            beats = (await session.execute(sa.select(ClockBeat))).scalars().all()
        assert [(b.id, b.at) for b in beats] == [(1, T0)]
    finally:
        await other.close()


async def test_a_process_starting_while_another_extends_after_downtime_fires_nothing_early(
    process: Process, settings: Settings, now: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = Process(settings, now)
    try:
        tables = []
        for _ in range(2):
            table_id, anna, _bela = await two_people(process, LIVE)
            await process.service.start(table_id, anna)
            tables.append(table_id)
        await process.keeper.sweep()  # the beat: the server was up at T0
        now.at = T0 + 1000  # every process down for 1000 s; every deadline passed meanwhile
        change_clock = process.service.change_clock
        others: list[int] = []

        async def the_other_starts_meanwhile(*args: Any, **kwargs: Any) -> Any:
            if not others:  # between reading the beat and extending the first table
                others.append(await other.keeper.extend_after_downtime())
                await other.keeper.sweep()  # its first sweep
            return await change_clock(*args, **kwargs)

        monkeypatch.setattr(process.service, "change_clock", the_other_starts_meanwhile)
        extended = await process.keeper.extend_after_downtime()
        await process.keeper.sweep()
        await other.keeper.sweep()
        for table_id in tables:
            assert await commands(process, table_id) == []  # no deadline fired
            data = await other.service.get_stored(table_id)
            assert data.seat_log == ()
            assert data.due_at == pytest.approx(T0 + 1090)  # the downtime given back once
        assert extended + others[0] == len(tables)
    finally:
        await other.close()
