"""Two app processes on one Postgres database: one log per table, patches across processes.

Both processes run with ``GUILDHALL_FANOUT=postgres`` on a fresh database; clients connect to
either over real websockets on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server.devtools.load.players import SKIPPED
from server.devtools.load.servers import ServerProcess, running_servers
from server.devtools.load.tables import SeatedTable, create_table
from tests.scale.client import Conn, metric
from tests.scale.log import assert_acked_in_log, assert_linear_and_replays, load_table
from tests.scale.pg import fresh_database
from tests.support.acks import acked_id, is_ack

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

GAME, SEATS = "norenberc", 4


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[ServerProcess]]]:
    """One database and its two processes for the module: each test plays its own table (and
    reads only counters that the other test's traffic can only raise)."""
    with (
        fresh_database("gh_multi") as url,
        running_servers(
            url, 2, tmp_path_factory.mktemp("multi"), GUILDHALL_BOT_DELAY="0"
        ) as servers,
    ):
        yield url, servers


async def new_table(server: ServerProcess) -> SeatedTable:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        return await create_table(client, GAME, SEATS)


def playable(conn: Conn) -> list[dict[str, Any]]:
    """The commands a scripted player would pick from (no retract/wait)."""
    return [c for c in conn.legal if c.get("type") not in SKIPPED]


def comparable(doc: dict[str, Any]) -> dict[str, Any]:
    """A document without presence, which each process tracks for its own connections."""
    table = {k: v for k, v in doc["table"].items() if k != "seats"}
    return {**doc, "table": table}


async def settle(conns: list[Conn]) -> int:
    """Wait until every connection holds the newest version any of them has; returns it."""
    newest = max(c.version for c in conns)
    await asyncio.gather(*(c.wait_version(newest) for c in conns))
    return newest


async def test_racing_commands_through_both_processes_never_fork_the_log(cluster: Any) -> None:
    url, (a, b) = cluster
    table = await new_table(a)
    rng = random.Random(7)
    acked: dict[int, dict[str, int]] = {seat: {} for seat in range(SEATS)}
    refused = 0
    # Every seat has one tab on each process; both tabs answer the same document at once.
    tabs = [(Conn(a.ws_url, table.id, t), Conn(b.ws_url, table.id, t)) for t in table.tokens]
    async with asyncio.timeout(120):
        for pair in tabs:
            for conn in pair:
                await conn.__aenter__()
        try:
            for rnd in range(40):
                await settle([c for pair in tabs for c in pair])
                if tabs[0][0].doc["table"]["status"] == "finished":  # type: ignore[index]
                    break
                sends = []
                for seat, (on_a, on_b) in enumerate(tabs):
                    if playable(on_a):
                        sends.append((seat, on_a.command(f"a{rnd}", rng.choice(playable(on_a)))))
                        sends.append((seat, on_b.command(f"b{rnd}", rng.choice(playable(on_b)))))
                replies = await asyncio.gather(*(send for _, send in sends))
                for (seat, _), reply in zip(sends, replies, strict=True):
                    if is_ack(reply):
                        acked[seat][str(acked_id(reply))] = reply["version"]
                    else:
                        refused += 1
            final = await settle([c for pair in tabs for c in pair])
        finally:
            for pair in tabs:
                for conn in pair:
                    await conn.__aexit__()

    stored = load_table(url, table.id)
    assert_linear_and_replays(stored)
    for seat in range(SEATS):
        assert_acked_in_log(stored, seat, acked[seat])
    # Nothing was stored that was not acknowledged: no update lost, none applied twice.
    assert len(stored.commands) == sum(len(ids) for ids in acked.values())
    assert stored.version == final
    assert refused > 0, "the two tabs of a seat never raced"
    assert sum(len(ids) for ids in acked.values()) >= 40
    # Both processes converged on the same document for every seat.
    for on_a, on_b in tabs:
        assert comparable(on_a.doc) == comparable(on_b.doc)  # type: ignore[arg-type]


async def test_each_process_pushes_patches_caused_by_the_other(cluster: Any) -> None:
    _, (a, b) = cluster
    table = await new_table(a)
    servers = [a, b]
    players = [Conn(servers[s % 2].ws_url, table.id, t) for s, t in enumerate(table.tokens)]
    watchers = [Conn(a.ws_url, table.id, None), Conn(b.ws_url, table.id, None)]
    crossed = {0: 0, 1: 0}  # commands sent through process i seen by the other's spectator
    rng = random.Random(11)
    async with asyncio.timeout(120):
        for conn in [*players, *watchers]:
            await conn.__aenter__()
        try:
            for step in range(30):
                await settle([*players, *watchers])
                actors = [s for s, p in enumerate(players) if playable(p)]
                if not actors:
                    break
                seat = rng.choice(actors)
                reply = await players[seat].command(f"s{step}", rng.choice(playable(players[seat])))
                if not is_ack(reply):
                    continue
                other = watchers[1 - seat % 2]
                await other.wait_version(reply["version"])
                # The server pushed it there (a patch, or a snapshot when that is smaller);
                # the client did not have to ask.
                first = min(v for v in other.arrivals if v >= reply["version"])
                assert other.arrivals[first] in ("patch", "snapshot"), (step, other.arrivals)
                crossed[seat % 2] += 1
            await settle([*players, *watchers])
        finally:
            for conn in [*players, *watchers]:
                await conn.__aexit__()
    assert crossed[0] >= 3 and crossed[1] >= 3, crossed
    # Each process counted the notifications the other sent for those commands.
    async with httpx.AsyncClient(timeout=10) as client:
        for i, server in enumerate(servers):
            text = (await client.get(f"{server.url}/metrics")).text
            received = metric(text, 'guildhall_fanout_events_total{event="received"}')
            assert received >= crossed[1 - i], (i, received, crossed)
    assert comparable(watchers[0].doc) == comparable(watchers[1].doc)  # type: ignore[arg-type]
