"""A scripted evicted player: her seat goes to a bot, and from that version on her token
neither plays nor reads it, in any process, until she takes it back.

Closing figures (time from the hand-over request to each of her sockets' close) are printed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from tests.security.seat_actors import (
    DEPLOYMENTS,
    HANDOVER_AFTER,
    Deployment,
    Person,
    Socket,
    close_all,
    create,
    deployment,
    open_sockets,
    summary,
    unchanging,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=DEPLOYMENTS)
def dep(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    kind, processes = request.param
    with deployment(kind, processes, tmp_path_factory.mktemp("evicted")) as running:
        yield running


async def started_table(dep: Deployment) -> tuple[str, Person, Person, Person]:
    """Anna (creator, seat 0), Bea (seat 1) and Cy (seat 2), all people, game started."""
    table_id, anna = await create(dep.server(0))
    bea, cy = Person("Bea", invite=anna.invite), Person("Cy", invite=anna.invite)
    assert (await bea.join(dep.server(1), table_id)).status == 201
    assert (await cy.join(dep.server(0), table_id)).status == 201
    started = await anna.call(dep.server(0), "POST", f"/api/tables/{table_id}/start")
    assert started.status == 200, started.body
    return table_id, anna, bea, cy


async def test_handing_a_seat_over_closes_every_socket_of_it_and_refuses_its_commands(
    dep: Deployment,
) -> None:
    table_id, _anna, bea, _cy = await started_table(dep)
    sockets = await open_sockets(dep, table_id, bea.token, per_process=2)
    racer = Socket(dep.server(1), table_id, bea.token)
    await racer.open()
    watcher = Socket(dep.server(1), table_id, None)
    await watcher.open()
    assert all(s.doc is not None and s.doc["you"]["seat"] == 1 for s in [*sockets, racer])

    async def race() -> int:
        """Bea's tab plays (plan, take back, plan …) as fast as answers come."""
        sent = 0
        while not racer.closed and sent < 400:
            legal = [c for c in racer.legal if c.get("type") in ("plan", "retract")]
            if not legal:
                await asyncio.sleep(0.005)
                continue
            await racer.command(f"r{sent}", legal[0])
            await racer.reply_or_close(f"r{sent}")
            sent += 1
        return sent

    racing = asyncio.create_task(race())
    await racer.wait(lambda: len([m for m in racer.messages if m["type"] == "ack"]) >= 3)
    asked = time.monotonic()
    handed = await bea.call(
        dep.server(0), "POST", f"/api/tables/{table_id}/seats/1/bot", {"kind": "random"}
    )
    answered = time.monotonic()
    assert handed.status == 200, handed.body
    handover_version = handed.body["version"]
    assert handed.body["seats"][1]["stand_in"] is True
    async with asyncio.timeout(10):
        sent = await racing
    for socket in [*sockets, racer]:
        await socket.wait(lambda s=socket: s.closed, seconds=5)
    latencies = [s.closed_at - asked for s in [*sockets, racer]]  # type: ignore[operator]
    print(
        f"\n[{len(dep.servers)} process(es)] seat_lost closes: "
        + ", ".join(f"{lat * 1000:.0f} ms" for lat in sorted(latencies))
        + f" after the request (its answer took {(answered - asked) * 1000:.0f} ms);"
        f" the racing tab sent {sent} commands"
    )
    for socket in [*sockets, racer]:
        assert socket.close_code == 4403
        assert socket.errors("seat_lost"), socket.messages[-3:]
        # Nothing of the version that took the seat away (or later) reached her.
        assert socket.version < handover_version
        assert socket.closed_at is not None and socket.closed_at - answered < 1.0
    assert max(latencies) < 1.0 + (answered - asked)
    assert sent > 3
    # Every command her token sent that was stored was decided before the hand-over.
    stored = dep.stored(table_id)
    hers = [c for c in stored.commands if c["seat"] == 1 and c["client_id"] is not None]
    assert hers and all(c["version"] < handover_version for c in hers)
    # The watcher (a spectator on another process) sees the bot stand in and play on.
    await watcher.wait_version(handover_version)
    assert watcher.doc is not None and watcher.doc["table"]["seats"][1]["bot"] == "random"
    await close_all([watcher])


