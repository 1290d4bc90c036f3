"""Norenberc (2-5 players): the rules engine. Importing this package registers the game."""

from server.engine import register_game

from .components import DataError, components
from .game import NORENBERC, Norenberc

# Validate the component data now, so a malformed seeds/norenberc.json stops start-up with
# a DataError naming the bad entry instead of failing at the first table.
components()
register_game(NORENBERC)

__all__ = ["NORENBERC", "DataError", "Norenberc"]
