"""Every game package follows the one template of docs/adding-a-game.md: the same modules
holding the same things, and none of the engine's plumbing copied into it."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from server.engine import get_game, get_manifest
from server.engine.registry import KNOWN_GAMES
from tests.support import games

ROOT = Path(__file__).resolve().parents[2]
# The modules every game has (docs/adding-a-game.md, "The package"), and what each must define.
TEMPLATE = {
    "__init__": {"GAME"},
    "game": {"GAME"},
    "data": {"components", "DATA_PATH"},
    "state": {"State"},
    "setup": {"new_state"},
    "commands": {"check_command"},
    "legal": {"legal"},
    "flow": set(),
    "views": {"build_view"},
    "scoring": set(),
    "determinize": {"sample_state"},
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


def test_every_game_has_the_template_modules() -> None:
    template = {f"{name}.py" for name in TEMPLATE}
    for name, path in game_dirs().items():
        modules = {p.name for p in path.glob("*.py")}
        assert template <= modules, f"{name} lacks {sorted(template - modules)}"


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_each_template_module_holds_what_the_guide_says(game: str) -> None:
    for module, names in TEMPLATE.items():
        dotted = PACKAGES[game] + ("" if module == "__init__" else f".{module}")
        loaded = importlib.import_module(dotted)
        missing = {n for n in names if not hasattr(loaded, n)}
        assert not missing, f"{dotted} lacks {sorted(missing)}"
    assert importlib.import_module(PACKAGES[game]).GAME is get_game(game)
    assert importlib.import_module(PACKAGES[game] + ".manifest").MANIFEST is get_manifest(game)


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
