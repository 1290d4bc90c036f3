"""A whole game of each game in which one person never moves: the clocks cover their
decisions, hand the seat to a stand-in, and the table finishes; bots move only through the
clock keeper (any process's), with an injected clock."""

from __future__ import annotations

import pytest

from server.engine import get_game
from tests.support import games

from .conftest import FakeTime, Process

LIVE = {"mode": "live", "plan": 60, "action": 20, "bank": 30, "increment": 5}


# The clocks' own toy game, then every game (tests/support/games.py).
@pytest.mark.parametrize("game", ["toy", *games.names()])
async def test_a_person_who_never_moves_does_not_stall_the_table(
    process: Process, now: FakeTime, game: str
) -> None:
    seats = max(3, get_game(game).min_seats)
    bots: list[str | None] = [None] + ["random"] * (seats - 1)
    data, anna = await process.service.create_table(game, seats, {}, bots, "Anna", clock=LIVE)
    await process.service.start(data.id, anna)
    for _ in range(20_000):
        data = await process.service.get_stored(data.id)
        if data.status == "finished":
            break
        assert data.due_at is not None, "a playing table with nothing due would stall"
        now.at = max(now.at, data.due_at)
        await process.keeper.sweep()
    assert data.status == "finished" and data.result is not None
    async with process.service.sessions.read() as session:
        from server.store import queries

        rows = await queries.command_rows(session, data.id)
    assert all(row.client_id is None for row in rows)  # nobody typed a command
    kinds = [entry["type"] for entry in data.seat_log]
    # Anna's first decision was covered and logged, her second hand her seat to a stand-in.
    assert kinds == ["timed_out", "timeout_handover"]
    assert all(entry["name"] == "Anna" and entry["seat"] == 0 for entry in data.seat_log)
    covered = process.keeper.fired
    assert covered == 2  # one covered decision, one hand-over: each one logged
    assert data.seats[0].stand_in
    assert process.keeper.bot_moves > 0
