"""Who made each command (``commands.by``), on real tables through every path that plays one:
a person's token (null), a bot seat and a bot standing in for its player ("bot": the clock
keeper's bot turns on a timed table, the bot runner on an untimed one), the clock's bot
covering a decision whose time ran out ("clock", on every command of that decision); and the
finished game's record, which carries ``by`` exactly on those commands and still verifies
and replays (SQLite and Postgres, injected clock, no sleeps)."""

from __future__ import annotations

from typing import Any

from server.api.replay import replay_steps
from server.commands.verify import replay as verify
from server.engine import get_game
from server.tables import TableData
from server.tables.seats import BOT

from .conftest import T0, FakeTime, Process
from .test_tables import LIVE, commands, two_people

DAYS = {"mode": "days", "per_decision": 43200}


def waiting_first(_kind: str, _game: str, view: dict[str, Any], _seat: int, _seed: str) -> Any:
    """The cover bot, injected: it asks to wait while it may, then plans 1, so one covered
    planning decision takes two commands."""
    if {"type": "wait"} in view["legal"]:
        return {"type": "wait"}
    return {"type": "plan", "value": 1}


def to_act(data: TableData) -> set[int]:
    assert data.state is not None
    return get_game(data.game).to_act(data.state)


def first_legal(data: TableData, seat: int) -> dict[str, Any]:
    assert data.state is not None
    return get_game(data.game).legal(data.state, seat)[0]


async def test_a_covered_decision_is_the_clocks_on_each_of_its_commands(
    process: Process, now: FakeTime
) -> None:
    service = process.service
    table_id, anna, bela = await two_people(process, LIVE)
    tokens = {0: service.token_hash(anna), 1: service.token_hash(bela)}
    await service.start(table_id, anna)
    await service.submit(table_id, 1, {"type": "plan", "value": 2}, "b-1", by=tokens[1])
    process.keeper._decide = waiting_first
    now.at = T0 + 91  # Anna's time ran out: the cover bot waits, then plans, for her
    assert await process.keeper.sweep() == 1
    rows = await commands(process, table_id)
    assert [(r.seat, r.command["type"], r.by) for r in rows] == [
        (1, "plan", None),
        (0, "wait", "clock"),
        (0, "plan", "clock"),
    ]
    data = await service.get_stored(table_id)
    assert [e["type"] for e in data.seat_log] == ["timed_out"]  # the log names it once
    # The action that follows is Anna's own again, as is the rest of the game.
    while (data := await service.get_stored(table_id)).status == "playing":
        seat = min(to_act(data))
        await service.submit(table_id, seat, first_legal(data, seat), by=tokens[seat])
    rows = await commands(process, table_id)
    assert [r.by for r in rows] == [None, "clock", "clock"] + [None] * (len(rows) - 3)

    record = await service.record(table_id)
    assert record["commands"][1:3] == [
        {"seat": 0, "cmd": {"type": "wait"}, "by": "clock"},
        {"seat": 0, "cmd": {"type": "plan", "value": 1}, "by": "clock"},
    ]
    assert [set(e) for e in record["commands"][3:]] == [{"seat", "cmd"}] * (len(rows) - 3)
    assert "by" not in record["commands"][0]
    assert verify(record) == record["result"]
    assert replay_steps(record)[2]["command"] == record["commands"][1]
    # A record of the same game saved before ``by`` was stored verifies as it always did.
    older = [{"seat": e["seat"], "cmd": e["cmd"]} for e in record["commands"]]
    assert verify({**record, "commands": older}) == record["result"]


async def test_a_bot_seat_and_a_stand_in_after_a_timeout_are_the_bots(
    process: Process, now: FakeTime
) -> None:
    """Over days, one timeout hands Anna's seat to a stand-in: the clock keeper then plays
    it, as it plays the table's bot seat, each move a bot turn."""
    service = process.service
    data, anna = await service.create_table("toy", 2, {}, [None, "random"], "Anna", clock=DAYS)
    await service.start(data.id, anna)
    assert await process.keeper.sweep() == 1  # the bot seat plans
    await service.submit(data.id, 0, {"type": "plan", "value": 3}, "a-1", service.token_hash(anna))
    assert to_act(await service.get_stored(data.id)) == {0}  # Anna's action, never played
    now.at = T0 + 43200 + 1
    for _ in range(20):
        if (await service.get_stored(data.id)).status != "playing":
            break
        await process.keeper.sweep()
    data = await service.get_stored(data.id)
    assert data.status == "finished" and data.seats[0].stand_in
    assert [e["type"] for e in data.seat_log] == ["timeout_handover"]
    rows = await commands(process, data.id)
    assert [(r.seat, r.by) for r in rows[:3]] == [(1, "bot"), (0, None), (0, "bot")]
    assert all(r.by == "bot" for r in rows[2:])
    record = await service.record(data.id)
    assert [e.get("by") for e in record["commands"]] == [r.by for r in rows]
    assert verify(record) == record["result"]


async def test_a_stand_in_by_its_players_choice_is_the_bots_till_she_takes_the_seat_back(
    process: Process,
) -> None:
    """An untimed table: the clock keeper plays the bot seat and Bela's stand-in, the bot
    runner's actor (``seats.BOT``, for tables from before clocks) a move of the bot seat;
    once Bela takes her seat back, her commands are hers again."""
    service = process.service
    data, anna = await service.create_table("toy", 3, {}, [None, None, "random"], "Anna")
    _seat, bela = await service.join(data.id, "Bela", invite=service.invite_code(data.id))
    tokens = {0: service.token_hash(anna), 1: service.token_hash(bela)}
    await service.start(data.id, anna)
    await service.assign_bot(data.id, bela, 1, "random")  # Bela lets a bot play for her
    mine: list[int] = []  # the steps the people played themselves
    by_runner = None
    for _ in range(200):
        data = await service.get_stored(data.id)
        if data.status != "playing":
            break
        if data.seq >= 6 and data.seats[1].stand_in:
            data = await service.reclaim(data.id, bela, 1)
        people = sorted(to_act(data) & {s.seat for s in data.seats if s.bot is None})
        if people:
            seat = people[0]
            await service.submit(data.id, seat, first_legal(data, seat), by=tokens[seat])
            mine.append(data.seq + 1)
        elif by_runner is None and 2 in to_act(data):
            await service.submit(data.id, 2, first_legal(data, 2), by=BOT)
            by_runner = data.seq + 1
        else:
            assert await process.keeper.sweep() == 1
    assert data.status == "finished" and data.seats[1].bot is None
    rows = await commands(process, data.id)
    assert {r.seq for r in rows if r.by is None} == set(mine)
    assert {r.by for r in rows if r.seq not in mine} == {"bot"}
    assert by_runner is not None and rows[by_runner - 1].by == "bot"
    stand_in = [r.seq for r in rows if r.seat == 1 and r.by == "bot"]
    bela_own = [r.seq for r in rows if r.seat == 1 and r.by is None]
    assert stand_in and bela_own and max(stand_in) < min(bela_own)
