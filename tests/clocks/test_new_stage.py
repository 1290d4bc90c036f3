"""A new round is a new decision, for the clock too: when the last seat still planning passes
and so ends the round, the next round's planning opens in the same command with the same
seats asked, and each of them starts a decision of its own (its full time, its own notice),
whether the pass was the player's or the bot's covering a timeout (injected clock, no sleeps).
"""

from __future__ import annotations

from typing import Any

from server.clocks import model
from server.engine import get_game
from server.notify import notice
from server.tables import clock as table_clock

from .conftest import T0, FakeTime, Process
from .test_tables import commands

# No bank and no increment: a seat's deadline is exactly its decision's start plus 30 s.
LIVE = {"mode": "live", "plan": 30, "action": 20, "bank": 0, "increment": 0}


async def norenberc_for_two(process: Process) -> tuple[str, str]:
    data, anna = await process.service.create_table(
        "norenberc", 2, {"planning": "simultaneous"}, [], "Anna", clock=LIVE
    )
    await process.service.join(data.id, "Bela", invite=process.service.invite_code(data.id))
    await process.service.start(data.id, anna)
    return data.id, anna


def round_of(data: Any) -> int:
    assert data.state is not None
    return int(data.state["round"])


def passing(_kind: str, _game: str, _view: dict[str, Any], _seat: int, _seed: str) -> Any:
    """The cover bot, injected: it passes, as a bot may with nothing worth planning."""
    return {"type": "pass"}


async def test_a_pass_that_ends_the_round_gives_the_passing_seat_a_fresh_decision(
    process: Process, now: FakeTime
) -> None:
    table_id, _anna = await norenberc_for_two(process)
    await process.service.submit(table_id, 1, {"type": "pass"})  # Bela passes at once
    now.at = T0 + 12
    await process.service.submit(table_id, 0, {"type": "pass"})  # Anna 12 s later
    data = await process.service.get_stored(table_id)
    assert data.state is not None and round_of(data) == 2
    assert get_game("norenberc").to_act(data.state) == {0, 1}
    assert data.clock is not None
    # Both seats plan round 2 with its whole 30 s, counted from the pass that opened it.
    for seat in (0, 1):
        assert data.clock["seats"][seat]["since"] == T0 + 12
        assert model.remaining(data.clock, seat, T0 + 12) == {"free": 30.0, "bank": 0.0}
        assert model.deadline(data.clock, seat) == T0 + 42
    # A new decision is owed its own "your move" notice (its start names it).
    assert notice.wanted(data.clock, 0, T0 + 12) == (T0 + 12, "turn")


async def test_a_covered_seats_bot_whose_pass_ends_the_round_plays_only_that_decision(
    process: Process, now: FakeTime
) -> None:
    table_id, _anna = await norenberc_for_two(process)
    process.keeper._decide = passing
    await process.service.submit(table_id, 1, {"type": "pass"})
    now.at = T0 + 31  # Anna's 30 s ran out: the cover bot passes for her, ending round 1
    assert await process.keeper.sweep() == 1
    data = await process.service.get_stored(table_id)
    rows = await commands(process, table_id)
    assert [(row.seat, row.command["type"]) for row in rows] == [(1, "pass"), (0, "pass")]
    assert [e["type"] for e in data.seat_log] == ["timed_out"]
    assert round_of(data) == 2 and data.clock is not None
    entry = data.clock["seats"][0]
    # Round 2's planning is Anna's own decision: no bot on it, the whole 30 s from now on;
    # the timeout still counts, so the next one in a row hands the seat to a bot.
    assert not entry["covered"] and entry["since"] == T0 + 31
    assert model.deadline(data.clock, 0) == T0 + 61
    assert entry["timeouts"] == 1 and data.seats[0].bot is None
    assert await process.keeper.sweep() == 0  # nothing is due: no bot plays it at once
    assert len(await commands(process, table_id)) == 2
    now.at = T0 + 60
    assert await process.keeper.sweep() == 0  # still Anna's time


def test_a_new_stage_is_another_phase_or_planning_that_ended_and_opened_again() -> None:
    game = get_game("norenberc")
    state = game.new(2, "stages", game.default_options())
    passed, events = game.apply(state, 1, {"type": "pass"})
    assert not table_clock.is_new_stage(state, passed, events)  # one seat of the phase done
    again, events = game.apply(passed, 0, {"type": "pass"})
    assert again["phase"] == "planning" == state["phase"]
    assert table_clock.is_new_stage(passed, again, events)  # the round ended and began again
    planned, events = game.apply(state, 1, game.legal(state, 1)[0])
    acting, events = game.apply(planned, 0, game.legal(planned, 0)[0])
    assert acting["phase"] == "action" and table_clock.is_new_stage(planned, acting, events)
