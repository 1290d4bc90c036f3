"""Lantern market (2-4 players), a tiny game built from docs/adding-a-game.md alone, for tests.

Each round one lantern from a shuffled deck is shown; every seat seals a bid of coins for it
(sealed planning: bid, wait, retract); the highest bid takes the lantern and pays, a tie goes to
the bidder first in this round's order. After the last round a seat scores its lanterns'
values plus the coins it kept. Hidden: the sealed bids (each to its bidder) and the deck order
(to everyone). Importing this package registers the game as "lantern" (tests only).
"""

from server.engine import register_game

from .data import components
from .game import GAME, Lantern
from .manifest import MANIFEST

components()
register_game(GAME, MANIFEST)

__all__ = ["GAME", "Lantern"]
