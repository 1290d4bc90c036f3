"""The seat model attacked from outside, against real ``guildhall serve`` processes (SQLite
with one process; Postgres with two, where the second process hears of every change only
through NOTIFY).

- A scripted **outsider**: no seat token, no invite. Tries every route and message on private
  and public tables; may take only a public table's free seats, and reads only what a
  spectator may.
- A scripted **rogue** seated player: holds seat 2 of a private table (and its invite), and
  tries to act as, evict, start for, take back, join over or read the document of the other
  seats. Only their own seat answers.
- A scripted **evicted** player: her seat goes to a bot, and from that version on her token
  neither plays nor reads it, in any process, until she takes it back. Closing figures (time
  from the hand-over request to each of her sockets' close) are printed.

Every refused request leaves the table as it was. Each test makes its own tables, so the
tests of a store share one deployment: each costs two or three server starts and a migration.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.security.seat_actors import (
    DEPLOYMENTS,
    HANDOVER_AFTER,
    TLS,
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
from tests.support import games
from tests.support.acks import is_ack

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=DEPLOYMENTS)
def dep(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    kind, processes = request.param
    with deployment(kind, processes, tmp_path_factory.mktemp("seats")) as running:
        yield running


# -------------------------------------------------------------------- the outsider


def false_tokens(anna: Person) -> list[str | None]:
    """What an outsider might send as a token: nothing, junk, the invite, a near miss."""
    assert anna.token is not None and anna.invite is not None
    return [
        None,
        "",
        "x" * 32,
        anna.invite,
        anna.token[:-1] + ("A" if anna.token[-1] != "A" else "B"),
    ]


async def every_route(
    dep: Deployment, table_id: str, outsider: Person
) -> list[tuple[str, int, str | None]]:
    """Every HTTP route that acts on a table, asked by ``outsider`` through every process."""
    answers = []
    for server in dep.servers:
        for method, path, body in [
            ("POST", f"/api/tables/{table_id}/start", {}),
            ("POST", f"/api/tables/{table_id}/seats/0/bot", {"kind": "random"}),
            ("POST", f"/api/tables/{table_id}/seats/1/bot", {"kind": "random"}),
            ("POST", f"/api/tables/{table_id}/seats/2/bot", {"kind": "greedy"}),
            ("POST", f"/api/tables/{table_id}/seats/0/reclaim", {}),
            ("POST", f"/api/tables/{table_id}/seats/1/reclaim", {}),
            ("GET", f"/api/tables/{table_id}/me", None),
        ]:
            reply = await outsider.call(server, method, path, body)
            answers.append((path, reply.status, reply.code))
    return answers


async def test_a_private_table_is_unlisted_and_refuses_an_outsider_everything(
    dep: Deployment,
) -> None:
    table_id, anna = await create(dep.server(0), bots=[None, None, "greedy"])
    listed = await Person("eve").call(dep.server(1), "GET", "/api/tables", token=None)
    assert table_id not in str(listed.body)
    before = unchanging(await summary(dep.server(0), table_id))
    assert anna.invite is not None and anna.token is not None
    assert anna.invite not in str(before) and anna.token not in str(before)
    for server in dep.servers:
        for invite in [None, "", "nope", anna.token, anna.invite[:-1] + "x"]:
            for seat in (None, 0, 1, 2):
                eve = Person("Eve", invite=invite)
                reply = await eve.join(server, table_id, seat)
                assert (reply.status, reply.code) == (403, "invite_required"), (invite, seat)
    for token in false_tokens(anna):
        for path, status, code in await every_route(dep, table_id, Person("Eve", token=token)):
            expected = ("no_token", 401) if not token else ("bad_token", 403)
            assert (code, status) == expected, (path, token)
    assert unchanging(await summary(dep.server(0), table_id)) == before


async def test_a_public_table_gives_a_stranger_only_its_free_seats(dep: Deployment) -> None:
    table_id, anna = await create(dep.server(0), bots=[None, None, "greedy"], public=True)
    listed = await Person("eve").call(dep.server(1), "GET", "/api/tables", token=None)
    assert table_id in [t["id"] for t in listed.body["tables"]]
    eve = Person("Eve")
    for seat in (0, 2):  # the creator's, and a bot's: not free
        refused = await eve.join(dep.server(1), table_id, seat)
        assert (refused.status, refused.code) == (409, "seat_taken"), refused.body
    joined = await eve.join(dep.server(1), table_id)
    assert joined.status == 201 and joined.body["seat"] == 1
    # No free seat is left; a bot's seat is not a stranger's to take.
    mallory = Person("Mallory")
    full = await mallory.join(dep.server(0), table_id)
    assert (full.status, full.code) == (409, "table_full")
    assert (await anna.call(dep.server(0), "POST", f"/api/tables/{table_id}/start")).status == 200
    # Eve leaves her seat to a bot: the seat is kept for her, not offered to anyone.
    handed = await eve.call(
        dep.server(0), "POST", f"/api/tables/{table_id}/seats/1/bot", {"kind": "random"}
    )
    assert handed.status == 200, handed.body
    before = unchanging(await summary(dep.server(0), table_id), bots_play=True)
    for server in dep.servers:
        for person in (mallory, Person("Trent", invite=anna.invite)):
            kept = await person.join(server, table_id, 1)
            assert (kept.status, kept.code) == (409, "seat_kept"), kept.body
    assert unchanging(await summary(dep.server(0), table_id), bots_play=True) == before


async def test_an_outsider_socket_reads_only_the_spectator_document_and_plays_nothing(
    dep: Deployment,
) -> None:
    table_id, anna = await create(dep.server(0), bots=[None, "greedy", "greedy"])
    assert (await anna.call(dep.server(0), "POST", f"/api/tables/{table_id}/start")).status == 200
    seated = await Socket(dep.server(0), table_id, anna.token).open()
    before = dep.stored(table_id)
    for server in dep.servers:
        for token in false_tokens(anna):
            socket = Socket(server, table_id, token)
            await socket.open()
            if token:  # a false token is refused; the socket stays unauthenticated
                assert socket.errors("bad_token") and socket.doc is None, socket.messages
                await socket.send({"type": "hello"})
                await socket.wait(lambda s=socket: s.doc is not None)
            assert socket.seats_seen == {None}
            for n, cmd in enumerate(seated.legal[:3] or [{"type": "plan"}]):
                for extra in ({}, {"seat": 0}, {"seat": 1}):
                    await socket.command(f"o{n}{len(extra)}{extra.get('seat')}", cmd, **extra)
                    answer = await socket.reply(f"o{n}{len(extra)}{extra.get('seat')}")
                    assert answer["type"] == "error" and answer["code"] == "spectator"
            # A spectator's game view hides every hand: no seat's private part is there.
            game = socket.doc["game"] if socket.doc else None
            assert game is not None and not game.get("legal")
            await socket.close()
    after = dep.stored(table_id)
    outsiders = [c for c in after.commands if c["client_id"] and c["client_id"].startswith("o")]
    assert outsiders == [] and after.commands[: len(before.commands)] == before.commands
    await seated.close()


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of a JSON value by its path (an empty list or object is a leaf too)."""
    if isinstance(value, dict) and value:
        return {p: v for k, item in value.items() for p, v in _leaves(item, f"{path}/{k}").items()}
    if isinstance(value, list) and value:
        return {
            p: v for i, item in enumerate(value) for p, v in _leaves(item, f"{path}/{i}").items()
        }
    return {path: value}


