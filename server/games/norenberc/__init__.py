"""Norenberc (2-5 players) on the Guildhall engine; registers itself as "norenberc".

Loading the game validates ``seeds/norenberc.json`` at once, so a malformed file stops the
server when it starts (``DataError`` naming the bad entry), not in the middle of a game.
The package follows docs/adding-a-game.md.
"""

from server.engine import register_game
from server.engine.data import DataError

from .data import components
from .game import GAME
from .manifest import MANIFEST

components()
register_game(GAME, MANIFEST)

__all__ = ["GAME", "DataError"]
