"""Look games up by name. Game packages register themselves on import."""

from __future__ import annotations

import importlib

from .errors import RuleError
from .game import Game
from .manifest import Manifest, manifest_of

# name -> module that registers it; imported lazily so the core imports no game. The one
# place the server names its games: everything else reads their manifests.
KNOWN_GAMES = {
    "norenberc": "server.games.norenberc",
    "strasbourg": "server.games.strasbourg",
}

_registry: dict[str, Game] = {}
_manifests: dict[str, Manifest] = {}


def register_game(game: Game, manifest: Manifest | None = None) -> Game:
    """Make ``game`` available to ``get_game``, described by ``manifest`` (one made from the
    game itself when it brings none); returns the game so it can be used as a value."""
    manifest = manifest or manifest_of(game)
    if manifest.name != game.name:
        raise ValueError(f"the manifest of {game.name!r} is named {manifest.name!r}")
    _registry[game.name] = game
    _manifests[game.name] = manifest
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


def get_manifest(name: str) -> Manifest:
    """The manifest of the game called ``name``; RuleError('unknown_game') like ``get_game``."""
    get_game(name)
    return _manifests[name]


def game_names() -> list[str]:
    """Names of every game this build can host."""
    return sorted(set(KNOWN_GAMES) | set(_registry))