MISSING = object()


async def _seated_table(dep: Deployment, game: str) -> tuple[str, list[Person], list[Socket]]:
    """A started 3-seat table of people only, with a socket per seat, two moves in (each
    leaves something sealed or private behind: a plan, a kept card)."""
    creator = Person("Anna")
    body = {"game": game, "seats": 3, "name": "Anna"}
    made = await creator.call(dep.server(0), "POST", "/api/tables", body, token=None)
    assert made.status == 201, made.body
    table_id = made.body["table_id"]
    creator.token, creator.invite = made.body["token"], made.body["invite"]
    people = [creator]
    for name in ("Bea", "Cy"):
        person = Person(name, invite=creator.invite)
        assert (await person.join(dep.server(len(people)), table_id)).status == 201
        people.append(person)
    started = await creator.call(dep.server(0), "POST", f"/api/tables/{table_id}/start")
    assert started.status == 200, started.body
    sockets = [await Socket(dep.server(n), table_id, p.token).open() for n, p in enumerate(people)]
    for n in range(2):
        mover = next(s for s in sockets if s.legal)
        await mover.command(f"move{n}", mover.legal[0])
        assert is_ack(await mover.reply(f"move{n}"))
    return table_id, people, sockets


# Every game a server hosts (tests/support/games.py).
@pytest.mark.parametrize("game", games.shipped())
async def test_a_spectator_knows_no_more_of_any_seat_than_the_other_players_do(
    dep: Deployment, game: str
) -> None:
    table_id, people, sockets = await _seated_table(dep, game)
    watchers = [await Socket(server, table_id, None).open() for server in dep.servers]
    version = max(s.version for s in sockets)
    for socket in [*sockets, *watchers]:
        await socket.send({"type": "snapshot_request"})
        await socket.wait(lambda s=socket: s.version >= version and s.doc is not None)
    seat_leaves = [_leaves(s.doc["game"]) for s in sockets if s.doc]
    for watcher in watchers:
        assert watcher.doc is not None and watcher.doc["you"] == {"seat": None}
        for path, value in _leaves(watcher.doc["game"]).items():
            seen = [leaves.get(path, MISSING) for leaves in seat_leaves]
            # What every player sees, a spectator sees alike; what only one seat sees (its
            # own hand, money, sealed plan), the spectator sees as the other seats do.
            outsiders = [v for v in seen if seen.count(v) >= len(seen) - 1]
            assert value in outsiders or value in (None, [], {}), (path, value, seen)
        # The log: only entries every seat was shown.
        for entry in watcher.doc["log"]:
            assert all(entry in s.doc["log"] for s in sockets if s.doc), entry
        text = json.dumps(watcher.doc)
        stored = dep.stored(table_id)
        secrets = [stored.seed, *(p.token for p in people), people[0].invite]
        assert not [s for s in secrets if s and s in text]
    await close_all([*sockets, *watchers])


