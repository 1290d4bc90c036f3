"""The Norenberc position model's shortcuts give what the long way gives."""

from __future__ import annotations

import pytest

from server.bots.norenberc_model import Position, holdings, scored_now
from server.engine import get_game
from server.games.norenberc.scoring import score_holdings
from tests.support.playout import play_to, random_policy

GAME = get_game("norenberc")
TAX_COLLECTOR = {"kind": "citizen", "citizen": "tax_collector", "value": None, "symbol": "sun"}


def _long_way(pos: Position) -> list[int]:
    guilds = list(range(1, len(pos.goods) + 1))
    return [sum(b.values()) for b in score_holdings([holdings(s) for s in pos.seats], guilds)]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_scores_are_the_engines_with_money_added_apart(seats: int) -> None:
    # ``scored_now`` scores the tiles once per holdings and adds the money's part (the richest
    # bonus, tax collectors) apart: every purse, tie and collector must give the same VP.
    purses = [
        [25.0] * seats,  # all tied for the richest
        [float(10 * s) for s in range(seats)],  # one richest
        [40.9, 40.2, *[3.0] * (seats - 2)],  # tied once counted as whole talers
        [-1.5, 19.99, *[0.0] * (seats - 2)],  # a purse a tried purchase overdrew
    ]
    for steps in (0, 60, 140):
        state = play_to(GAME, seats, f"model-{seats}", steps, random_policy)
        view = GAME.view(state, None)
        for purse in purses:
            for collectors in (0, 1, 2):
                pos = Position.from_view(view, purse)
                pos.seats[0].citizens += [TAX_COLLECTOR] * collectors
                assert scored_now(pos) == _long_way(pos), (steps, purse, collectors)
