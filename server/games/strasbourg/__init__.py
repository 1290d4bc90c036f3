"""Strasbourg (3–5 players) on the Guildhall engine; registers itself as "strasbourg"."""

from server.engine import register_game

from .game import GAME, Strasbourg

register_game(GAME)

__all__ = ["GAME", "Strasbourg"]
