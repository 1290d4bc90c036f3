"""Game-agnostic core: the Game contract, RuleError, the RNG, sealed planning, state
cloning and copy-on-write drafts, data-file loading (DataError) and replay.

Imports nothing from the web, the database or any particular game.
"""

from .data import DataError
from .errors import RuleError
from .game import (
    Command,
    Event,
    Game,
    Result,
    State,
    View,
    event,
    is_visible,
    log_entry,
    opening,
)
from .manifest import Manifest, OptionSpec, ScoreCategory, TestProfile, planning_option
from .registry import game_names, get_game, get_manifest, register_game
from .replay import Step, replay
from .rng import Rng, seed_to_state
from .state import Draft, clone, draft, finish, own, own_all, own_item

__all__ = [
    "Command",
    "DataError",
    "Draft",
    "Event",
    "Game",
    "Manifest",
    "OptionSpec",
    "Result",
    "Rng",
    "RuleError",
    "ScoreCategory",
    "State",
    "Step",
    "TestProfile",
    "View",
    "clone",
    "draft",
    "event",
    "finish",
    "game_names",
    "get_game",
    "get_manifest",
    "is_visible",
    "log_entry",
    "opening",
    "own",
    "own_all",
    "own_item",
    "planning_option",
    "register_game",
    "replay",
    "seed_to_state",
]
