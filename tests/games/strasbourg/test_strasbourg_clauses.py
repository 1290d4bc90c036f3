"""Strasbourg's rule behind each decision: every view of whole games names a clause of
docs/rules/strasbourg.md, and the games meet each decision with its own clause (the clause
tests of every game: tests/games/)."""

from __future__ import annotations

from typing import Any

from tests.support.clauses import rules_of_whole_games

from .helpers import GAME

WHOLE_GAMES: list[tuple[int, dict[str, Any]]] = [
    (3, {"planning": "simultaneous"}),
    (5, {"planning": "ordered"}),
]


def test_every_view_of_whole_games_names_a_rule_of_the_game() -> None:
    seen = rules_of_whole_games(GAME, "strasbourg", WHOLE_GAMES)
    # The decisions a whole game meets, each with its own clause.
    assert {"S-3.4", "S-4.1", "S-4.2", "S-4.4", "S-4.6", "S-5.1", "S-B.1", "S-7.6"} <= seen
