"""Each bot decision is made once: when the table moves on while a bot thinks, the keeper
plays what the bot chose if its seat is still asked the same thing (its view unchanged), and
asks the bot again only when what the seat sees changed."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

from server.bots.strasbourg import choose
from server.engine import Rng, get_game

from .conftest import Process
from .test_tables import LIVE, commands

Meanwhile = Callable[[], Coroutine[Any, Any, Any]]


class Thinking:
    """An injected bot (the keeper's ``decide``) that plays its seat's first plan or first
    legal command, and, while it thinks, lets ``meanwhile`` change the table once per call
    (run on the event loop, as another request would be)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, meanwhile: Meanwhile | None) -> None:
        self.loop = loop
        self.meanwhile = meanwhile
        self.seen: list[tuple[int, str]] = []  # (seat, its view) of every decision asked for

    def __call__(self, _kind: str, _game: str, view: dict[str, Any], seat: int, _seed: str) -> Any:
        self.seen.append((seat, json.dumps(view, sort_keys=True)))
        if self.meanwhile is not None:
            asyncio.run_coroutine_threadsafe(self.meanwhile(), self.loop).result(timeout=30)
        plans = [c for c in view["legal"] if c["type"] == "plan"]
        return (plans or view["legal"])[0]


async def test_a_table_moving_on_unseen_by_the_bot_does_not_make_it_think_again(
    process: Process,
) -> None:
    data, anna = await process.service.create_table(
        "toy", 2, {}, [None, "random"], "Anna", clock=LIVE
    )
    await process.service.start(data.id, anna)

    added = 0

    async def add_time() -> None:  # the creator gives herself time: the bot sees no change
        nonlocal added
        if not added:
            await process.keeper.add_time(data.id, anna, 0, 60)
            added += 1

    bot = Thinking(asyncio.get_running_loop(), add_time)
    process.keeper._decide = bot
    await process.keeper.fire(data.id)
    assert added == 1
    rows = await commands(process, data.id)
    assert [(row.seat, row.command) for row in rows] == [(1, {"type": "plan", "value": 1})]
    assert len(bot.seen) == process.keeper.decisions == 1  # thought once, played once
    assert process.keeper.bot_moves == 1


async def test_a_bot_thinks_again_when_what_its_seat_sees_changed(process: Process) -> None:
    data, anna = await process.service.create_table(
        "toy", 2, {}, [None, "random"], "Anna", clock=LIVE
    )
    await process.service.start(data.id, anna)

    async def anna_commits() -> None:  # Anna's plan committed: the bot's view shows it
        now = await process.service.get_stored(data.id)
        assert now.state is not None
        if 0 in get_game("toy").to_act(now.state):
            await process.service.submit(data.id, 0, {"type": "plan", "value": 3})

    bot = Thinking(asyncio.get_running_loop(), anna_commits)
    process.keeper._decide = bot
    await process.keeper.fire(data.id)
    rows = await commands(process, data.id)
    assert [row.seat for row in rows] == [0, 1]
    # The first decision was on a view where Anna had not committed; the bot's command is
    # the one it chose on the table as it is.
    assert len(bot.seen) == process.keeper.decisions == 2
    assert bot.seen[0] != bot.seen[1]
    assert process.keeper.bot_moves == 1


async def test_in_a_whole_game_no_bot_decides_twice_on_the_same_view(process: Process) -> None:
    """Strasbourg with simultaneous planning, a person and two bots: whenever a bot thinks
    while the person is asked too, the person's next command lands before the bot's (the
    person plays only then, or when no bot is asked). Every
    bot command stored was decided once; a bot decides again only after its view changed."""
    game = get_game("strasbourg")
    bots: list[str | None] = [None, "greedy", "greedy"]
    data, anna = await process.service.create_table(
        "strasbourg", 3, {"planning": "simultaneous"}, bots, "Anna", clock={"mode": "untimed"}
    )
    await process.service.start(data.id, anna)
    rng = Rng(7)
    person_moves = 0

    async def person_plays() -> bool:
        nonlocal person_moves
        now = await process.service.get_stored(data.id)
        if now.state is None or now.status != "playing" or 0 not in game.to_act(now.state):
            return False
        view = game.view(now.state, 0)
        if not view["legal"]:
            return False
        await process.service.submit(data.id, 0, choose(view, 0, rng))
        person_moves += 1
        return True

    bot = Thinking(asyncio.get_running_loop(), person_plays)
    process.keeper._decide = bot
    for _ in range(5_000):
        data = await process.service.get_stored(data.id)
        if data.status == "finished":
            break
        await process.keeper.fire(data.id)  # the bots first: the person plays as they think
        if (await process.service.get_stored(data.id)).version == data.version:
            await person_plays()
    assert data.status == "finished" and data.result is not None
    rows = await commands(process, data.id)
    bot_commands = sum(row.seat != 0 for row in rows)
    assert bot_commands == process.keeper.bot_moves
    assert person_moves == len(rows) - bot_commands
    repeated = [key for key, times in Counter(bot.seen).items() if times > 1]
    assert not repeated, f"{len(repeated)} views decided more than once"
    assert len(bot.seen) == process.keeper.decisions
    # Decisions thrown away are those whose seat saw the person's step (a committed plan).
    assert bot_commands <= len(bot.seen) <= bot_commands + person_moves // 4, (
        f"{len(bot.seen)} decisions for {bot_commands} bot commands, {person_moves} person's"
    )
    print(f"\n{len(bot.seen)} decisions, {bot_commands} bot commands, {person_moves} person's")
