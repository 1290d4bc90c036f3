"""Norenberc's rule behind each decision and each refusal: every view of whole games names a
clause of docs/rules/norenberc.md, the games meet each decision with its own clause, and a
refusal names the clause it enforces (the clause tests of every game: tests/games/)."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import RuleError
from tests.support.clauses import rules_of_whole_games

from .helpers import GAME

WHOLE_GAMES: list[tuple[int, dict[str, Any]]] = [
    (2, {"planning": "simultaneous", "promo": False}),
    (4, {"planning": "ordered"}),
]


def test_every_view_of_whole_games_names_a_rule_of_the_game() -> None:
    seen = rules_of_whole_games(GAME, "norenberc", WHOLE_GAMES)
    # The decisions a whole game meets, each with its own clause.
    assert {"N-4.1", "N-4.4", "N-4.6", "N-5.1", "N-9.7"} <= seen


def test_norenberc_refusals_name_the_rule_they_enforce() -> None:
    engine = GAME
    state = engine.new(3, "cite", {"planning": "simultaneous", "promo": False})
    cases: list[tuple[int, dict[str, Any], str, str]] = [
        (0, {"type": "plan", "guilds": [1, 1]}, "duplicate_guild", "N-4.1"),
        (0, {"type": "plan", "guilds": []}, "no_cards", "N-4.2"),
        (0, {"type": "sell", "count": 1}, "unexpected_command", "N-4.1"),
    ]
    for seat, cmd, code, clause in cases:
        with pytest.raises(RuleError) as caught:
            engine.apply(state, seat, cmd)
        assert (caught.value.code, caught.value.clause) == (code, clause)
    # A wait makes the phase ordered: the others now plan in turn (N-4.6).
    first = state["order"][0]
    state, _ = engine.apply(state, first, {"type": "wait"})
    assert engine.view(state, first)["rule"] == "N-4.6"
    with pytest.raises(RuleError) as caught:
        engine.apply(state, first, {"type": "plan", "guilds": [1]})
    assert (caught.value.code, caught.value.clause) == ("must_wait", "N-4.6")
