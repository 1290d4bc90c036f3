"""The evaluator's calibration (server/devtools/analysis/calibration.py): the Brier score, the score
leader's baseline and the self-play positions they are taken at."""

from __future__ import annotations

import pytest

from server.devtools.analysis.calibration import (
    FORECASTS,
    brier,
    calibrate,
    leader_share,
    outcome_of,
    round_starts,
    score_now,
)
from server.engine import get_game


def test_brier_sums_the_squared_misses_over_the_seats() -> None:
    # Seat 1 won: (0.2-0)² + (0.5-1)² + (0.3-0)² = 0.04 + 0.25 + 0.09
    assert brier([0.2, 0.5, 0.3], [0.0, 1.0, 0.0]) == pytest.approx(0.38)
    assert brier([0.0, 1.0], [0.0, 1.0]) == 0.0  # a sure and right forecast
    assert brier([1.0, 0.0], [0.0, 1.0]) == pytest.approx(2.0)  # a sure and wrong one
    # A tie split two ways, forecast as 1/4 each of four seats:
    assert brier([0.25] * 4, [0.5, 0.5, 0.0, 0.0]) == pytest.approx(4 * 0.0625)


def test_brier_refuses_a_forecast_for_other_seats() -> None:
    with pytest.raises(ValueError, match="3 chances for 2 seats"):
        brier([0.3, 0.3, 0.4], [1.0, 0.0])


def test_the_baseline_gives_the_leaders_equal_shares() -> None:
    assert leader_share([12, 30, 7]) == [0.0, 1.0, 0.0]
    assert leader_share([3, 7, 7, 1]) == [0.0, 0.5, 0.5, 0.0]
    assert leader_share([0, 0, 0]) == pytest.approx([1 / 3] * 3)  # at the start all lead


def test_an_outcome_splits_a_tie() -> None:
    assert outcome_of({"winners": [2]}, 3) == [0.0, 0.0, 1.0]
    assert outcome_of({"winners": [0, 3]}, 4) == [0.5, 0.0, 0.0, 0.5]


@pytest.mark.parametrize("game_name", ["norenberc", "strasbourg"])
def test_round_starts_are_the_deal_and_each_new_round(game_name: str) -> None:
    game = get_game(game_name)
    starts, outcome = round_starts(game_name, 3, "calibration-test")
    assert starts[0] == game.new(3, "calibration-test", game.default_options())
    assert len(starts) >= 3 and sum(outcome) == pytest.approx(1.0)
    assert all(game.result(s) is None for s in starts)
    assert score_now(game, starts[0]) == [0.0, 0.0, 0.0]
    assert any(max(score_now(game, s)) > 0 for s in starts[1:])  # the scores move


def test_calibration_scores_each_forecast_per_game() -> None:
    """A forecast that knows the outcome scores 0; one sure of the wrong seat scores 2."""
    _, outcome = round_starts("strasbourg", 3, "calibration-test")
    winner = outcome.index(max(outcome))
    seeds = ["calibration-test"]
    right = calibrate("strasbourg", 3, seeds, lambda g, s, n, seed: outcome)
    loser = [float(i == (winner + 1) % 3) for i in range(3)]
    wrong = calibrate("strasbourg", 3, seeds, lambda g, s, n, seed: loser)
    assert set(right.per_game) == set(FORECASTS)
    assert outcome[winner] == 1.0  # this game has one winner
    assert right.per_game["evaluator"] == [0.0]
    assert wrong.per_game["evaluator"] == [pytest.approx(2.0)]
    assert right.per_game["uniform"] == [pytest.approx(brier([1 / 3] * 3, outcome))]
    assert right.per_game["leader"] == wrong.per_game["leader"]  # needs no play-outs
