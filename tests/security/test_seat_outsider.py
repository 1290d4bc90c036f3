"""A scripted outsider: no seat token, no invite. Tries every route and message on private
and public tables; may take only a public table's free seats, and reads only what a
spectator may. Every refused request leaves the table as it was."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.security.seat_actors import (
    DEPLOYMENTS,
    Deployment,
    Person,
    Socket,
    close_all,
    create,
    deployment,
    summary,
    unchanging,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=DEPLOYMENTS)
def dep(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    kind, processes = request.param
    with deployment(kind, processes, tmp_path_factory.mktemp("outsider")) as running:
        yield running


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
        assert (await mover.reply(f"move{n}"))["type"] == "ack"
    return table_id, people, sockets


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
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
    table_id, people, sockets = await _seated_table(dep, "norenberc")
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
        async with httpx.AsyncClient(base_url=server.url, timeout=15) as client:
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
