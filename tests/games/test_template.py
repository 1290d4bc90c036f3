"""Every game package keeps the one contract of docs/adding-a-game.md: the engine's phase shell
in ``game.py`` and the manifest in ``manifest.py``, both registered when the package is imported,
and the shapes of its state and commands declared once; none of the engine's plumbing is copied
into it. How a game splits its rules into modules is its own: Lantern market has one
``rules.py``, Norenberc and Strasbourg a module for each part of their rules."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import get_args, is_typeddict

import pytest

from server.engine import get_game, get_manifest
from server.engine.phases import PhaseGame
from server.engine.registry import KNOWN_GAMES
from tests.support import games

ROOT = Path(__file__).resolve().parents[2]
# The modules every game has (docs/adding-a-game.md, "The contract"), and what each must define.
CONTRACT = {
    "__init__": {"GAME", "MANIFEST"},
    "game": {"GAME"},
    "manifest": {"MANIFEST"},
}
# Plumbing the engine has once (server.engine): a game that defines one of these names again
# has copied it.
ENGINE_PLUMBING = {
    "clone",
    "draft",
    "own_item",
    "own_all",
    "DataError",
    "read_json",
    "parse_json",
    "replay",
    "PLANNING_MODES",
}


# The real games, and the test games built from the guide alone.
PACKAGES = games.packages()


def game_dirs() -> dict[str, Path]:
    dirs = {name: games.package_dir(name) for name in PACKAGES}
    assert set(KNOWN_GAMES) < set(dirs), "no test game is known"
    return dirs


def test_every_game_has_the_contract_modules() -> None:
    contract = {f"{name}.py" for name in CONTRACT}
    for name, path in game_dirs().items():
        modules = {p.name for p in path.glob("*.py")}
        assert contract <= modules, f"{name} lacks {sorted(contract - modules)}"


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_each_contract_module_holds_what_the_guide_says(game: str) -> None:
    for module, names in CONTRACT.items():
        dotted = PACKAGES[game] + ("" if module == "__init__" else f".{module}")
        loaded = importlib.import_module(dotted)
        missing = {n for n in names if not hasattr(loaded, n)}
        assert not missing, f"{dotted} lacks {sorted(missing)}"
    shell = importlib.import_module(PACKAGES[game] + ".game").GAME
    assert isinstance(shell, PhaseGame), f"{game}: GAME is not built by the phase kit"
    assert importlib.import_module(PACKAGES[game]).GAME is shell is get_game(game)
    assert importlib.import_module(PACKAGES[game] + ".manifest").MANIFEST is get_manifest(game)


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_each_game_declares_the_shapes_of_its_state_and_commands(game: str) -> None:
    state, command = games.shapes(game)
    assert is_typeddict(state) and {"seats", "phase", "options", "rng"} <= set(
        state.__annotations__
    )
    assert all(is_typeddict(shape) for shape in get_args(command) or (command,))


def test_no_game_copies_the_engines_plumbing() -> None:
    for name, path in game_dirs().items():
        for source in sorted(path.glob("*.py")):
            tree = ast.parse(source.read_text(encoding="utf-8"))
            defined = {
                node.name
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.ClassDef)
            } | {
                target.id
                for node in ast.walk(tree)
                if isinstance(node, ast.Assign)
                for target in node.targets
                if isinstance(target, ast.Name)
            }
            copied = defined & ENGINE_PLUMBING
            assert not copied, f"{name}/{source.name} defines {sorted(copied)} again"
            text = source.read_text(encoding="utf-8")
            assert "import json" not in text and "import copy" not in text, source
