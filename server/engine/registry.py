"""Look games up by name. Game packages register themselves on import."""

from __future__ import annotations

import importlib

from .errors import RuleError
from .game import Game

# name -> module that registers it; imported lazily so the core imports no game.
KNOWN_GAMES = {
    "norenberc": "server.games.norenberc",
    "strasbourg": "server.games.strasbourg",
}

_registry: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Make ``game`` available to ``get_game``; returns it so it can be used as a value."""
    _registry[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The game called ``name``; raises RuleError('unknown_game') for any other name."""
    if name not in _registry and name in KNOWN_GAMES:
        importlib.import_module(KNOWN_GAMES[name])
    try:
        return _registry[name]
    except KeyError:
        names = ", ".join(sorted(set(KNOWN_GAMES) | set(_registry)))
        raise RuleError("unknown_game", f"no game called {name!r} (known: {names})") from None


def game_names() -> list[str]:
    """Names of every game this build can host."""
    return sorted(set(KNOWN_GAMES) | set(_registry))
