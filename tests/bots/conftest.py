"""Register the tiny sealed-bid game and its bot adapter for the generic bot tests."""

from __future__ import annotations

from server.bots.adapters import register_adapter
from server.engine import register_game

from .sealedbid import BOTS, GAME

register_game(GAME)
register_adapter(GAME.name, BOTS)