async def test_an_outsider_gets_no_record_replay_or_secret_from_the_side_routes(
    dep: Deployment,
) -> None:
    table_id, people, sockets = await _seated_table(dep, games.shipped()[0])
    other_id, other = await create(dep.server(0), name="Olga")
    before = dep.stored(table_id)
    outsider = Person("Eve")
    for server in dep.servers:
        for path in (
            f"/api/tables/{table_id}/record",
            f"/api/tables/{table_id}/replay/0",
            f"/api/tables/{table_id}/replay/1",
        ):
            reply = await outsider.call(server, "GET", path, token=None)
            assert (reply.status, reply.code) == (409, "not_finished"), (path, reply.body)
        # A token of another table is nobody at this one (and the reverse).
        for table, token in ((table_id, other.token), (other_id, people[1].token)):
            reply = await outsider.call(server, "GET", f"/api/tables/{table}/me", token=token)
            assert (reply.status, reply.code) == (403, "bad_token")
        # The lobby lists neither private table; the metrics name no table, seat or secret.
        listed = await outsider.call(server, "GET", "/api/tables", token=None)
        assert table_id not in json.dumps(listed.body) and other_id not in json.dumps(listed.body)
        async with httpx.AsyncClient(base_url=server.url, timeout=15, verify=TLS) as client:
            metrics = (await client.get("/metrics")).text
        secrets = [table_id, other_id, before.seed, *(p.token for p in people), people[0].invite]
        assert not [s for s in [*secrets, "Anna", "Bea", "Olga"] if s and s in metrics]
    # A spectator asking for a snapshot many times changes nothing.
    watcher = await Socket(dep.server(1), table_id, None).open()
    for _ in range(5):
        await watcher.send({"type": "snapshot_request"})
    await watcher.send({"type": "ping"})
    await watcher.wait(lambda: any(m["type"] == "pong" for m in watcher.messages))
    assert dep.stored(table_id).commands == before.commands
    await close_all([*sockets, watcher])


# -------------------------------------------------------------------- the rogue seated player


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


# -------------------------------------------------------------------- the evicted player


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
    await racer.wait(lambda: len([m for m in racer.messages if is_ack(m)]) >= 3)
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
