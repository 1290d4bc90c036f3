"""A whole Strasbourg game through the real server: one person's seat scripted over the
websocket against the server's own bots (greedy, MCTS, random), on SQLite and Postgres
(three seats in the fast tier, four against every kind at once in the soak tier).

The person plays from what their websocket document shows (the heuristic reads that view),
sends one illegal command on the way, and never sees another seat's secrets. At the end
the record replays with ``guildhall verify``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import server.bots
import server.tables.bots
from server.bots import Budget
from server.bots.strasbourg import choose
from server.commands import verify
from server.engine import Rng
from server.settings import Settings
from tests.support.acks import is_ack
from tests.support.play import running_app, set_up_table, table_version
from tests.support.wsclient import WsClient

MAX_STEPS = 3000
# Fields of another seat's entry in ``players`` (nothing private may appear there).
PUBLIC_PLAYER = {
    "seat",
    "prestige",
    "stacks",
    "planning",
    "city_members",
    "council_members",
    "revealed",
    "passed",
    "cards_left",
    "spent",
}


@pytest.fixture(autouse=True)
def quick_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's MCTS seat thinks a few short iterations instead of 0.8 s per decision:
    enough to run its search (select, expand, roll out, back up) at every decision; how well
    it plays is tests/bots' concern."""
    quick = Budget(iterations=4, horizon=6)
    monkeypatch.setattr(server.bots, "DEFAULT_BUDGET", quick)
    # The table's bot driver took its own name for the budget at import: patch it there too.
    monkeypatch.setattr(server.tables.bots, "DEFAULT_BUDGET", quick)


def _check_private(game: dict[str, Any], seat: int) -> None:
    assert game["seat"] == seat
    for p in game["players"]:
        assert set(p) == PUBLIC_PLAYER
    if game["me"] is not None:
        assert game["me"]["deck"] + len(game["me"]["hand"]) <= 24


def _wait_for_change(ws: WsClient) -> None:
    ws.read_until(lambda m: m["type"] in ("patch", "snapshot"))


# Each store once and each planning mode once: the game is the same code on both stores
# (tests/server/test_storage.py checks the stores themselves on every path). The fast tier
# plays three seats, each bot kind on one store at least; the four-seat games against all
# three kinds at once play in the soak tier.
FAST_SQLITE: list[str | None] = [None, "greedy", "mcts"]
FAST_POSTGRES: list[str | None] = [None, "mcts", "random"]
EVERY_KIND: list[str | None] = [None, "greedy", "mcts", "random"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("database_kind", "planning", "bots"),
    [
        pytest.param("sqlite", "simultaneous", FAST_SQLITE, id="sqlite-simultaneous-3"),
        pytest.param(
            "postgres",
            "ordered",
            FAST_POSTGRES,
            id="postgres-ordered-3",
            marks=pytest.mark.postgres,
        ),
        pytest.param(
            "sqlite", "simultaneous", EVERY_KIND, id="sqlite-simultaneous-4", marks=pytest.mark.soak
        ),
        pytest.param(
            "postgres",
            "ordered",
            EVERY_KIND,
            id="postgres-ordered-4",
            marks=[pytest.mark.postgres, pytest.mark.soak],
        ),
    ],
    indirect=["database_kind"],
)
def test_a_person_plays_a_whole_strasbourg_game_against_server_bots(
    settings: Settings, planning: str, bots: list[str | None]
) -> None:
    with running_app(settings) as client:
        table_id, tokens = set_up_table(
            client, "strasbourg", len(bots), bots=bots, planning=planning
        )
        me = WsClient(client, table_id, tokens[0]).connect()
        spectator = WsClient(client, table_id).connect()
        rng = Rng(7)
        sent = 0
        tried_illegal = False
        for _ in range(MAX_STEPS):
            me.sync(table_version(client, table_id))
            assert me.doc is not None
            if me.doc["table"]["status"] == "finished":
                break
            game = me.game
            _check_private(game, 0)
            # A seat that sealed may still take its stacks back, but nobody waits for it.
            if not me.legal or 0 not in game["to_act"]:
                _wait_for_change(me)
                continue
            if not tried_illegal and game["phase"] == "influence":
                error = me.outcome(me.command({"type": "reveal", "stack": 20}))
                assert error["type"] == "error" and error["code"] == "not_allowed"
                tried_illegal = True
                continue
            outcome = me.outcome(me.command(choose(game, 0, rng)))
            # The table may move on between reading the view and the command arriving
            # (a bot's step ending mine); then the command is refused and retried.
            assert is_ack(outcome) or outcome.get("code") in ("not_your_turn",), outcome
            sent += is_ack(outcome)
        else:
            raise AssertionError("the game did not finish")
        spectator.sync(table_version(client, table_id))
        assert spectator.doc is not None and spectator.game["me"] is None
        assert me.held_equals_snapshot() and spectator.held_equals_snapshot()
        record = client.get(f"/api/tables/{table_id}/record").json()
    assert tried_illegal and sent > 40
    result = record["result"]
    assert len(result["scores"]) == len(bots) and result["winners"]
    assert me.game["result"] == result
    assert verify.replay(json.loads(json.dumps(record))) == result
