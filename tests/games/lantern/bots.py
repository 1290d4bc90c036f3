"""The bot adapter of Lantern market (``server.bots.adapters.BotAdapter``); importing this
module registers it, as ``server/bots/<name>.py`` does for a real game."""

from __future__ import annotations

from server.bots.adapters import register_adapter
from server.bots.ismcts import outcome
from server.engine import Command, Game, Rng, State, View

from .determinize import sample_state
from .scoring import final_result
from .state import value_of


class LanternBots:
    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        """Bid a little under the lantern's value, never more than the coins held."""
        legal = view["legal"]
        bids = [c for c in legal if c["type"] == "bid"]
        if not bids:
            return legal[0]
        wanted = max(0, value_of(view["shown"]) - 1 - rng.below(2))
        return max((c for c in bids if c["amount"] <= wanted), key=lambda c: c["amount"])

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        return dict(sample_state(view, seat, rng))

    def candidates(self, view: View, seat: int) -> list[Command]:
        return list(view["legal"])

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        return rng.choice(game.legal(state, seat))

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        return outcome(final_result(state), seat)  # type: ignore[arg-type]


BOTS = register_adapter("lantern", LanternBots())
