"""The pure analysis (server/analysis/compute.py) on a short game of each game: win chances
by play-outs (ties split), verdicts from the deciding seat's view only, the summary lists."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from server.analysis import Params, analyse_step, replay_record, summarise
from server.analysis.compute import is_persons_decision, judge, margin, steps_of
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


def _made_by_bots(record: dict[str, Any], steps: list[int], by: str) -> dict[str, Any]:
    """``record`` with the commands at ``steps`` marked as made by a bot for the person."""
    commands = [
        {**entry, "by": by} if k in steps else entry for k, entry in enumerate(record["commands"])
    ]
    return {**record, "commands": commands}


def test_a_persons_commands_a_bot_made_for_them_are_not_judged(
    game_record: dict[str, Any],
) -> None:
    """A stand-in's and the clock's bot's commands on the person's seat are not the person's
    decisions; the person's own ones still are, and every step's chances are still drawn."""
    replayed = replay_record(game_record)
    steps = _person_steps(game_record, replayed)[:3]
    marked = _made_by_bots(game_record, steps[:1], "bot")
    marked = _made_by_bots(marked, steps[1:2], "clock")
    for step in steps[:2]:
        position = analyse_step(marked, replayed, step, SMALL)
        unmarked = analyse_step(game_record, replayed, step, SMALL)
        assert position["decision"] is None and unmarked["decision"] is not None
        assert position["chances"] == unmarked["chances"]
    own = analyse_step(marked, replayed, steps[2], SMALL)["decision"]
    assert own is not None
    assert own == analyse_step(game_record, replayed, steps[2], SMALL)["decision"]


def test_the_lists_leave_out_what_a_bot_made_for_a_person() -> None:
    """Positions stored with a verdict on a command the record says a bot made are not
    listed; the person's own are, and a person with none of their own has an empty list."""
    commands = [{"seat": k % 2, "cmd": {"type": "pass"}} for k in range(4)]
    record = {"game": "norenberc", "seats": 2, "bots": [None, None], "commands": commands}
    positions = {
        k: _position(k, [0.5, 0.5], 1000, {**_decision(0.4 - k / 20, 0.1), "seat": k % 2})
        for k in range(4)
    }

    def listed(marked: dict[str, Any]) -> dict[str, list[int]]:
        found = summarise(marked, positions)["costliest"]
        return {seat: [d["step"] for d in decisions] for seat, decisions in found.items()}

    assert listed(record) == {"0": [0, 2], "1": [1, 3]}
    marked = _made_by_bots(_made_by_bots(record, [0, 2], "bot"), [1], "clock")
    assert listed(marked) == {"0": [], "1": [3]}


def test_a_person_a_bot_stood_in_for_at_the_end_keeps_their_own_decisions() -> None:
    """The record names a bot on a seat a bot played as the game ended. A person's seat (it
    has their name) keeps the decisions they made before the stand-in, where the record says
    who made each command; a bot seat (no name) has none, nor has any such seat in a record
    from before ``by`` was stored."""
    commands = [{"seat": k % 3, "cmd": {"type": "pass"}} for k in range(9)]
    positions = {
        k: _position(k, [0.3, 0.3, 0.4], 1000, {**_decision(0.4 - k / 40, 0.1), "seat": k % 3})
        for k in range(9)
    }
    record = {
        "game": "norenberc",
        "seats": 3,
        "names": ["Ann", "Bea", None],
        "bots": [None, "greedy", "greedy"],
        "commands": commands,
    }

    def listed(marked: dict[str, Any]) -> dict[str, list[int]]:
        found = summarise(marked, positions)["costliest"]
        return {seat: [d["step"] for d in decisions] for seat, decisions in found.items()}

    # Bea's last command was her stand-in's; the third seat's were all its bot's.
    marked = _made_by_bots(record, [7, 2, 5, 8], "bot")
    assert listed(marked) == {"0": [0, 3, 6], "1": [1, 4]}
    assert [is_persons_decision(marked, k) for k in range(9)] == [
        True, True, False, True, True, False, True, False, False
    ]  # fmt: skip
    assert listed(record) == {"0": [0, 3, 6]}  # no ``by``: the seat of a bot at the end


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
    assert all(d["cost"] > d["margin"] for d in summary["costliest"]["0"])
    for swing in summary["swings"]:
        assert swing["step"] - 1 in steps and swing["step"] in steps
        assert abs(swing["before"] - swing["after"]) > swing["margin"] > 0
    for k in steps:
        assert summary["playouts"][k] == (0 if k == steps_of(game_record) - 1 else 2)
        assert len(summary["margins"][k]) == game_record["seats"]
    sizes = [abs(s["after"] - s["before"]) for s in summary["swings"]]
    assert sizes == sorted(sizes, reverse=True)


def _position(step: int, chances: list[float], playouts: int, decision: Any = None) -> Any:
    return {
        "step": step,
        "round": 1,
        "chances": chances,
        "playouts": playouts,
        "decision": decision,
    }


def _decision(cost: float, margin: float) -> dict[str, Any]:
    return {
        "seat": 0,
        "made": {"type": "pass"},
        "chance": 0.5 - cost,
        "best": {"type": "sell"},
        "best_chance": 0.5,
        "cost": cost,
        "margin": margin,
    }


def test_the_lists_leave_out_what_is_within_the_noise() -> None:
    """A chance from 4 play-outs is good to about ±30 points (``margin``): a move of 25
    points between two such positions is no swing, one of 80 is; a decision whose cost is
    smaller than its noise is not listed among the costliest."""
    record = played("norenberc", seats=2, seed="noise")
    record = {**record, "commands": record["commands"][:4]}
    positions = {
        0: _position(0, [0.5, 0.5], 4, _decision(0.1, 0.3)),
        1: _position(1, [0.75, 0.25], 4, _decision(0.4, 0.3)),
        2: _position(2, [0.0, 1.0], 0),  # as exact as a final result
        3: _position(3, [0.5, 0.5], 1000),
    }
    summary = summarise(record, positions)
    assert summary["playouts"] == [4, 4, 0, 1000, None]
    assert summary["margins"][2] == [0.0, 0.0]
    assert 0.25 < summary["margins"][1][0] < 0.4 and summary["margins"][3][0] < 0.04
    assert [(s["step"], s["before"], s["after"]) for s in summary["swings"]] == [
        (2, 0.75, 0.0),  # 75 points against the first end's noise alone
        (3, 0.0, 0.5),
    ]  # and not step 1's 25 points, both ends noisy
    assert [d["step"] for d in summary["costliest"]["0"]] == [1]


def test_a_chance_from_no_playouts_reads_exact_and_few_playouts_are_rough() -> None:
    assert margin(0.3, 0) == 0.0
    assert margin(0.0, 4) > 0.25  # 0 % from four play-outs is not a sure thing
    assert margin(0.5, 16) > margin(0.5, 64) > margin(0.5, 256)
    assert margin(0.1, 100) < margin(0.5, 100)
