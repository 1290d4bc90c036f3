"""Generic bots (random, ISMCTS), the tournament runner and its statistics on the sealed-bid
game: legal commands only, no reading of hidden information, determinism, strength."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from server.bots import Budget, canonical_kind, decide
from server.devtools.bots.stats import GameRecord, percentile, summarize, wilson
from server.devtools.bots.tournament import Match, matches, play, run
from server.devtools.commands import tournament as tournament_command
from server.engine import Rng, get_game, seed_to_state

from .sealedbid import GAME

FAST = Budget(iterations=60)


def test_every_bot_kind_only_sends_legal_commands_through_a_whole_game() -> None:
    for seed in ("a", "b", "c"):
        state = GAME.new(4, seed, {})
        kinds = ["random", "greedy", "mcts", "random"]
        step = 0
        while GAME.result(state) is None:
            seat = min(s for s in GAME.to_act(state) if GAME.legal(state, s))
            view = GAME.view(state, seat)
            cmd = decide(kinds[seat], "sealedbid", view, seat, f"{seed}{step}", budget=FAST)
            assert cmd in GAME.legal(state, seat)
            state, _ = GAME.apply(state, seat, cmd)
            step += 1


def _two_worlds_differing_in_seat_1s_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    """Two states alike except for seat 1's hidden hand and the hidden prize order."""
    a = GAME.new(3, "hidden", {})
    b = {**a, "hands": [list(h) for h in a["hands"]], "out": list(a["out"])}
    kept, swapped = a["hands"][1][0], a["hands"][1][1:]
    b["hands"][1], b["out"] = sorted([kept, *a["out"]]), sorted(swapped)
    b["prizes"] = list(reversed(a["prizes"]))
    a, _ = GAME.apply(a, 1, {"type": "bid", "card": swapped[0]})
    b, _ = GAME.apply(b, 1, {"type": "bid", "card": a["out"][0]})
    assert a["hands"][1] != b["hands"][1] and a["planning"]["plans"] != b["planning"]["plans"]
    return a, b


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts"])
def test_a_bot_decides_alike_whatever_another_seats_hidden_data(kind: str) -> None:
    a, b = _two_worlds_differing_in_seat_1s_hand()
    view_a, view_b = GAME.view(a, 0), GAME.view(b, 0)
    assert view_a == view_b
    for seed in ("x", "y", "z"):
        assert decide(kind, "sealedbid", view_a, 0, seed, budget=FAST) == decide(
            kind, "sealedbid", view_b, 0, seed, budget=FAST
        )


def test_mcts_is_deterministic_for_a_seed_and_iteration_budget() -> None:
    view = GAME.view(GAME.new(4, "det", {}), 2)
    picks = {str(decide("mcts", "sealedbid", view, 2, "s", budget=FAST)) for _ in range(3)}
    assert len(picks) == 1


def test_determinizations_match_the_view_they_came_from() -> None:
    a, _ = _two_worlds_differing_in_seat_1s_hand()
    view = GAME.view(a, 0)
    rng = Rng(seed_to_state("d"))
    for _ in range(20):
        sampled = GAME.view(adapter_determinize(view, rng), 0)
        assert sampled == view


def adapter_determinize(view: dict[str, Any], rng: Rng) -> dict[str, Any]:
    from server.bots.adapters import adapter_for

    return adapter_for("sealedbid").determinize(view, 0, rng)


def test_unknown_kinds_and_views_without_commands_are_refused() -> None:
    assert canonical_kind("heuristic") == "greedy"
    with pytest.raises(ValueError, match="unknown bot kind"):
        decide("genius", "sealedbid", {"legal": [{"type": "bid", "card": 1}]}, 0, "s")
    with pytest.raises(ValueError, match="no legal command"):
        decide("random", "sealedbid", {"legal": []}, 0, "s")
    with pytest.raises(ValueError):
        Budget(iterations=None, seconds=None)


def test_seats_rotate_so_every_bot_plays_every_seat_of_each_deal() -> None:
    todo = matches("sealedbid", ["mcts", "heuristic", "random"], 6, "r", FAST)
    assert [m.lineup() for m in todo[:3]] == [
        ("mcts", "greedy", "random"),
        ("greedy", "random", "mcts"),
        ("random", "mcts", "greedy"),
    ]
    assert {m.game_seed() for m in todo[:3]} == {"r-0"}
    assert todo[3].game_seed() == "r-1"


