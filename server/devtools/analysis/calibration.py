"""How good the analysis's win chances are: their Brier score on self-play games.

A self-play game (greedy bots in every seat, from a fixed seed) is played to its end; at the
start of each round (the first: the game as dealt) the evaluator (``compute.win_chances``)
gives each seat a chance to win, and the game's result says who did. The Brier score of one
position is the sum over the seats of (chance - outcome)², the outcome a seat's share of the
win (1, 0, or 1/k for a k-way tie, as tournaments count them): 0 is a perfect forecast, and
always saying 1/n to n seats scores (n-1)/n. The evaluator is set beside two forecasts that
need no play-outs: the current score leader's share (ties split; at the start every seat
leads) and the uniform 1/n.

The positions of one game are not independent (one outcome judges them all), so the standard
error is taken over games: each game's mean Brier score is one observation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.analysis.compute import win_chances
from server.bots import decide
from server.bots.adapters import adapter_for
from server.engine import Game, State, get_game

# Forecasts compared, in the order they are printed.
FORECASTS = ("evaluator", "leader", "uniform")


def brier(forecast: Sequence[float], outcome: Sequence[float]) -> float:
    """The Brier score of one forecast: sum over seats of (chance - outcome)².

    >>> round(brier([0.5, 0.5, 0.0], [1.0, 0.0, 0.0]), 6)
    0.5
    """
    if len(forecast) != len(outcome):
        raise ValueError(f"{len(forecast)} chances for {len(outcome)} seats")
    return sum((p - o) ** 2 for p, o in zip(forecast, outcome, strict=True))


def leader_share(scores: Sequence[float]) -> list[float]:
    """The baseline forecast: every seat with the highest score gets an equal share.

    >>> leader_share([3, 7, 7, 1])
    [0.0, 0.5, 0.5, 0.0]
    """
    top = max(scores)
    leaders = [s for s, score in enumerate(scores) if score == top]
    return [1.0 / len(leaders) if s in leaders else 0.0 for s in range(len(scores))]


def outcome_of(result: Mapping[str, Any], seats: int) -> list[float]:
    """Each seat's share of the win in a finished game's ``result`` (ties split)."""
    winners = result["winners"]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(seats)]


def score_now(game: Game, state: State) -> list[float]:
    """Each seat's score so far, as the players see it: Norenberc's "score if the game ended
    now" (money left out), Strasbourg's prestige."""
    view = game.view(state, None)
    if view.get("score_now"):
        return [float(sum(cats.values())) for cats in view["score_now"]["seats"]]
    return [float(p["prestige"]) for p in view["players"]]


def round_starts(game_name: str, seats: int, seed: str) -> tuple[list[State], list[float]]:
    """A greedy self-play game from ``seed``: the true state at the start of each round (the
    first: as dealt) and each seat's share of the win."""
    game = get_game(game_name)
    state = game.new(seats, seed, game.default_options())
    starts: dict[int, State] = {1: state}
    step = 0
    while (result := game.result(state)) is None:
        seat = min(game.to_act(state))
        cmd = decide("greedy", game_name, game.view(state, seat), seat, f"{seed}:{step}")
        state, events = game.apply(state, seat, cmd)
        for ev in events:
            number = (ev.get("params") or {}).get("round")
            if ev["type"] == "RoundStarted" and isinstance(number, int):
                starts.setdefault(number, state)
        step += 1
    return [starts[r] for r in sorted(starts)], outcome_of(result, seats)


@dataclass
class Scores:
    """Each forecast's mean Brier score per game (one entry per game played)."""

    per_game: dict[str, list[float]] = field(default_factory=lambda: {f: [] for f in FORECASTS})
    positions: int = 0

    def mean(self, forecast: str) -> float:
        values = self.per_game[forecast]
        return sum(values) / len(values)

    def stderr(self, forecast: str, against: str | None = None) -> float:
        """The standard error of ``forecast``'s mean over games (of its difference from
        ``against``'s, game by game, when given)."""
        values = self.per_game[forecast]
        if against is not None:
            values = [a - b for a, b in zip(values, self.per_game[against], strict=True)]
        return _stderr(values)


def _stderr(values: Sequence[float]) -> float:
    if len(values) < 2:
        return math.nan
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return math.sqrt(variance / len(values))


Chances = Callable[[Game, State, int, str], list[float]]


def evaluator(playouts: int) -> Chances:
    """The analysis's own forecast: ``compute.win_chances`` with ``playouts`` play-outs."""

    def chances(game: Game, state: State, seats: int, seed: str) -> list[float]:
        adapter = adapter_for(game.name)
        return win_chances(game, adapter, state, seats, playouts, seed)

    return chances


def calibrate(game_name: str, seats: int, seeds: Sequence[str], chances: Chances) -> Scores:
    """The Brier scores of ``chances``, the leader's share and 1/n on the self-play games of
    ``seeds``, at the start of every round."""
    game = get_game(game_name)
    scores = Scores()
    for seed in seeds:
        starts, outcome = round_starts(game_name, seats, seed)
        sums = dict.fromkeys(FORECASTS, 0.0)
        for r, state in enumerate(starts):
            forecasts = {
                "evaluator": chances(game, state, seats, f"calibration:{seed}:{r}"),
                "leader": leader_share(score_now(game, state)),
                "uniform": [1.0 / seats] * seats,
            }
            for name, forecast in forecasts.items():
                sums[name] += brier(forecast, outcome)
        for name in FORECASTS:
            scores.per_game[name].append(sums[name] / len(starts))
        scores.positions += len(starts)
    return scores
