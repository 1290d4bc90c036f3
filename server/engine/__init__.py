"""Game-agnostic core: the Game contract, RuleError, the RNG, sealed planning, state
cloning, data-file loading (DataError) and replay.

Imports nothing from the web, the database or any particular game.
"""

from .data import DataError
from .errors import RuleError
from .game import Command, Event, Game, Result, State, View, event, is_visible, log_entry
from .registry import game_names, get_game, register_game
from .replay import Step, replay
from .rng import Rng, seed_to_state
from .state import clone

__all__ = [
    "Command",
    "DataError",
    "Event",
    "Game",
    "Result",
    "Rng",
    "RuleError",
    "State",
    "Step",
    "View",
    "clone",
    "event",
    "game_names",
    "get_game",
    "is_visible",
    "log_entry",
    "register_game",
    "replay",
    "seed_to_state",
]