async def test_an_evicted_token_reads_nothing_of_its_seat_until_it_takes_it_back(
    dep: Deployment,
) -> None:
    table_id, anna, bea, cy = await started_table(dep)
    handed = await bea.call(
        dep.server(1), "POST", f"/api/tables/{table_id}/seats/1/bot", {"kind": "greedy"}
    )
    assert handed.status == 200, handed.body
    before = unchanging(await summary(dep.server(0), table_id), bots_play=True)
    for server in dep.servers:
        again = await Socket(server, table_id, bea.token).open()
        assert again.errors("seat_lost") and again.doc is None
        # Not greeted: a command is refused before the seat is even looked at.
        await again.command("late", {"type": "plan", "card": 0})
        assert (await again.reply("late"))["code"] == "hello_required"
        await again.close()
        me = await bea.call(server, "GET", f"/api/tables/{table_id}/me")
        assert me.status == 200 and me.body["seat"] == 1 and me.body["plays"] is False
        # Her seat is kept for her: neither she nor anyone with the invite joins it.
        for seat in (1, None):
            taken = await Person("Bea again", invite=anna.invite).join(server, table_id, seat)
            assert taken.status == 409 and taken.code in ("seat_kept", "table_full"), taken.body
        # Another seat's token cannot take it back for her.
        stolen = await cy.call(server, "POST", f"/api/tables/{table_id}/seats/1/reclaim")
        assert stolen.status == 403 and stolen.code == "not_your_seat"
    assert unchanging(await summary(dep.server(0), table_id), bots_play=True) == before
    # Her own link still works for her own seat, on any process.
    back = await bea.call(dep.server(1), "POST", f"/api/tables/{table_id}/seats/1/reclaim")
    assert back.status == 200 and back.body["seats"][1]["bot"] is None, back.body
    for server in dep.servers:
        socket = await Socket(server, table_id, bea.token).open()
        assert socket.doc is not None and socket.doc["you"]["seat"] == 1
        log = [(e["type"], e["seat"]) for e in socket.doc["table"]["seat_log"]]
        assert log == [("bot_took_over", 1), ("seat_reclaimed", 1)]
        await socket.close()


async def test_the_creator_hands_over_only_a_seat_whose_player_has_been_away(
    dep: Deployment,
) -> None:
    table_id, anna, bea, cy = await started_table(dep)
    # Cy stays connected through the last process; the creator asks the first one.
    cys = await Socket(dep.server(1), table_id, cy.token).open()
    await asyncio.sleep(2 * HANDOVER_AFTER)
    refused = await anna.call(
        dep.server(0), "POST", f"/api/tables/{table_id}/seats/2/bot", {"kind": "random"}
    )
    assert refused.status == 409 and refused.code == "player_present", refused.body
    await cys.close()
    # Just gone: still too soon.
    early = await anna.call(
        dep.server(0), "POST", f"/api/tables/{table_id}/seats/2/bot", {"kind": "random"}
    )
    assert early.status == 409 and early.code == "player_present", early.body
    assert (await summary(dep.server(0), table_id))["seats"][2]["bot"] is None
    deadline = time.monotonic() + 6 * HANDOVER_AFTER
    while time.monotonic() < deadline:
        seats = (await summary(dep.server(0), table_id))["seats"]
        if (seats[2]["away_seconds"] or 0) >= HANDOVER_AFTER:
            break
        await asyncio.sleep(0.2)
    handed = await anna.call(
        dep.server(0), "POST", f"/api/tables/{table_id}/seats/2/bot", {"kind": "random"}
    )
    assert handed.status == 200, handed.body
    assert handed.body["seats"][2] | {"connected": False} == {
        "seat": 2,
        "name": "Cy",
        "bot": "random",
        "connected": False,
        "stand_in": True,
        "away_seconds": None,
    }
    # Cy's link takes it back whenever she returns.
    back = await cy.call(dep.server(1), "POST", f"/api/tables/{table_id}/seats/2/reclaim")
    assert back.status == 200 and back.body["seats"][2]["bot"] is None
    _ = bea
