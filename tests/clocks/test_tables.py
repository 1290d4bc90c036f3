"""Clocks on real tables: stored with every change, fired by the keeper through the command
path (with an injected clock, no sleeps), handed over through the seat model."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from server.clocks import model
from server.engine import RuleError, get_game
from server.store.models import CommandRow, TableRow
from server.tables import ServiceError, TableData

from .conftest import T0, FakeTime, Process

LIVE = {"mode": "live", "plan": 60, "action": 20, "bank": 30, "increment": 5}


async def two_people(process: Process, clock: dict[str, Any]) -> tuple[str, str, str]:
    data, anna = await process.service.create_table("toy", 2, {}, [], "Anna", clock=clock)
    _seat, bela = await process.service.join(
        data.id, "Bela", invite=process.service.invite_code(data.id)
    )
    return data.id, anna, bela


async def stored(process: Process, table_id: str) -> TableRow:
    async with process.service.sessions.read() as session:
        row = (
            await session.execute(sa.select(TableRow).where(TableRow.id == table_id))
        ).scalar_one()
        return row


async def commands(process: Process, table_id: str) -> list[CommandRow]:
    async with process.service.sessions.read() as session:
        query = (
            sa.select(CommandRow).where(CommandRow.table_id == table_id).order_by(CommandRow.seq)
        )
        return list((await session.execute(query)).scalars())


async def test_the_clock_is_chosen_at_creation_and_changed_by_the_creator_before_the_start(
    process: Process,
) -> None:
    table_id, anna, bela = await two_people(process, LIVE)
    data = await process.service.get_stored(table_id)
    assert data.clock is not None and data.clock["config"]["bank"] == 30
    with pytest.raises(ServiceError) as refused:
        await process.service.set_clock(table_id, bela, {"mode": "untimed"})
    assert refused.value.code == "not_creator"
    with pytest.raises(ServiceError) as bad:
        await process.service.set_clock(table_id, anna, {"mode": "days", "per_decision": 60})
    assert bad.value.code == "bad_clock"
    assert (await process.service.get_stored(table_id)).clock == data.clock  # unchanged
    changed = await process.service.set_clock(
        table_id, anna, {"mode": "days", "per_decision": 43200}
    )
    assert changed.clock is not None and changed.clock["config"]["mode"] == "days"
    await process.service.start(table_id, anna)
    with pytest.raises(ServiceError) as late:
        await process.service.set_clock(table_id, anna, LIVE)
    assert late.value.code == "already_started"


async def test_every_change_stores_the_clock_and_its_next_deadline(
    process: Process, now: FakeTime
) -> None:
    table_id, anna, _bela = await two_people(process, LIVE)
    started = await process.service.start(table_id, anna)
    row = await stored(process, table_id)
    # Both seats plan at once: 60 s free and a 30 s bank from the start.
    assert row.due_at == pytest.approx(T0 + 90)
    assert row.clock == started.clock
    now.at = T0 + 70  # seat 0 used its free time and 10 s of its bank
    await process.service.submit(table_id, 0, {"type": "plan", "value": 2})
    row = await stored(process, table_id)
    assert row.clock is not None
    assert row.clock["seats"][0]["since"] is None
    assert row.clock["seats"][0]["bank"] == pytest.approx(20)
    assert row.due_at == pytest.approx(T0 + 90)  # seat 1's deadline now
    held = await process.service.get(table_id)
    assert held.clock == row.clock and held.due_at == row.due_at


async def test_a_timeout_is_covered_by_a_bot_from_the_seat_and_logged(
    process: Process, now: FakeTime
) -> None:
    table_id, anna, _bela = await two_people(process, LIVE)
    await process.service.start(table_id, anna)
    await process.service.submit(table_id, 1, {"type": "plan", "value": 1})
    now.at = T0 + 89
    assert await process.keeper.sweep() == 0  # not yet
    now.at = T0 + 91
    assert await process.keeper.sweep() == 1
    data = await process.service.get_stored(table_id)
    rows = await commands(process, table_id)
    assert rows[-1].seat == 0 and rows[-1].client_id is None
    assert [e["type"] for e in data.seat_log] == ["timed_out"]
    assert data.seat_log[0]["name"] == "Anna" and data.seat_log[0]["seat"] == 0
    assert data.clock is not None and data.clock["seats"][0]["timeouts"] == 1
    assert data.seats[0].bot is None  # one timeout: the seat is still Anna's to play
    assert await process.keeper.sweep() == 0  # fired once


async def test_a_command_just_before_the_deadline_wins_over_the_timeout(
    process: Process, now: FakeTime
) -> None:
    table_id, anna, _bela = await two_people(process, LIVE)
    await process.service.start(table_id, anna)
    await process.service.submit(table_id, 1, {"type": "plan", "value": 1})
    seen = await process.service.get_stored(table_id)
    now.at = T0 + 91  # the timeout was seen at this version ...
    await process.service.submit(table_id, 0, {"type": "plan", "value": 3})  # ... Anna first
    count = len(await commands(process, table_id))
    assert await process.keeper._fire_once(seen) is True  # its write found the table moved on
    assert len(await commands(process, table_id)) == count
    data = await process.service.get_stored(table_id)
    assert data.seat_log == () and data.clock is not None
    assert data.clock["seats"][0]["timeouts"] == 0


async def test_two_timeouts_in_a_row_hand_the_seat_over_until_its_player_takes_it_back(
    process: Process, now: FakeTime
) -> None:
    table_id, anna, _bela = await two_people(process, LIVE)
    await process.service.start(table_id, anna)
    for _ in range(40):
        data = await process.service.get_stored(table_id)
        if data.seats[0].bot is not None or data.status != "playing":
            break
        # Bela plays at once; Anna never does.
        if 1 in process_to_act(data):
            await process.service.submit(table_id, 1, legal_first(data, 1))
            continue
        assert data.due_at is not None
        now.at = max(now.at, data.due_at) + 0.5
        await process.keeper.sweep()
    data = await process.service.get_stored(table_id)
    kinds = [e["type"] for e in data.seat_log]
    assert kinds == ["timed_out", "timeout_handover"]
    assert data.seats[0].bot == "random" and data.seats[0].stand_in
    # The seat model decides: Anna's token no longer plays; her reclaim returns the seat.
    access = await process.service.authenticate(table_id, anna)
    assert not access.plays
    await process.settle()
    back = await process.service.reclaim(table_id, anna, 0)
    assert back.seats[0].bot is None
    assert back.clock is not None and back.clock["seats"][0]["timeouts"] == 0
    assert [e["type"] for e in back.seat_log][-1] == "seat_reclaimed"


async def test_over_days_one_timeout_hands_the_seat_over(process: Process, now: FakeTime) -> None:
    table_id, anna, _bela = await two_people(process, {"mode": "days", "per_decision": 43200})
    await process.service.start(table_id, anna)
    await process.service.submit(table_id, 1, {"type": "plan", "value": 1})
    now.at = T0 + 43200 + 1
    await process.keeper.sweep()
    data = await process.service.get_stored(table_id)
    assert [e["type"] for e in data.seat_log] == ["timeout_handover"]
    assert data.seats[0].stand_in


async def test_the_creator_adds_time_and_the_log_says_so(process: Process, now: FakeTime) -> None:
    table_id, anna, bela = await two_people(process, LIVE)
    await process.service.start(table_id, anna)
    with pytest.raises(ServiceError) as refused:
        await process.keeper.add_time(table_id, bela, 1, 60)
    assert refused.value.code == "not_creator"
    data = await process.keeper.add_time(table_id, anna, 1, 60)
    assert data.due_at == pytest.approx(T0 + 90)  # seat 0 is due first still
    assert data.clock is not None and model.deadline(data.clock, 1) == pytest.approx(T0 + 150)
    assert data.seat_log[-1]["type"] == "time_added" and data.seat_log[-1]["seconds"] == 60
    now.at = T0 + 120
    await process.keeper.sweep()  # seat 0 covered, seat 1 still has time
    data = await process.service.get_stored(table_id)
    assert [e["seat"] for e in data.seat_log if e["type"] == "timed_out"] == [0]


def dancing(_kind: str, _game: str, _view: dict[str, Any], _seat: int, _seed: str) -> Any:
    """A bot that answers a command no game accepts."""
    return {"type": "dance"}


async def test_a_bot_whose_command_is_refused_plays_its_first_legal_command(
    process: Process, now: FakeTime
) -> None:
    process.keeper._decide = dancing
    data, anna = await process.service.create_table(
        "toy", 2, {}, [None, "random"], "Anna", clock=LIVE
    )
    await process.service.start(data.id, anna)
    assert await process.keeper.sweep() == 1  # the bot seat's turn
    rows = await commands(process, data.id)
    assert [(row.seat, row.command) for row in rows] == [(1, {"type": "plan", "value": 1})]
    now.at = T0 + 91  # Anna's time ran out: the cover bot dances too
    assert await process.keeper.sweep() == 1
    rows = await commands(process, data.id)
    assert (rows[-1].seat, rows[-1].command) == (0, {"type": "plan", "value": 1})
    stored_data = await process.service.get_stored(data.id)
    assert [e["type"] for e in stored_data.seat_log] == ["timed_out"]


@pytest.mark.parametrize("fault", ["refuses_every_command", "lists_no_command"])
async def test_a_seat_no_bot_move_is_taken_for_is_left_alone_a_while_not_due_at_every_sweep(
    process: Process, now: FakeTime, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    game = get_game("toy")
    apply, legal = game.apply, game.legal

    def broken_apply(state: Any, seat: int, cmd: dict[str, Any]) -> Any:
        if seat == 1:
            raise RuleError("broken", "this game takes nothing from seat 1")
        return apply(state, seat, cmd)

    def broken_legal(state: Any, seat: int) -> list[dict[str, Any]]:
        return [] if seat == 1 else legal(state, seat)

    if fault == "refuses_every_command":
        monkeypatch.setattr(game, "apply", broken_apply)
    else:
        monkeypatch.setattr(game, "legal", broken_legal)
    data, anna = await process.service.create_table(
        "toy", 2, {}, [None, "random"], "Anna", clock=LIVE
    )
    await process.service.start(data.id, anna)
    assert await process.keeper.sweep() == 1
    assert (await stored(process, data.id)).due_at == pytest.approx(T0 + 60)
    assert await process.keeper.sweep() == 0  # not due again at once
    now.at = T0 + 60
    assert await process.keeper.sweep() == 1  # tried again, then left alone twice as long
    row = await stored(process, data.id)
    assert row.clock is not None and row.clock["seats"][1]["stalled"]["until"] == T0 + 180
    assert row.due_at == pytest.approx(T0 + 90)  # Anna's deadline is still kept
    assert await commands(process, data.id) == []
    # The rest of the table goes on: Anna plays, and her timeouts are covered.
    await process.service.submit(data.id, 0, {"type": "plan", "value": 2})
    assert (await stored(process, data.id)).due_at == pytest.approx(T0 + 180)


async def test_untimed_tables_never_time_out(process: Process, now: FakeTime) -> None:
    table_id, anna, _bela = await two_people(process, {"mode": "untimed"})
    await process.service.start(table_id, anna)
    assert (await stored(process, table_id)).due_at is None
    now.at = T0 + 30 * 86400
    assert await process.keeper.sweep() == 0
    with pytest.raises(ServiceError) as refused:
        await process.keeper.add_time(table_id, anna, 0, 60)
    assert refused.value.code == "untimed"


async def test_after_downtime_live_deadlines_are_extended_once(
    process: Process, now: FakeTime, settings: Any
) -> None:
    table_id, anna, _bela = await two_people(process, LIVE)
    await process.service.start(table_id, anna)
    await process.keeper.sweep()  # the beat: the server was up at T0
    now.at = T0 + 1000  # down for 1000 s; every deadline passed meanwhile
    assert await process.keeper.extend_after_downtime() == 1
    data = await process.service.get_stored(table_id)
    assert data.due_at == pytest.approx(T0 + 1090)  # the downtime given back
    assert await process.keeper.extend_after_downtime() == 0  # the beat moved on: once
    assert await process.keeper.sweep() == 0  # nothing fires at once after the restart


async def test_a_live_deadline_that_ran_out_during_a_restart_of_seconds_gets_the_grace(
    process: Process, now: FakeTime, settings: Any
) -> None:
    table_id, anna, _bela = await two_people(process, LIVE)
    await process.service.start(table_id, anna)  # both seats due at T0 + 90
    now.at = T0 + 88
    await process.keeper.sweep()  # the last beat before the restart
    now.at = T0 + 93  # back 5 s later: the deadlines ran out meanwhile
    assert await process.keeper.extend_after_downtime() == 1
    data = await process.service.get_stored(table_id)
    assert data.due_at == pytest.approx(T0 + 93 + settings.clock_grace)
    assert await process.keeper.sweep() == 0
    # A gap of one sweep is a process running: nothing is given.
    now.at += settings.clock_sweep
    assert await process.keeper.extend_after_downtime() == 0


def process_to_act(data: TableData) -> set[int]:
    from server.engine import get_game

    assert data.state is not None
    return get_game(data.game).to_act(data.state)


def legal_first(data: TableData, seat: int) -> dict[str, Any]:
    from server.engine import get_game

    assert data.state is not None
    return get_game(data.game).legal(data.state, seat)[0]


def test_the_api_takes_shows_and_changes_the_clock(settings: Any) -> None:
    from tests.support.play import running_app

    with running_app(settings) as client:
        bad = client.post(
            "/api/tables",
            json={"game": "toy", "seats": 2, "name": "Anna", "clock": {"mode": "days"}},
        )
        assert bad.status_code == 201  # days with its default of one day
        refused = client.post(
            "/api/tables",
            json={"game": "toy", "seats": 2, "name": "Anna", "clock": {"mode": "live", "plan": 1}},
        )
        assert refused.status_code == 400 and refused.json()["code"] == "bad_clock"
        made = client.post(
            "/api/tables",
            json={
                "game": "toy",
                "seats": 2,
                "name": "Anna",
                "bots": [None, "random"],
                "public": True,
            },
        ).json()
        table_id, token = made["table_id"], made["token"]
        summary = client.get(f"/api/tables/{table_id}").json()
        assert summary["clock"]["mode"] == "untimed" and summary["server_time"] > 0
        headers = {"Authorization": f"Bearer {token}"}
        changed = client.post(
            f"/api/tables/{table_id}/clock", json={"mode": "live", "bank": 60}, headers=headers
        )
        assert changed.status_code == 200, changed.text
        assert changed.json()["clock"]["config"]["bank"] == 60
        # The lobby's list shows the public table's clock; the private ones are not listed.
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table_id]
        assert listed[0]["clock"]["mode"] == "live"
        assert listed[0]["clock"]["config"]["bank"] == 60
        started = client.post(f"/api/tables/{table_id}/start", headers=headers).json()
        assert started["clock"]["seats"][0]["running"] is True
        assert started["clock"]["seats"][0]["deadline"] > started["server_time"]
        more = client.post(
            f"/api/tables/{table_id}/seats/0/time", json={"seconds": 30}, headers=headers
        )
        assert more.status_code == 200, more.text
        assert more.json()["clock"]["seats"][0]["bank"] == 90
        for seconds in (0.5, 0, 7 * 86400 + 1):
            refused = client.post(
                f"/api/tables/{table_id}/seats/0/time", json={"seconds": seconds}, headers=headers
            )
            assert refused.status_code == 400, refused.text
            assert refused.json()["code"] == "bad_time"
            assert "between 1 second and 7 days" in refused.json()["message"]
        late = client.post(
            f"/api/tables/{table_id}/clock", json={"mode": "untimed"}, headers=headers
        )
        assert late.status_code == 409 and late.json()["code"] == "already_started"
