"""Pause by agreement, "away until", nudges and the hand-over vote on real tables (SQLite; the
resume at a date also on Postgres with two processes), with an injected clock: stored with
the table, logged, fired by the keeper, refused while the table is paused."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.api.errors import status_of
from server.clocks import model
from server.settings import Settings
from server.tables import ServiceError, TableData
from server.timekeeping.acts import ClockActs

from .conftest import T0, FakeTime, Process
from .test_tables import LIVE, commands, stored

DAY = 86400.0
DAYS = {"mode": "days", "per_decision": 86400}
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


async def table_of(
    process: Process, clock: dict[str, Any], names: list[str], bots: int = 0
) -> tuple[str, list[str]]:
    """A started toy table: ``names`` are people (the first made it), then ``bots`` bots."""
    seats = len(names) + bots
    kinds: list[str | None] = [None] * len(names) + ["random"] * bots
    service = process.service
    data, first = await service.create_table("toy", seats, {}, kinds, names[0], clock=clock)
    tokens = [first]
    for name in names[1:]:
        _seat, token = await service.join(data.id, name, invite=service.invite_code(data.id))
        tokens.append(token)
    await service.start(data.id, first)
    return data.id, tokens


def kinds(data: TableData) -> list[str]:
    return [entry["type"] for entry in data.seat_log]


async def refused(call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    return caught.value


@SQLITE
async def test_a_pause_by_agreement_stops_every_clock_and_every_move(
    process: Process, now: FakeTime
) -> None:
    acts = ClockActs(process.service)
    table_id, (anna, bela) = await table_of(process, LIVE, ["Anna", "Bela"], bots=1)
    now.at = T0 + 70  # 60 s free time and 10 s of bank gone for everyone
    data = await acts.propose_pause(table_id, anna, None)
    assert data.clock is not None and data.clock["proposal"]["agreed"] == [0]
    assert data.clock["paused"] is None  # Bela has not agreed: the clocks still run
    before = {seat: model.remaining(data.clock, seat, now.at) for seat in range(3)}
    data = await acts.agree_pause(table_id, bela, 1)
    assert data.clock is not None and data.clock["paused"] == {"since": T0 + 70, "until": None}
    assert kinds(data) == ["pause_proposed", "pause_agreed", "paused"]
    assert data.due_at is None  # nothing is due: no deadline, no bot move
    # No move while paused, from a person or a bot; a month later nothing has fired.
    move = process.service.submit(table_id, 0, {"type": "plan", "value": 1})
    assert (await refused(move)).code == "paused"
    count = len(await commands(process, table_id))
    now.at = T0 + 30 * DAY
    assert await process.keeper.sweep() == 0
    await process.keeper.fire(table_id)
    assert len(await commands(process, table_id)) == count
    assert (await refused(acts.propose_pause(table_id, anna, None))).code == "paused"
    # One person resumes; every seat has exactly what it had at the pause.
    data = await acts.resume(table_id, bela)
    assert data.clock is not None and data.clock["paused"] is None
    for seat in (0, 1):
        assert model.remaining(data.clock, seat, now.at) == before[seat]
    for seat in (0, 1):  # free time gone, 290 s of bank left, from the resume
        assert model.deadline(data.clock, seat) == pytest.approx(now.at + 290)
    assert kinds(data)[-1] == "resumed" and data.seat_log[-1]["name"] == "Bela"
    assert (await refused(acts.resume(table_id, anna))).code == "not_paused"
    await process.service.submit(table_id, 0, {"type": "plan", "value": 1})  # play goes on


@SQLITE
async def test_a_declined_or_withdrawn_proposal_ends_and_is_logged(
    process: Process, now: FakeTime
) -> None:
    acts = ClockActs(process.service)
    table_id, (anna, bela, cara) = await table_of(process, DAYS, ["Anna", "Bela", "Cara"])
    await acts.propose_pause(table_id, bela, T0 + DAY)
    stale = await refused(acts.agree_pause(table_id, cara, 7))
    assert stale.code == "no_proposal" and status_of(stale.code) == 409
    assert (await refused(acts.propose_pause(table_id, anna, None))).code == "proposal_open"
    data = await acts.decline_pause(table_id, cara, 1)
    assert data.clock is not None and data.clock["proposal"] is None
    assert kinds(data)[-1] == "pause_declined" and data.seat_log[-1]["name"] == "Cara"
    await acts.propose_pause(table_id, anna, None)
    data = await acts.decline_pause(table_id, anna, 2)
    assert kinds(data) == ["pause_proposed", "pause_declined", "pause_proposed", "pause_withdrawn"]
    assert (await refused(acts.agree_pause(table_id, bela, 2))).code == "no_proposal"
    bad = await refused(acts.propose_pause(table_id, anna, T0 + 31 * DAY))
    assert bad.code == "bad_time" and status_of(bad.code) == 400
    assert (await process.service.get_stored(table_id)).version == data.version  # unchanged


@SQLITE
async def test_the_pause_ends_by_itself_at_its_resume_date(process: Process, now: FakeTime) -> None:
    acts = ClockActs(process.service)
    table_id, (anna, bela) = await table_of(process, DAYS, ["Anna", "Bela"])
    until = T0 + 2 * DAY
    now.at = T0 + 3600
    await acts.propose_pause(table_id, anna, until)
    data = await acts.agree_pause(table_id, bela, 1)
    row = await stored(process, table_id)
    assert row.due_at == until and data.due_at == until  # stored: it survives a restart
    now.at = until - 1
    assert await process.keeper.sweep() == 0
    now.at = until + 5
    assert await process.keeper.sweep() == 1
    data = await process.service.get_stored(table_id)
    assert data.clock is not None and data.clock["paused"] is None
    assert kinds(data)[-1] == "pause_ended"
    # An hour of the day had gone at the pause: 23 hours from the resume.
    assert data.due_at == pytest.approx(until + 5 + DAY - 3600)


@SQLITE
async def test_away_until_is_shown_and_set_only_by_the_seat_itself(
    process: Process, now: FakeTime
) -> None:
    acts = ClockActs(process.service)
    table_id, (anna, bela) = await table_of(process, DAYS, ["Anna", "Bela"])
    due = (await process.service.get_stored(table_id)).due_at
    data = await acts.set_away(table_id, bela, 1, T0 + 5 * DAY)
    assert data.clock is not None and data.clock["seats"][1]["away_until"] == T0 + 5 * DAY
    assert data.due_at == due  # away does not stop the clock
    assert kinds(data) == ["away_set"]
    other = await refused(acts.set_away(table_id, anna, 1, None))
    assert other.code == "not_your_seat" and status_of(other.code) == 403
    assert (await refused(acts.set_away(table_id, bela, 1, T0 + 90 * DAY))).code == "bad_time"
    assert (await refused(acts.set_away(table_id, bela, 9, None))).code == "bad_seat"
    data = await acts.set_away(table_id, bela, 1, None)
    assert data.clock is not None and data.clock["seats"][1]["away_until"] is None
    live_id, (carl,) = await table_of(process, LIVE, ["Carl"], bots=1)
    assert (await refused(acts.set_away(live_id, carl, 0, T0 + DAY))).code == "not_days"


@SQLITE
async def test_nudges_are_logged_rate_limited_and_told_to_the_listeners(
    process: Process, now: FakeTime
) -> None:
    acts = ClockActs(process.service)
    told: list[tuple[str, int, int]] = []
    acts.on_nudge.append(lambda data, seat, by: told.append((data.id, seat, by)))
    table_id, (anna, bela, cara) = await table_of(process, {}, ["Anna", "Bela", "Cara"])
    await process.service.submit(table_id, 0, {"type": "plan", "value": 1})
    assert (await refused(acts.nudge(table_id, anna, 1))).code == "too_soon"
    now.at = T0 + 900
    assert (await refused(acts.nudge(table_id, bela, 0))).code == "not_to_act"  # Anna planned
    assert (await refused(acts.nudge(table_id, bela, 1))).code == "own_seat"
    data = await acts.nudge(table_id, anna, 1)
    assert kinds(data) == ["nudged"] and data.seat_log[0]["by_name"] == "Anna"
    assert told == [(table_id, 1, 0)]
    now.at = T0 + 1800
    assert (await refused(acts.nudge(table_id, anna, 1))).code == "too_soon"
    await acts.nudge(table_id, cara, 1)  # another person may
    now.at = T0 + 900 + 3600
    data = await acts.nudge(table_id, anna, 1)
    assert kinds(data) == ["nudged"] * 3 and len(told) == 3
    live_id, (carl, _dora) = await table_of(process, LIVE, ["Carl", "Dora"])
    assert (await refused(acts.nudge(live_id, carl, 1))).code == "timed"


@SQLITE
async def test_a_majority_vote_hands_a_silent_seat_to_a_stand_in_its_owner_takes_back(
    process: Process, now: FakeTime
) -> None:
    acts = ClockActs(process.service)
    names = ["Anna", "Bela", "Cara", "Dora"]
    table_id, (anna, bela, _cara, dora) = await table_of(process, {}, names)
    for seat in (0, 2, 3):
        await process.service.submit(table_id, seat, {"type": "plan", "value": 1})
    now.at = T0 + DAY - 1
    assert (await refused(acts.vote_hand_over(table_id, anna, 1))).code == "too_soon"
    now.at = T0 + DAY
    data = await acts.vote_hand_over(table_id, anna, 1)
    assert data.seats[1].bot is None and data.clock is not None
    assert data.clock["seats"][1]["votes"] == {"since": T0, "by": [0]}
    assert (await refused(acts.vote_hand_over(table_id, anna, 1))).code == "already_voted"
    data = await acts.vote_hand_over(table_id, dora, 1)  # two of three others: a majority
    assert data.seats[1].bot == "random" and data.seats[1].stand_in
    assert kinds(data) == ["bot_vote", "bot_vote", "vote_handover"]
    # Bela's token no longer acts at the table; the stand-in plays at once; she takes it back.
    assert (await refused(acts.nudge(table_id, bela, 0))).code == "seat_lost"
    assert data.due_at is not None and data.due_at <= now.at
    await process.keeper.fire(table_id)
    rows = await commands(process, table_id)
    assert rows[-1].seat == 1
    back = await process.service.reclaim(table_id, bela, 1)
    assert back.seats[1].bot is None and not back.seats[1].stand_in


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_two_processes_end_a_pause_at_its_date_once(
    process: Process, settings: Settings, now: FakeTime
) -> None:
    other = Process(settings, now)
    try:
        acts, their_acts = ClockActs(process.service), ClockActs(other.service)
        table_id, (anna, bela) = await table_of(process, LIVE, ["Anna", "Bela"])
        until = T0 + DAY
        await acts.propose_pause(table_id, anna, until)
        await their_acts.agree_pause(table_id, bela, 1)  # agreed through the other process
        await process.service.get_stored(table_id)  # both hold the paused table
        now.at = until + 1
        await asyncio.gather(process.keeper.fire(table_id), other.keeper.fire(table_id))
        data = await other.service.get_stored(table_id)
        assert kinds(data) == ["pause_proposed", "pause_agreed", "paused", "pause_ended"]
        assert data.clock is not None and data.clock["paused"] is None
        # Plan time 60 s and a 300 s bank, nothing used: the deadlines count from the resume.
        assert data.due_at == pytest.approx(until + 1 + 360)
        assert (await refused(their_acts.resume(table_id, anna))).code == "not_paused"
    finally:
        await other.close()
