"""Lantern market (2-4 players), a tiny game built from docs/adding-a-game.md alone, for tests:
each round every seat seals a bid for the shown lantern; the highest bid buys it (a tie: first
in order). Scores: lantern values plus coins kept. Importing this registers "lantern"."""

from server.engine import register_game

from .data import components
from .game import GAME
from .manifest import MANIFEST

components()
register_game(GAME, MANIFEST)

__all__ = ["GAME"]
