"""The pure analysis (server/analysis/compute.py) on a short game of each game: win chances
by play-outs (ties split), verdicts from the deciding seat's view only, the summary lists."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from server.analysis import Params, analyse_step, replay_record, summarise
from server.analysis.compute import judge, steps_of
from server.engine import Rng, get_game

from .records import played

SMALL = Params(playouts=2, samples=1, candidates=2)
GAMES = ["norenberc", "strasbourg"]


@pytest.fixture(scope="module", params=GAMES)
def game_record(request: pytest.FixtureRequest) -> dict[str, Any]:
    return played(request.param, seats=get_game(request.param).min_seats)


def _person_steps(record: dict[str, Any], replayed: Any) -> list[int]:
    """Steps where the person (seat 0) had a real choice."""
    return [
        k
        for k, entry in enumerate(record["commands"])
        if entry["seat"] == 0 and len(replayed.game.view(replayed.states[k], 0)["legal"]) > 1
    ]


def test_positions_are_deterministic_and_chances_split_the_win(game_record: dict[str, Any]) -> None:
    replayed = replay_record(game_record)
    first = _person_steps(game_record, replayed)[0]
    one = analyse_step(game_record, replayed, first, SMALL)
    again = analyse_step(game_record, replay_record(game_record), first, SMALL)
    assert one == again
    assert one["step"] == first and one["round"] >= 1
    assert sum(one["chances"]) == pytest.approx(1.0)  # every play-out has a winner's share
    decision = one["decision"]
    assert decision is not None and decision["seat"] == 0
    assert decision["made"] == game_record["commands"][first]["cmd"]
    assert decision["cost"] == pytest.approx(decision["best_chance"] - decision["chance"])
    assert any(o["cmd"] == decision["made"] for o in decision["options"])


def test_the_final_position_is_the_result(game_record: dict[str, Any]) -> None:
    replayed = replay_record(game_record)
    last = steps_of(game_record) - 1
    final = analyse_step(game_record, replayed, last, SMALL)
    winners = game_record["result"]["winners"]
    assert final["chances"] == [
        1 / len(winners) if s in winners else 0.0 for s in range(game_record["seats"])
    ]
    assert final["decision"] is None


def test_bots_decisions_are_not_judged(game_record: dict[str, Any]) -> None:
    replayed = replay_record(game_record)
    bot_step = next(k for k, e in enumerate(game_record["commands"]) if e["seat"] == 1)
    assert analyse_step(game_record, replayed, bot_step, SMALL)["decision"] is None


def test_a_verdict_ignores_what_the_seat_could_not_see(game_record: dict[str, Any]) -> None:
    """Swap the true state for another one the deciding seat cannot tell apart (its hidden
    parts sampled anew: other seats' money and plans, deck order), and change the deal's
    seed: the verdict on the seat's decision stays exactly the same."""
    replayed = replay_record(game_record)
    step = _person_steps(game_record, replayed)[2]
    game, adapter = replayed.game, replayed.adapter
    view = game.view(replayed.states[step], 0)

    other_world = adapter.determinize(view, 0, Rng(12345))
    assert game.view(other_world, 0) == view  # nothing the seat saw changed
    assert other_world != replayed.states[step]  # ... but what it did not see did
    changed = copy.copy(replayed)
    changed.states = list(replayed.states)
    changed.states[step] = other_world
    other_record = {**game_record, "seed": "another deal"}
    verdict = analyse_step(game_record, replayed, step, SMALL)["decision"]
    assert analyse_step(other_record, changed, step, SMALL)["decision"] == verdict
    made = game_record["commands"][step]["cmd"]
    assert judge(game, adapter, view, 0, step, made, SMALL) == verdict


def test_summary_lists_costliest_decisions_and_swings(game_record: dict[str, Any]) -> None:
    replayed = replay_record(game_record)
    steps = _person_steps(game_record, replayed)[:6]
    steps = sorted({*steps, *(k + 1 for k in steps)})
    positions = {k: analyse_step(game_record, replayed, k, SMALL) for k in steps}
    summary = summarise(game_record, positions)
    assert summary["steps"] == steps_of(game_record) and summary["done"] == len(steps)
    assert [k for k, c in enumerate(summary["chances"]) if c is not None] == steps
    assert set(summary["costliest"]) == {"0"}  # the one person; bots are not judged
    costs = [d["cost"] for d in summary["costliest"]["0"]]
    assert costs == sorted(costs, reverse=True) and len(costs) <= 3 and all(c > 0 for c in costs)
    for swing in summary["swings"]:
        assert swing["step"] - 1 in steps and swing["step"] in steps
        assert swing["before"] != swing["after"]
    sizes = [abs(s["after"] - s["before"]) for s in summary["swings"]]
    assert sizes == sorted(sizes, reverse=True)
