"""The rule behind each decision and each refusal: every view names the clause its seat's
decision applies (``rule``), every refusal the clause it enforces (``RuleError.clause``), each
a clause of docs/rules/<game>.md, and each id written once in the engine (its ``clauses.py``).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from server.engine import RuleError, get_game
from server.resources import ROOT
from tests.support.playout import Seeded, play, states

CLAUSE = re.compile(r"^\s*- \*\*([NS]-[A-Z0-9]+\.[0-9]+[a-z]?)\*\*", re.MULTILINE)
CLAUSE_ID = re.compile(r"[NS]-[A-Z0-9]+\.[0-9]+[a-z]?")
GAMES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "norenberc": [(2, {"planning": "simultaneous", "promo": False}), (4, {"planning": "ordered"})],
    "strasbourg": [(3, {"planning": "simultaneous"}), (5, {"planning": "ordered"})],
}


def rules_clauses(game: str) -> set[str]:
    return set(CLAUSE.findall((ROOT / "docs" / "rules" / f"{game}.md").read_text("utf-8")))


def code_strings(path: Path) -> list[str]:
    """The string literals of a module, its docstrings left out (prose may cite a clause)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_clause_id_is_written_once_in_the_engine_and_is_a_rule(game: str) -> None:
    written: Counter[str] = Counter()
    for module in sorted((ROOT / "server" / "games" / game).glob("*.py")):
        for text in code_strings(module):
            written.update(CLAUSE_ID.findall(text))
    assert written, "the engine names no clause"
    assert [c for c, n in written.items() if n > 1] == []
    assert set(written) <= rules_clauses(game)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_view_of_whole_games_names_a_rule_of_the_game(game: str) -> None:
    engine, clauses = get_game(game), rules_clauses(game)
    seen: set[str] = set()
    for seats, options in GAMES[game]:
        record = play(engine, seats, f"clauses-{seats}", options, Seeded(f"clauses-{seats}"))
        for state in states(engine, record):
            for seat in [None, *range(seats)]:
                rule = engine.view(state, seat)["rule"]
                assert rule in clauses, (seat, rule)
                seen.add(rule)
    # The decisions a whole game meets, each with its own clause.
    wanted = {
        "norenberc": {"N-4.1", "N-4.4", "N-4.6", "N-5.1", "N-9.7"},
        "strasbourg": {"S-3.4", "S-4.1", "S-4.2", "S-4.4", "S-4.6", "S-5.1", "S-B.1", "S-7.6"},
    }[game]
    assert wanted <= seen


def refusals(game: str) -> list[RuleError]:
    """Every refusal of a few odd commands sent by every seat at every step of a game."""
    engine = get_game(game)
    seats, options = GAMES[game][0]
    record = play(engine, seats, "refusals", options, Seeded("refusals"))
    odd: list[Any] = [
        {"type": "plan", "guilds": [9]},
        {"type": "plan", "guilds": []},
        {"type": "sell", "count": 7},
        {"type": "hire", "window": 4, "payment": {"beer": 1}, "to_front": False},
        {"type": "buy", "goods": {"beer": 3}},
        {"type": "draw"},
        {"type": "reveal", "stack": 9},
        {"type": "build", "cell": [0, 0]},
        {"type": "wait"},
        {"type": "nope"},
        "not a command",
    ]
    found = []
    for n, state in enumerate(states(engine, record)):
        if n % 7:
            continue
        for seat in range(seats):
            for cmd in odd:
                try:
                    engine.apply(state, seat, cmd)
                except RuleError as exc:
                    found.append(exc)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refusal_names_a_rule_of_the_game(game: str) -> None:
    found = refusals(game)
    clauses = rules_clauses(game)
    assert len({e.code for e in found}) >= 5
    assert [e for e in found if e.clause not in clauses] == []


def test_norenberc_refusals_name_the_rule_they_enforce() -> None:
    engine = get_game("norenberc")
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