def test_played_games_are_reproducible_and_timed() -> None:
    match = Match("sealedbid", ("mcts", "random"), "p", 0, FAST)
    first, second = play(match), play(match)
    assert first.record == second.record
    assert len(first.times["mcts"]) >= 4 and len(first.times["random"]) >= 4


def test_wilson_interval_stays_in_range_and_narrows_with_more_games() -> None:
    assert wilson(1.0, 10)[1] == pytest.approx(1.0) and wilson(1.0, 10)[0] < 0.8
    assert wilson(0.0, 10)[0] == 0.0
    low_small, high_small = wilson(0.3, 20)
    low_big, high_big = wilson(0.3, 2000)
    assert low_small < low_big < 0.3 < high_big < high_small


def test_summary_splits_ties_and_reports_share_per_seat() -> None:
    records = [
        GameRecord(("a", "b", "b"), (5, 5, 1), (0, 1)),
        GameRecord(("b", "a", "b"), (2, 9, 3), (1,)),
    ]
    a, b = summarize(records)
    assert (a.kind, a.seats, a.share, a.mean_score) == ("a", 1, 0.75, 7.0)
    assert (b.kind, b.seats, b.share) == ("b", 2, 0.125)
    assert percentile([3, 1, 2], 0.99) == 3 and percentile([], 0.5) == 0.0


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
def test_greedy_and_mcts_win_more_than_their_share_against_random(kind: str) -> None:
    # The small game is mostly luck of the deal; a fair share is 1/3 of the games.
    todo = matches("sealedbid", [kind, "random", "random"], 60, "strength", Budget(iterations=20))
    first = summarize([p.record for p in run(todo)])[0]
    assert first.kind == kind and first.share > 0.4


def test_tournament_command_prints_one_line_per_bot(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    tournament_command.add_arguments(parser)
    args = parser.parse_args(
        [
            "sealedbid",
            "--bots",
            "greedy,random",
            "--games",
            "4",
            "--workers",
            "1",
            "--mcts-iterations",
            "20",
            "--mcts-seconds",
            "0",
        ]
    )
    assert tournament_command.run(args) == 0
    out = capsys.readouterr().out
    assert "4 games" in out
    lines = out.splitlines()
    assert lines[1].split()[-3:] == ["median", "p99", "slowest"]
    assert [line.split()[0] for line in lines[2:]] == ["greedy", "random"]
    for line in lines[2:]:  # decision median, p99 and slowest, in that order
        median, p99, slowest = (float(v) for v in line.split()[-6::2])
        assert 0 <= median <= p99 <= slowest


def test_tournament_options_make_the_search_budget() -> None:
    parser = argparse.ArgumentParser()
    tournament_command.add_arguments(parser)
    args = parser.parse_args(
        [
            "sealedbid",
            "--bots",
            "mcts,greedy",
            "--mcts-iterations",
            "7",
            "--mcts-seconds",
            "0",
            "--mcts-horizon",
            "9",
            "--mcts-exploration",
            "0.2",
        ]
    )
    assert tournament_command.budget_from(args) == Budget(
        iterations=7, seconds=None, horizon=9, exploration=0.2
    )


def test_tournament_command_rejects_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    tournament_command.add_arguments(parser)
    args = parser.parse_args(["sealedbid", "--bots", "greedy,oracle"])
    assert tournament_command.run(args) == 2
    assert "unknown bot kind" in capsys.readouterr().err


def test_the_game_registry_sees_the_small_game() -> None:
    assert get_game("sealedbid") is GAME


class _OnlyLowest:
    """The sealed-bid adapter, but the search may consider only the two lowest bids."""

    def __getattr__(self, name: str) -> object:
        from server.bots.adapters import adapter_for

        return getattr(adapter_for("sealedbid"), name)

    def candidates(self, view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        bids = sorted((c for c in view["legal"] if c["type"] == "bid"), key=lambda c: c["card"])
        return bids[:2]


def test_search_only_considers_the_adapters_candidates() -> None:
    from server.bots.ismcts import Search

    for seed in ("c1", "c2", "c3"):
        view = GAME.view(GAME.new(3, seed, {}), 1)
        lowest = sorted(view["hand"])[:2]
        rng = Rng(seed_to_state(seed))
        search = Search(GAME, _OnlyLowest(), view, 1, rng, FAST)  # type: ignore[arg-type]
        picked = search.run()
        assert picked["card"] in lowest and search.iterations == FAST.iterations
