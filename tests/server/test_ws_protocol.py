"""The websocket protocol on the toy game: bad input, guards, idempotency, reconnects."""

from __future__ import annotations

import json
import random
import re

import pytest

from server.settings import Settings
from tests.support.acks import is_ack
from tests.support.play import play_round_robin, running_app, set_up_table, table_version
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


def _plan(value: int) -> dict[str, object]:
    return {"type": "plan", "value": value}


def _commands(client: TestClient, table_id: str, tokens: list[str | None]) -> int:
    """How many commands the table has stored (through the service, as the record would)."""
    assert client.portal is not None, "the client runs inside its with-block"
    data = client.portal.call(client.app.state.service.get, table_id)  # type: ignore[attr-defined]
    return int(data.seq)


def test_bad_frames_get_clear_errors_and_the_connection_survives(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    ws = WsClient(client, table_id, tokens[0]).connect()
    version = ws.version
    cases = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        (json.dumps({"type": "dance"}), "unknown_message"),
        (json.dumps({"type": "command", "cmd": _plan(1)}), "bad_message"),
        (json.dumps({"type": "command", "id": "", "cmd": _plan(1)}), "bad_message"),
        (json.dumps({"type": "command", "id": "x" * 65, "cmd": _plan(1)}), "bad_message"),
        (
            json.dumps({"type": "command", "id": "big", "cmd": {"pad": "x" * 5000}}),
            "message_too_large",
        ),
    ]
    for text, code in cases:
        ws.send_raw(text)
        reply = ws.read_until(lambda m: m["type"] == "error")
        assert reply["code"] == code, (text[:40], reply)
        assert reply["message"]
    ws.send({"type": "ping"})
    assert ws.read_until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    assert table_version(client, table_id) == version
    assert _commands(client, table_id, tokens) == 0
    ws.close()


