"""The clauses of a game's rules text and the rules its engine cites, for the clause tests
(``tests/games/test_clauses.py`` across the games, each game's own in ``tests/games/<game>/``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from server.engine import Game, RuleError
from server.resources import ROOT
from tests.support.playout import Seeded, play, states

CLAUSE = re.compile(r"^\s*- \*\*([NS]-[A-Z0-9]+\.[0-9]+[a-z]?)\*\*", re.MULTILINE)
CLAUSE_ID = re.compile(r"[NS]-[A-Z0-9]+\.[0-9]+[a-z]?")


def rules_clauses(game: str) -> set[str]:
    """The clause ids docs/rules/<game>.md defines."""
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


def rules_of_whole_games(
    engine: Game, game: str, setups: list[tuple[int, dict[str, Any]]]
) -> set[str]:
    """The rules every view names over whole games of ``setups`` (seats, options), each view of
    each seat and of a spectator asserted to name a clause of the game's rules."""
    clauses = rules_clauses(game)
    seen: set[str] = set()
    for seats, options in setups:
        record = play(engine, seats, f"clauses-{seats}", options, Seeded(f"clauses-{seats}"))
        for state in states(engine, record):
            for seat in [None, *range(seats)]:
                rule = engine.view(state, seat)["rule"]
                assert rule in clauses, (seat, rule)
                seen.add(rule)
    return seen


# A few odd commands of every game (and of none), sent by every seat along a game.
ODD_COMMANDS: list[Any] = [
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


def refusals(engine: Game, seats: int, options: dict[str, Any]) -> list[RuleError]:
    """Every refusal of the odd commands sent by every seat at every seventh step of a game."""
    record = play(engine, seats, "refusals", options, Seeded("refusals"))
    found = []
    for n, state in enumerate(states(engine, record)):
        if n % 7:
            continue
        for seat in range(seats):
            for cmd in ODD_COMMANDS:
                try:
                    engine.apply(state, seat, cmd)
                except RuleError as exc:
                    found.append(exc)
    return found
