"""SIGKILL the server at random points while websocket clients play; nothing acknowledged
is lost and every game ends exactly as a replay of its log.

Clients behave as the browser does: on a lost connection they reconnect with ``since`` and
resend their unacknowledged command with the same id. The seed of the kill points is printed
when the test fails, so a failure can be reproduced with ``CRASH_SEED``.

The fast tier proves each guarantee once: one kill (or one fail-over) while two two-seat
tables play to their end. The soak tier (``make soak``) runs the full size on both stores:
two four-seat tables and three kills, ``GUILDHALL_SOAK_SCALE`` times over.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.commands.verify import replay
from server.devtools.load.measure import Stats
from server.devtools.load.players import Budget, Player, run_players, seat_players
from server.devtools.load.servers import ServerProcess, run_migrate, running_servers, server_env
from tests.scale.log import assert_acked_in_log, assert_linear_and_replays, load_table
from tests.scale.pg import fresh_database

GAME = "norenberc"


@dataclass(frozen=True)
class Size:
    """How much play a run holds: tables of ``seats`` played at once, ``kills`` SIGKILLs
    (the fail-over kills once), the whole run ``rounds`` times over."""

    tables: int
    seats: int
    kills: int
    rounds: int = 1


# A kill lands after 5-30 acks: two two-seat tables (about 80 commands) leave room for one.
FAST = Size(tables=2, seats=2, kills=1)
FULL = Size(
    tables=2, seats=4, kills=3, rounds=max(1, int(os.environ.get("GUILDHALL_SOAK_SCALE", "1")))
)
SIZES = [pytest.param(FAST, id="fast"), pytest.param(FULL, id="full", marks=pytest.mark.soak)]


@contextlib.contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"
    else:
        with fresh_database("gh_crash") as url:
            yield url


async def kill_and_restart(
    server: ServerProcess, stats: Stats, rng: random.Random, play: asyncio.Task[float], times: int
) -> int:
    """Kill the server ``times`` times, each after a random number of acks plus a random
    delay (so some kills land mid-command), restarting it on the same port; returns kills."""
    kills = 0
    for _ in range(times):
        target = stats.acked + rng.randint(5, 30)
        while stats.acked < target and not play.done():
            await asyncio.sleep(0.005)
        if play.done():
            break
        await asyncio.sleep(rng.uniform(0, 0.05))
        server.kill()
        kills += 1
        await asyncio.sleep(rng.uniform(0, 0.3))
        await asyncio.to_thread(server.start)
    return kills


async def records(server: ServerProcess, tables: list[list[Player]]) -> dict[str, dict[str, Any]]:
    """The published record of every table, by id (GET /api/tables/{id}/record)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        answers = [await client.get(f"/api/tables/{row[0].table_id}/record") for row in tables]
    pairs = zip(tables, answers, strict=True)
    return {row[0].table_id: answer.raise_for_status().json() for row, answer in pairs}


def check_table(url: str, players: list[Player], record: dict[str, Any]) -> None:
    """The stored game is finished, linear, equal to its replay, and holds every ack; its
    published record is that log and ``guildhall verify`` reproduces its result."""
    stored = load_table(url, players[0].table_id)
    assert stored.status == "finished"
    assert_linear_and_replays(stored)
    assert record["commands"] == [{"seat": c["seat"], "cmd": c["command"]} for c in stored.commands]
    assert replay(record) == stored.result
    for player in players:
        assert_acked_in_log(stored, player.seat, player.acked)
        assert player.doc is not None and player.doc["game"]["result"] == stored.result
    # A command committed just before a kill was resent after it and acknowledged then:
    # every stored command ended up acknowledged exactly once.
    assert len(stored.commands) == sum(len(p.acked) for p in players)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def test_games_survive_sigkill_at_random_points(
    kind: str, size: Size, tmp_path: Path
) -> None:
    for n in range(size.rounds):
        await survive_sigkill(kind, size, tmp_path / f"run-{n}")


async def survive_sigkill(kind: str, size: Size, tmp_path: Path) -> None:
    tmp_path.mkdir()
    seed = int(os.environ.get("CRASH_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    with database(kind, tmp_path) as url:
        env = server_env(url, GUILDHALL_BOT_DELAY="0")
        await asyncio.to_thread(run_migrate, env)
        server = ServerProcess(env, tmp_path / "server.log")
        await asyncio.to_thread(server.start)
        try:
            stats = Stats(tables=size.tables)
            tables = await seat_players([server.url], size.tables, size.seats, GAME, stats)
            budget = Budget(stats, 10**6, time.monotonic() + 180)
            play = asyncio.create_task(run_players(tables, budget, reconnect=True))
            kills = await kill_and_restart(server, stats, rng, play, size.kills)
            await play
            published = await records(server, tables)
        finally:
            server.stop()
        context = f"CRASH_SEED={seed}, stats={stats}"
        assert kills == size.kills, context
        assert stats.reconnects >= size.kills, context
        assert not [code for code in stats.errors if code.startswith("client:")], context
        assert stats.finished_tables == size.tables, context
        for players in tables:
            check_table(url, players, published[players[0].table_id])


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("size", SIZES)
async def test_clients_of_a_killed_process_fail_over_to_the_other(
    size: Size, tmp_path: Path
) -> None:
    for n in range(size.rounds):
        await fail_over(size, tmp_path / f"run-{n}")


async def fail_over(size: Size, tmp_path: Path) -> None:
    tmp_path.mkdir()
    seed = int(os.environ.get("CRASH_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    with (
        fresh_database("gh_failover") as url,
        running_servers(url, 2, tmp_path, GUILDHALL_BOT_DELAY="0") as (doomed, survivor),
    ):
        stats = Stats(tables=size.tables)
        servers = [doomed.url, survivor.url]
        tables = await seat_players(servers, size.tables, size.seats, GAME, stats)
        for player in (p for row in tables for p in row):
            player.fail_over_to(survivor.ws_url)
        budget = Budget(stats, 10**6, time.monotonic() + 180)
        play = asyncio.create_task(run_players(tables, budget, reconnect=True))
        target = rng.randint(10, 15 * size.seats)  # 10-60 acks at four seats, as ever
        while stats.acked < target and not play.done():
            await asyncio.sleep(0.005)
        await asyncio.sleep(rng.uniform(0, 0.05))
        doomed.kill()  # for good: its clients must carry on through the survivor
        await play
        context = f"CRASH_SEED={seed}, stats={stats}"
        # Checked before the records are read: an unfinished table has no record (409), and
        # the seed and figures are what a failure must report.
        assert stats.finished_tables == size.tables, context
        # Each client of the doomed process (half of every table's seats) reconnected.
        assert stats.reconnects >= size.seats * size.tables // 2, context
        assert not [code for code in stats.errors if code.startswith("client:")], context
        published = await records(survivor, tables)
        for players in tables:
            check_table(url, players, published[players[0].table_id])