def test_commands_before_hello_and_from_spectators_are_refused(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    ws = WsClient(client, table_id, tokens[0]).connect(hello=False)
    ws.command(_plan(1), "early")
    assert ws.outcome("early")["code"] == "hello_required"
    ws.send({"type": "snapshot_request"})
    assert ws.read()["code"] == "hello_required"
    spectator = WsClient(client, table_id).connect()
    assert spectator.doc is not None and spectator.doc["you"] == {"seat": None}
    spectator.command(_plan(1), "peek")
    assert spectator.outcome("peek")["code"] == "spectator"
    assert _commands(client, table_id, tokens) == 0
    ws.close()
    spectator.close()


def test_a_wrong_token_is_refused_and_a_later_good_hello_works(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    ws = WsClient(client, table_id, "not-a-real-token").connect()
    assert ws.errors[-1]["code"] == "bad_token"
    assert ws.doc is None
    ws.token = tokens[1]
    ws.hello()
    assert ws.doc is not None and ws.doc["you"] == {"seat": 1}
    ws.close()


def test_commands_for_another_seat_or_out_of_turn_are_refused(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    a = WsClient(client, table_id, tokens[0]).connect()
    b = WsClient(client, table_id, tokens[1]).connect()
    a.send({"type": "command", "id": "x1", "cmd": _plan(1), "seat": 1})
    assert a.outcome("x1")["code"] == "wrong_seat"
    for ws, value in ((a, 2), (b, 3)):
        ws.outcome(ws.command(_plan(value)))
    version = table_version(client, table_id)
    # Turn order is 0 then 1: seat 1 may not act yet, and an unlisted command is illegal.
    assert b.outcome(b.command({"type": "collect"}))["code"] == "not_your_turn"
    assert a.outcome(a.command({"type": "steal"}))["code"] == "illegal"
    assert table_version(client, table_id) == version
    assert _commands(client, table_id, tokens) == 2
    a.close()
    b.close()


def test_unknown_table_is_an_error_and_the_socket_closes(client: TestClient) -> None:
    ws = WsClient(client, "no-such-table")
    ws.connect(hello=False)
    reply = ws.read()
    assert reply == {
        "type": "error",
        "id": None,
        "code": "unknown_table",
        "message": "there is no table 'no-such-table'",
    }
    with pytest.raises(ConnectionError, match="4404"):
        ws.read()


def test_a_repeated_command_id_is_acknowledged_again_not_applied_twice(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    a = WsClient(client, table_id, tokens[0]).connect()
    first = a.outcome(a.command(_plan(2), "same-id"))
    assert is_ack(first)
    a.send({"type": "command", "id": "same-id", "cmd": _plan(2)})
    a.messages.clear()
    again = a.read_until(lambda m: is_ack(m) or m["type"] == "error")
    # The first ack rode on the patch; the repeat changes no document, so it comes alone.
    assert first["type"] == "patch" and first["ack"] == "same-id"
    assert again == {"type": "ack", "id": "same-id", "version": first["version"]}
    assert table_version(client, table_id) == first["version"]
    assert _commands(client, table_id, tokens) == 1
    a.close()


def test_the_patch_that_reaches_a_commands_version_carries_its_ack(client: TestClient) -> None:
    """One message for the mover: its patch says which command it acknowledges."""
    table_id, tokens = set_up_table(client, "toy", 2)
    a = WsClient(client, table_id, tokens[0]).connect()
    a.messages.clear()
    command_id = a.command(_plan(1))
    ack = a.outcome(command_id)
    assert [m["type"] for m in a.messages] == ["patch"]
    assert ack["ack"] == command_id and a.version == ack["version"]
    assert ack["version"] == table_version(client, table_id)
    a.close()


def test_reconnect_with_since_gets_a_patch_and_resent_commands_apply_once(
    client: TestClient,
) -> None:
    table_id, tokens = set_up_table(client, "toy", 3)
    clients = [WsClient(client, table_id, t).connect() for t in tokens]
    clients[0].outcome(clients[0].command(_plan(1)))
    # Seat 1 loses its connection, misses a move, and reconnects with what it holds.
    held_version = clients[1].version
    clients[1].close()
    clients[2].outcome(clients[2].command(_plan(3)))
    clients[1].connect(since=held_version)
    reply = clients[1].messages[-1]
    assert reply["type"] == "patch" and reply["base"] == held_version
    assert clients[1].held_equals_snapshot()
    # It sends its plan and loses the connection before reading the ack ...
    clients[1].send({"type": "command", "id": "resend-me", "cmd": _plan(2)})
    clients[1].close()
    # ... reconnects, catches up, and resends the same command with the same id.
    clients[1].connect(hello=False)
    clients[1].hello(since=clients[1].version)
    resent = clients[1].outcome(clients[1].command(_plan(2), "resend-me"))
    assert is_ack(resent)
    assert _commands(client, table_id, tokens) == 3
    assert clients[1].held_equals_snapshot()
    assert clients[1].game["my_plan"] == 2
    for ws in clients:
        ws.close()


def test_presence_follows_connections(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    a = WsClient(client, table_id, tokens[0]).connect()
    assert a.doc is not None, "connect() waits for the snapshot"
    assert [s["connected"] for s in a.doc["table"]["seats"]] == [True, False]
    b = WsClient(client, table_id, tokens[1]).connect()
    seen = a.read_until(lambda m: m["type"] == "presence")
    assert seen["seats"] == [{"seat": 0, "connected": True}, {"seat": 1, "connected": True}]
    a.read_until(lambda m: m["type"] == "patch")
    assert [s["connected"] for s in a.doc["table"]["seats"]] == [True, True]
    b.close()
    seen = a.read_until(lambda m: m["type"] == "presence")
    assert seen["seats"][1] == {"seat": 1, "connected": False}
    assert a.held_equals_snapshot()
    a.close()


def test_too_many_messages_are_rate_limited(settings: Settings) -> None:
    with running_app(settings.with_(rate_limit=2.0)) as client:
        table_id, tokens = set_up_table(client, "toy", 2)
        ws = WsClient(client, table_id, tokens[0]).connect()  # hello used one of 4
        for _ in range(6):
            ws.send({"type": "ping"})
        replies = [ws.read()["type"] for _ in range(6)]
        assert "pong" in replies and "error" in replies
        assert ws.errors[-1]["code"] == "rate_limited"
        # The message says how long to wait: at most half a second at two a second.
        wait = re.fullmatch(
            r"at most 2 messages a second; try again in (\d+\.\d\d) s", ws.errors[-1]["message"]
        )
        assert wait is not None and 0 < float(wait.group(1)) <= 0.5, ws.errors[-1]
        ws.close()


def test_the_server_restarting_between_two_moves_loses_nothing(settings: Settings) -> None:
    with running_app(settings) as first:
        table_id, tokens = set_up_table(first, "toy", 2)
        a = WsClient(first, table_id, tokens[0]).connect()
        ack = a.outcome(a.command(_plan(3)))
        assert is_ack(ack)
        a.close()
    with running_app(settings) as second:
        a.client = second  # the same browser tab, reconnecting to the new process
        a.connect(since=a.version)
        assert a.messages[-1]["type"] == "patch"
        assert a.game["my_plan"] == 3 and a.version == ack["version"]
        assert a.held_equals_snapshot()
        b = WsClient(second, table_id, tokens[1]).connect()
        assert b.game["planning"] == ["committed", "planning"]
        assert is_ack(b.outcome(b.command(_plan(1))))
        a.sync(table_version(second, table_id))
        assert a.game["phase"] == "action"
        a.close()
        b.close()


def test_after_the_end_commands_are_refused_but_old_ids_still_answer(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    players = [WsClient(client, table_id, t).connect() for t in tokens]
    first = players[0].outcome(players[0].command(_plan(1), "first"))
    play_round_robin(client, table_id, dict(enumerate(players)), [], random.Random(1), 50)
    version = table_version(client, table_id)
    late = players[1].outcome(players[1].command({"type": "pass"}))
    assert late["code"] == "finished"
    players[0].send({"type": "command", "id": "first", "cmd": _plan(1)})
    players[0].messages.clear()
    again = players[0].read_until(lambda m: is_ack(m) or m["type"] == "error")
    assert again == {"type": "ack", "id": "first", "version": first["version"]}
    assert table_version(client, table_id) == version
