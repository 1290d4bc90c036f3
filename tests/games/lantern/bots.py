"""The bot adapter of Lantern market; importing this module registers it, as
``server/bots/<name>.py`` does for a real game."""

from __future__ import annotations

from server.bots.adapters import register_adapter
from server.bots.plain import PlainAdapter
from server.engine import Command, Rng, View

from .determinize import sample_state
from .scoring import final_result
from .state import value_of


def heuristic(view: View, seat: int, rng: Rng) -> Command:
    """Bid a little under the lantern's value, never more than the coins held."""
    bids = [c for c in view["legal"] if c["type"] == "bid"]
    if not bids:
        first: Command = view["legal"][0]
        return first
    wanted = max(0, value_of(view["shown"]) - 1 - rng.below(2))
    return max((c for c in bids if c["amount"] <= wanted), key=lambda c: c["amount"])


BOTS = register_adapter("lantern", PlainAdapter(heuristic, sample_state, final_result))
