"""Norenberc (2-5 players): the rules engine. Importing this package registers the game."""

from server.engine import register_game

from .components import DataError
from .game import NORENBERC, Norenberc

register_game(NORENBERC)

__all__ = ["NORENBERC", "DataError", "Norenberc"]
