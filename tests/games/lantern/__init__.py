"""Lantern market (2-4 players), the worked example of docs/adding-a-game.md, for tests: each
round every seat seals a bid for the shown lantern; the highest bid buys it (a tie: first in
order). Scores: lantern values plus coins kept. Importing this registers "lantern"."""

from server.engine import register_game

from .game import GAME
from .manifest import MANIFEST
from .rules import components

components()  # a malformed data file stops the import
register_game(GAME, MANIFEST)
