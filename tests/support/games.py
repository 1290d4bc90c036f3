"""The one list of games the cross-game tests play: every game the registry knows
(``server.engine.registry.KNOWN_GAMES``) and every test game under ``tests/games/<name>/``
(a package with a ``game.py``), each with its manifest and test profile.

A game added to the registry, or a test game added under ``tests/games/``, is in every
cross-game test at once: no such test names a game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from server.engine import Game, Manifest, get_game, get_manifest
from server.engine.registry import KNOWN_GAMES

ROOT = Path(__file__).resolve().parents[2]
TEST_GAMES_DIR = ROOT / "tests" / "games"
JS_DIR = ROOT / "web" / "static" / "js"


@cache
def packages() -> dict[str, str]:
    """Every game's name -> the package that registers it, each imported (registered)."""
    found = dict(KNOWN_GAMES)
    for path in sorted(TEST_GAMES_DIR.iterdir()):
        if (path / "game.py").is_file() and path.name not in found:
            found[path.name] = f"tests.games.{path.name}"
    for module in found.values():
        importlib.import_module(module)
    return found


def names() -> list[str]:
    """Every game the cross-game tests play, sorted."""
    return sorted(packages())


def shipped() -> list[str]:
    """The games this build hosts (the registry's), sorted."""
    return sorted(KNOWN_GAMES)


def manifest(name: str) -> Manifest:
    packages()
    return get_manifest(name)


def game(name: str) -> Game:
    packages()
    return get_game(name)


def package_dir(name: str) -> Path:
    return ROOT / Path(*packages()[name].split("."))


def shapes(name: str) -> tuple[Any, Any]:
    """The ``TypedDict``s the game declares for its state and its commands, by the names of
    docs/adding-a-game.md (``<Name>State``, ``<Name>Command``), from whichever of its modules
    declares them (others may import them: the same object)."""
    title = name.capitalize()
    found: list[Any] = []
    for wanted in (f"{title}State", f"{title}Command"):
        held = {id(v): v for v in _module_values(name, wanted)}
        assert len(held) == 1, f"{name} declares {wanted} {len(held)} times, not once"
        found += held.values()
    return found[0], found[1]


def _module_values(name: str, attribute: str) -> list[Any]:
    """``attribute`` of every module of the game's package that has it (test modules aside)."""
    modules = sorted(
        p.stem for p in package_dir(name).glob("*.py") if not p.stem.startswith("test")
    )
    loaded = [
        importlib.import_module(f"{packages()[name]}.{m}") for m in modules if m != "__init__"
    ]
    return [getattr(module, attribute) for module in loaded if hasattr(module, attribute)]


def with_page() -> list[str]:
    """The games that have a table page (a page module under web/static/js)."""
    return [n for n in names() if manifest(n).page_module and page_module_path(n).is_file()]


def page_module_path(name: str) -> Path:
    return JS_DIR / manifest(name).page_module


def game_modules(name: str) -> list[Path]:
    """The page's modules of ``name``: every module in its folder
    (``web/static/js/games/<name>/``)."""
    page = page_module_path(name)
    return sorted(p for p in page.parent.glob("*.js") if p.is_file())


@dataclass(frozen=True)
class Setup:
    """One game setup a test plays: a game, a seat count and full options."""

    game: str
    seats: int
    options: dict[str, Any]

    def __str__(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game}-{self.seats}" + (f"-{extra}" if extra else "")


def setups(spread: bool = True) -> list[Setup]:
    """Each game at every seat count of its profile with its default options, then each of
    its other option sets once (at the seat counts in turn); ``spread=False``: only the
    smallest and largest seat counts with the defaults."""
    out = []
    for name in names():
        m = manifest(name)
        counts = m.seat_counts()
        if not spread:
            counts = tuple(sorted({counts[0], counts[-1]}))
        defaults = m.defaults()
        sets = [dict(s) for s in m.test.option_sets if dict(s)]
        out += [Setup(name, n, defaults) for n in counts]
        all_counts = m.seat_counts()
        out += [
            Setup(name, all_counts[-1 - i % len(all_counts)], {**defaults, **options})
            for i, options in enumerate(sets)
        ]
    return out
