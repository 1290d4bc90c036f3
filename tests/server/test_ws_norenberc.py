"""Whole Norenberc games through the real websocket endpoint, 2-5 players, random legal moves.

Several clients at once (sealed planning lets every seat send together), a spectator, a
reconnect mid-game, duplicate command ids, and an app restart in the middle; at the end the
record replays with ``guildhall verify``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from server.commands import verify
from server.settings import Settings
from tests.support.acks import is_ack
from tests.support.play import (
    blanked,
    pick,
    play_round_robin,
    running_app,
    seeded_table,
    set_up_table,
    step_all,
    table_version,
)
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


def _play_some(players: dict[int, WsClient], client: TestClient, table_id: str, moves: int) -> None:
    """Play ``moves`` random legal commands one at a time, everybody kept in sync."""
    rng = random.Random(moves)
    for _ in range(moves):
        version = table_version(client, table_id)
        for ws in players.values():
            ws.sync(version)
        movers = [ws for ws in players.values() if any(c["type"] != "retract" for c in ws.legal)]
        if not movers:
            return
        ws = rng.choice(movers)
        cmd = pick(ws.legal, rng)
        assert cmd is not None
        assert is_ack(ws.outcome(ws.command(cmd)))


# The fewest and the most seats, each store once: the server path is the same for every
# count and store (the engine's play-outs in tests/games/norenberc cover each count's rules,
# tests/server/test_storage.py each store's paths). The other two pairs play in the soak tier.
@pytest.mark.parametrize(
    ("database_kind", "seats"),
    [
        pytest.param("sqlite", 2, id="sqlite-2"),
        pytest.param(
            "postgres", 5, id="postgres-5", marks=[pytest.mark.postgres, pytest.mark.slow]
        ),
        pytest.param(
            "postgres", 2, id="postgres-2", marks=[pytest.mark.postgres, pytest.mark.soak]
        ),
        pytest.param("sqlite", 5, id="sqlite-5", marks=pytest.mark.soak),
    ],
    indirect=["database_kind"],
)
def test_whole_norenberc_game_over_the_websocket(
    settings: Settings, seats: int, tmp_path: Path
) -> None:
    with running_app(settings) as client:
        table_id, tokens = set_up_table(client, "norenberc", seats)
        players = {s: WsClient(client, table_id, tokens[s]).connect() for s in range(seats)}
        spectator = WsClient(client, table_id).connect()
        _play_some(players, client, table_id, 6)
        # A duplicate id: the same command id sent twice is acknowledged twice, applied once.
        before = table_version(client, table_id)
        for ws in players.values():
            ws.sync(before)
        mover = next(ws for ws in players.values() if ws.legal)
        first = mover.outcome(mover.command(mover.legal[0], "dup"))
        mover.messages.clear()
        mover.send({"type": "command", "id": "dup", "cmd": {"type": "anything"}})
        again = mover.read_until(lambda m: is_ack(m) or m["type"] == "error")
        assert again == {"type": "ack", "id": "dup", "version": before + 1}
        assert first["ack"] == "dup" and table_version(client, table_id) == before + 1
        # Seat 1 drops out and comes back with what it held.
        players[1].close()
        _play_some({s: ws for s, ws in players.items() if s != 1}, client, table_id, 4)
        players[1].connect(since=players[1].version)
        assert players[1].held_equals_snapshot()
    # The process restarts between two moves; the same tabs reconnect.
    with running_app(settings) as client:
        for ws in [*players.values(), spectator]:
            ws.client = client
            ws.connect(since=ws.version)
        play_round_robin(client, table_id, players, [spectator], random.Random(seats), 5)
        for ws in [*players.values(), spectator]:
            assert ws.held_equals_snapshot()
            assert ws.doc is not None and ws.doc["table"]["status"] == "finished"
        record = client.get(f"/api/tables/{table_id}/record").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert verify.replay(record) == record["result"]
    assert verify.run(type("Args", (), {"record": path})()) == 0


def test_spectators_and_opponents_never_see_talers(settings: Settings) -> None:
    with running_app(settings) as client:
        table_id, tokens = set_up_table(client, "norenberc", 3)
        players = {s: WsClient(client, table_id, tokens[s]).connect() for s in range(3)}
        spectator = WsClient(client, table_id).connect()
        _play_some(players, client, table_id, 10)
        spectator.sync(table_version(client, table_id))
        for seat, ws in players.items():
            talers = [p["talers"] for p in ws.game["players"]]
            assert talers[seat] is not None
            assert all(t is None for s, t in enumerate(talers) if s != seat)
        assert all(p["talers"] is None for p in spectator.game["players"])


def _norenberc_messages_of_a(
    client: TestClient, b_guilds: list[int]
) -> tuple[list[str], list[str]]:
    """Seat A's messages (as text) before and after its action that calls B's guild."""
    table_id, tokens = seeded_table(client, "norenberc", 2, "one-seed-two-games")
    a, b = WsClient(client, table_id, tokens[0]), WsClient(client, table_id, tokens[1])
    a.connect()
    b.connect()
    a.read_until(lambda m: m["type"] == "patch")  # B's arrival
    step_all(client, table_id, a, {"type": "plan", "guilds": [1]}, [a, b])
    step_all(client, table_id, b, {"type": "plan", "guilds": b_guilds}, [a, b])
    assert a.game["action"]["guild"] == 1  # A's brewers are called first; B's card is hidden
    before = [blanked(m, table_id, tokens) for m in a.messages]
    a.messages.clear()
    step_all(client, table_id, a, {"type": "nothing"}, [a, b])
    assert a.game["action"]["guild"] == b_guilds[0]  # now B's guild is called
    after = [blanked(m, table_id, tokens) for m in a.messages]
    a.close()
    b.close()
    return before, after


def test_norenberc_seal_seat_a_sees_the_same_until_b_guild_is_called(settings: Settings) -> None:
    with running_app(settings) as client:
        before_2, after_2 = _norenberc_messages_of_a(client, [2])
        before_3, after_3 = _norenberc_messages_of_a(client, [3])
    assert len(before_2) >= 5
    assert before_2 == before_3
    assert after_2 != after_3


# Ordered planning is the engine's and the session's, not the store's: one store in the fast
# tier (tests/server/test_strasbourg_server.py plays ordered planning on Postgres).
@pytest.mark.parametrize(
    "database_kind",
    ["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.soak])],
    indirect=True,
)
def test_whole_norenberc_game_with_ordered_planning(settings: Settings) -> None:
    with running_app(settings) as client:
        table_id, tokens = set_up_table(client, "norenberc", 3, planning="ordered")
        players = {s: WsClient(client, table_id, tokens[s]).connect() for s in range(3)}
        status = players[0].game["planning"]["status"]
        assert sorted(status) == ["planning", "waiting", "waiting"]
        first = status.index("planning")
        assert players[0].game["to_act"] == [first]
        play_round_robin(client, table_id, players, [], random.Random(9), 5)
        assert players[0].doc is not None and players[0].doc["table"]["status"] == "finished"


def test_a_refused_command_names_the_rule_it_met(settings: Settings) -> None:
    """The engine's refusal carries its clause (N-4.2: a plan needs a card), the server's own
    not_your_turn the clause of what is being decided (N-5.1: the called guild's players act
    in play order); the document names the rule of each seat's decision."""
    with running_app(settings) as client:
        table_id, tokens = seeded_table(client, "norenberc", 2, "clauses")
        a, b = WsClient(client, table_id, tokens[0]), WsClient(client, table_id, tokens[1])
        a.connect()
        b.connect()
        a.read_until(lambda m: m["type"] == "patch")  # B's arrival
        assert a.game["rule"] == "N-4.1"
        refused = a.outcome(a.command({"type": "plan", "guilds": []}))
        assert (refused["code"], refused["clause"]) == ("no_cards", "N-4.2")
        step_all(client, table_id, a, {"type": "plan", "guilds": [1, 2]}, [a, b])
        step_all(client, table_id, b, {"type": "plan", "guilds": [1]}, [a, b])
        actor, other = (a, b) if a.legal else (b, a)
        assert actor.game["rule"] == other.game["rule"] == "N-5.1"
        refused = other.outcome(other.command({"type": "nothing"}))
        assert (refused["code"], refused["clause"]) == ("not_your_turn", "N-5.1")
