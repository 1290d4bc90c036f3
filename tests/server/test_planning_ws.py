"""Sealed planning over the websocket: the seal, waiting, retracting, ordered mode, bots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import server.bots
import server.tables.bots
from server.settings import Settings
from tests.support.play import (
    blanked,
    play_round_robin,
    running_app,
    seeded_table,
    set_up_table,
    step_all,
)
from tests.support.testclient import TestClient
from tests.support.toy import TOY
from tests.support.wsclient import WsClient


def _plan(value: int) -> dict[str, Any]:
    return {"type": "plan", "value": value}


def _messages_of_a(client: TestClient, plan_of_b: int) -> tuple[list[str], list[str]]:
    """Seat A's messages before and after seat B's plan is revealed, table id blanked."""
    table_id, tokens = seeded_table(client, "toy", 3, "same-seed-for-both")
    a, b, c = (WsClient(client, table_id, t) for t in tokens)
    for ws in (a, b, c):
        ws.connect()
        if ws is not a:
            a.read_until(lambda m: m["type"] == "patch")  # the presence change
    everyone = [a, b, c]
    # Planning order is 2, 1, 0; everyone may commit at once.
    step_all(client, table_id, a, _plan(2), everyone)
    step_all(client, table_id, b, _plan(plan_of_b), everyone)
    step_all(client, table_id, c, _plan(1), everyone)
    step_all(client, table_id, a, {"type": "collect"}, everyone)  # A's turn reveals A's plan
    before = [blanked(m, table_id, tokens) for m in a.messages]
    a.messages.clear()
    step_all(client, table_id, b, {"type": "collect"}, everyone)  # B's turn reveals B's plan
    after = [blanked(m, table_id, tokens) for m in a.messages]
    for ws in everyone:
        ws.close()
    return before, after


def test_seat_a_receives_identical_messages_whatever_b_planned_until_b_is_revealed(
    client: TestClient,
) -> None:
    before_1, after_1 = _messages_of_a(client, plan_of_b=1)
    before_3, after_3 = _messages_of_a(client, plan_of_b=3)
    assert len(before_1) > 8
    assert before_1 == before_3
    assert after_1 != after_3  # the comparison does see B's plan once it is revealed
    assert any("had planned 1" in m for m in after_1)


def test_one_wait_orders_the_phase_and_makes_plans_final_over_the_socket(
    client: TestClient,
) -> None:
    """N-4.4 … N-4.6 through the server: retract before a wait, one at a time after it."""
    table_id, tokens = set_up_table(client, "toy", 3)
    s0, s1, s2 = (WsClient(client, table_id, t).connect() for t in tokens)
    everyone = [s0, s1, s2]
    # Planning order 2, 1, 0. Seat 2 plans, takes it back and plans again while nobody waits.
    step_all(client, table_id, s2, _plan(3), everyone)
    step_all(client, table_id, s2, {"type": "retract"}, everyone)
    step_all(client, table_id, s2, _plan(2), everyone)
    # Seat 0 asks to wait: seat 2's plan is final, seat 1 then seat 0 plan in turn.
    step_all(client, table_id, s0, {"type": "wait"}, everyone)
    assert s1.game["planning"] == ["waiting", "planning", "committed"]
    assert {"type": "retract"} not in s2.legal
    assert s2.outcome(s2.command({"type": "retract"}))["code"] in (
        "not_your_turn",
        "cannot_retract",
    )
    assert s0.outcome(s0.command(_plan(1)))["code"] in ("not_your_turn", "must_wait")
    step_all(client, table_id, s1, _plan(1), everyone)
    assert s0.game["planning"] == ["planning", "committed", "committed"]
    assert s0.game.get("my_plan") is None and "value" not in json.dumps(s0.game["planning"])
    step_all(client, table_id, s0, _plan(3), everyone)
    assert s0.game["phase"] == "action"


def test_ordered_planning_makes_every_seat_but_the_first_wait(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 4, planning="ordered")
    players = {s: WsClient(client, table_id, t).connect() for s, t in enumerate(tokens)}
    assert players[0].game["planning"] == ["waiting", "waiting", "waiting", "planning"]
    assert players[0].game["to_act"] == [3]
    assert players[0].outcome(players[0].command(_plan(1)))["code"] == "not_your_turn"
    acked = play_round_robin(client, table_id, players, [], random.Random(7))
    assert acked >= 4 * 2 * 3


def test_bots_play_their_seats_from_their_own_view_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, dict[str, Any]]] = []
    real_decide = server.bots.decide

    def spying_decide(
        kind: str, game: str, view: dict[str, Any], seat: int, seed: str, **options: Any
    ) -> Any:
        seen.append((seat, json.loads(json.dumps(view))))
        return real_decide(kind, game, view, seat, seed, **options)

    monkeypatch.setattr(server.tables.bots, "decide", spying_decide)
    table_id, tokens = set_up_table(client, "toy", 3, bots=[None, "random", "random"])
    human = WsClient(client, table_id, tokens[0]).connect()
    play_round_robin(client, table_id, {0: human}, [], random.Random(3))
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert {c["seat"] for c in record["commands"]} == {0, 1, 2}
    views = _views_along(record)
    assert len(seen) >= sum(c["seat"] != 0 for c in record["commands"])
    for seat, view in seen:
        assert seat in (1, 2)
        assert view in views[seat]


def _views_along(record: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """Every view each seat had during the recorded game."""
    state = TOY.new(record["seats"], record["seed"], record["options"])
    views: dict[int, list[dict[str, Any]]] = {s: [] for s in range(record["seats"])}
    for command in record["commands"]:
        for seat in views:
            views[seat].append(TOY.view(state, seat))
        state, _ = TOY.apply(state, command["seat"], command["cmd"])
    return views


def test_a_seat_handed_to_a_bot_plays_on_and_its_old_token_stops(settings: Settings) -> None:
    with running_app(settings) as client:
        table_id, tokens = set_up_table(client, "toy", 2)
        stays = WsClient(client, table_id, tokens[0]).connect()
        leaving = WsClient(client, table_id, tokens[1]).connect()
        handed = client.post(
            f"/api/tables/{table_id}/seats/1/bot",
            json={"kind": "random"},
            headers={"Authorization": f"Bearer {tokens[1]}"},  # the seat's own player
        )
        assert handed.status_code == 200, handed.text
        assert handed.json()["seats"][1]["bot"] == "random"
        assert handed.json()["seats"][1]["stand_in"] is True
        # The open socket is told and closed; a new one is refused the seat's document.
        with pytest.raises(ConnectionError, match="4403"):
            leaving.read_until(lambda m: False)
        assert leaving.errors[-1]["code"] == "seat_lost"
        leaving.close()
        gone = WsClient(client, table_id, tokens[1]).connect()
        assert gone.errors[-1]["code"] == "seat_lost" and gone.doc is None
        gone.close()
        play_round_robin(client, table_id, {0: stays}, [], random.Random(5))
        assert stays.doc is not None and stays.doc["table"]["status"] == "finished"


def test_a_failing_bot_does_not_stall_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_decide(kind: str, game: str, view: dict[str, Any], seat: int, seed: str) -> Any:
        raise RuntimeError("the bot crashed")

    monkeypatch.setattr(server.tables.bots, "decide", broken_decide)
    table_id, tokens = set_up_table(client, "toy", 2, bots=[None, "random"])
    human = WsClient(client, table_id, tokens[0]).connect()
    play_round_robin(client, table_id, {0: human}, [], random.Random(4))
    assert human.doc is not None and human.doc["table"]["status"] == "finished"
