"""A scripted rogue seated player: holds seat 2 of a private table (and its invite), and tries
to act as, evict, start for, take back, join over or read the document of the other seats.
Only their own seat answers; every refused request leaves the table as it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.security.seat_actors import (
    DEPLOYMENTS,
    Deployment,
    Person,
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
    with deployment(kind, processes, tmp_path_factory.mktemp("rogue")) as running:
        yield running


async def seated(dep: Deployment, start: bool) -> tuple[str, Person, Person, Person]:
    """Anna (creator, seat 0), Bea (seat 1) and the rogue Rex (seat 2)."""
    table_id, anna = await create(dep.server(0))
    bea, rex = Person("Bea", invite=anna.invite), Person("Rex", invite=anna.invite)
    assert (await bea.join(dep.server(1), table_id)).status == 201
    assert (await rex.join(dep.server(0), table_id)).status == 201 and rex.seat == 2
    if start:
        started = await anna.call(dep.server(0), "POST", f"/api/tables/{table_id}/start")
        assert started.status == 200, started.body
    return table_id, anna, bea, rex


async def refused_everywhere(
    dep: Deployment,
    table_id: str,
    rex: Person,
    attempts: list[tuple[str, str, object, int, str]],
    bots_play: bool = False,
) -> None:
    """Each attempt through every process gets exactly its (status, code); nothing changes
    (but the moves of bots, when ``bots_play``)."""

    def fixed(table: dict[str, object]) -> dict[str, object]:
        return unchanging(table, bots_play)

    before = fixed(await summary(dep.server(0), table_id))
    commands = len(dep.stored(table_id).commands)
    for server in dep.servers:
        for method, path, body, status, code in attempts:
            reply = await rex.call(server, method, path, body)
            assert (reply.status, reply.code) == (status, code), (path, reply.body)
    assert fixed(await summary(dep.server(0), table_id)) == before
    # Only bots (no client id) may have moved meanwhile.
    assert all(c["client_id"] is None for c in dep.stored(table_id).commands[commands:])


async def test_a_guest_can_neither_start_nor_evict_the_creator_nor_anyone(dep: Deployment) -> None:
    table_id, anna, bea, rex = await seated(dep, start=False)
    base = f"/api/tables/{table_id}"
    await refused_everywhere(
        dep,
        table_id,
        rex,
        [
            ("POST", f"{base}/start", {}, 403, "not_creator"),
            ("POST", f"{base}/seats/0/bot", {"kind": "random"}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/1/bot", {"kind": "random"}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/0/reclaim", {}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/2/reclaim", {}, 409, "not_stand_in"),
        ],
    )
    # The creator leaves her own seat to a bot: her rights stay with her token, not the seat.
    handed = await anna.call(dep.server(1), "POST", f"{base}/seats/0/bot", {"kind": "greedy"})
    assert handed.status == 200, handed.body
    for person in (rex, bea):
        body = {"name": "X", "seat": 0, "invite": anna.invite}
        taken = await person.call(dep.server(0), "POST", f"{base}/join", body, token=None)
        assert (taken.status, taken.code) == (409, "seat_kept"), taken.body
        refused = await person.call(dep.server(0), "POST", f"{base}/start")
        assert (refused.status, refused.code) == (403, "not_creator")
    me = await anna.call(dep.server(0), "GET", f"{base}/me")
    assert me.body["creator"] is True and me.body["plays"] is False
    assert (await anna.call(dep.server(0), "POST", f"{base}/seats/0/reclaim")).status == 200
    assert (await anna.call(dep.server(1), "POST", f"{base}/start")).status == 200


async def test_a_seated_player_acts_and_reads_as_their_own_seat_only(dep: Deployment) -> None:
    table_id, anna, bea, rex = await seated(dep, start=True)
    base = f"/api/tables/{table_id}"
    sockets = await open_sockets(dep, table_id, rex.token)
    others = await open_sockets(dep, table_id, bea.token)
    await refused_everywhere(
        dep,
        table_id,
        rex,
        [
            ("POST", f"{base}/start", {}, 403, "not_creator"),
            ("POST", f"{base}/seats/0/bot", {"kind": "random"}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/1/bot", {"kind": "mcts"}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/1/reclaim", {}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/7/bot", {"kind": "random"}, 400, "bad_seat"),
        ],
    )
    # Bea's legal commands sent through Rex's sockets, for her seat: refused, not stored.
    before = len(dep.stored(table_id).commands)
    for n, socket in enumerate(sockets):
        for k, cmd in enumerate(others[0].legal[:4]):
            await socket.command(f"x{n}-{k}", cmd, seat=1)
            answer = await socket.reply(f"x{n}-{k}")
            assert answer["type"] == "error" and answer["code"] == "wrong_seat"
    assert len(dep.stored(table_id).commands) == before
    # Joining again with the invite never lands on a person's seat.
    for seat in (0, 1, 2, None):
        again = await Person("Rex2", invite=anna.invite).join(dep.server(1), table_id, seat)
        assert again.status == 409 and again.code in ("seat_taken", "table_full"), again.body
    # Bea leaves her seat to a bot; Rex cannot take it over, back or away.
    handed = await bea.call(dep.server(0), "POST", f"{base}/seats/1/bot", {"kind": "random"})
    assert handed.status == 200
    await refused_everywhere(
        dep,
        table_id,
        rex,
        [
            ("POST", f"{base}/seats/1/reclaim", {}, 403, "not_your_seat"),
            ("POST", f"{base}/seats/1/bot", {"kind": "greedy"}, 403, "not_your_seat"),
        ],
        bots_play=True,
    )
    kept = await Person("Rex3", invite=anna.invite).join(dep.server(0), table_id, 1)
    assert (kept.status, kept.code) == (409, "seat_kept")
    # Everything Rex's sockets ever received was seat 2's document.
    await sockets[0].send({"type": "snapshot_request"})
    await sockets[0].wait(lambda: sockets[0].messages[-1]["type"] == "snapshot")
    assert all(s.seats_seen == {2} for s in sockets), [s.seats_seen for s in sockets]
    assert not any(s.closed for s in sockets)
    await close_all([*sockets, *others])


async def test_a_seated_player_reads_only_their_own_seat_through_the_side_routes(
    dep: Deployment,
) -> None:
    table_id, anna, bea, rex = await seated(dep, start=True)
    base = f"/api/tables/{table_id}"
    for server in dep.servers:
        me = await rex.call(server, "GET", f"{base}/me")
        assert me.status == 200 and me.body["seat"] == 2 and me.body["creator"] is False
        assert str(anna.token) not in str(me.body) and str(bea.token) not in str(me.body)
        # The record and the replay, which hold every seat's sealed plans, wait for the end.
        for path in (f"{base}/record", f"{base}/replay/0"):
            reply = await rex.call(server, "GET", path)
            assert (reply.status, reply.code) == (409, "not_finished"), (path, reply.body)
    # Rex's sockets, asked for snapshots and reconnected with an old ``since``, only ever
    # hold seat 2's document.
    sockets = await open_sockets(dep, table_id, rex.token)
    for socket in sockets:
        await socket.send({"type": "hello", "token": rex.token, "since": 1})
        await socket.send({"type": "snapshot_request"})
        await socket.send({"type": "ping"})
        await socket.wait(lambda s=socket: any(m["type"] == "pong" for m in s.messages))
    assert all(s.seats_seen == {2} for s in sockets), [s.seats_seen for s in sockets]
    await close_all(sockets)
