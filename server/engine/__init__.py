"""Game-agnostic core: the Game contract, RuleError, the RNG, sealed planning.

Imports nothing from the web, the database or any particular game.
"""

from .errors import RuleError
from .game import Command, Event, Game, Result, State, View, event, is_visible, log_entry
from .registry import game_names, get_game, register_game
from .rng import Rng, seed_to_state

__all__ = [
    "Command",
    "Event",
    "Game",
    "Result",
    "Rng",
    "RuleError",
    "State",
    "View",
    "event",
    "game_names",
    "get_game",
    "is_visible",
    "log_entry",
    "register_game",
    "seed_to_state",
]
