"""The generic ISMCTS search runs on Strasbourg unchanged, given determinizations from
``sample_state``: a minimal adapter is all a Strasbourg bot needs from the engine side."""

from __future__ import annotations

import random
from typing import Any

from server.bots.ismcts import Budget, Search
from server.engine import Game, Rng
from server.games.strasbourg.determinize import sample_state
from server.games.strasbourg.scoring import final_result

from .helpers import GAME


class MinimalAdapter:
    """Random rollouts, score-share evaluation, determinization from the engine."""

    def heuristic(self, view: dict[str, Any], seat: int, rng: Rng) -> dict[str, Any]:
        return dict(view["legal"][0])

    def candidates(self, view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return list(view["legal"])

    def determinize(self, view: dict[str, Any], seat: int, rng: Rng) -> dict[str, Any]:
        return sample_state(view, rng)

    def rollout(self, game: Game, state: dict[str, Any], seat: int, rng: Rng) -> dict[str, Any]:
        legal = game.legal(state, seat)
        return legal[rng.below(len(legal))]

    def evaluate(self, game: Game, state: dict[str, Any], seat: int) -> float:
        scores = final_result(state)["scores"]
        low = min(scores)
        total = sum(s - low for s in scores)
        return 0.5 if total == 0 else (scores[seat] - low) / total


def test_search_picks_a_legal_command_in_every_phase() -> None:
    rng = random.Random(4)
    state = GAME.new(3, "search", {})
    phases: set[str] = set()
    searched = 0
    while GAME.result(state) is None and searched < 12:
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        if state["phase"] not in phases and len(view["legal"]) > 1:
            phases.add(state["phase"])
            budget = Budget(iterations=8, horizon=60)
            cmd = Search(GAME, MinimalAdapter(), view, seat, Rng(searched), budget).run()
            assert cmd in view["legal"]
            searched += 1
        else:
            cmd = rng.choice(view["legal"])
        state, _ = GAME.apply(state, seat, cmd)
    assert {"tasks", "planning", "influence"} <= phases
