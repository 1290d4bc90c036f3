"""Bot players. They see exactly what their seat may see: the seat's view and its legal commands.

``decide`` is the one entry point the server calls for a bot seat; the kinds it knows are in
``server.bots.kinds``. Game adapters load on first use (``adapters.adapter_for``), so importing
this package loads no game.
"""

from __future__ import annotations

from collections.abc import Callable

from server.engine import Command, Rng, View, get_game, seed_to_state

from .adapters import adapter_for
from .ismcts import Budget, Search
from .kinds import KINDS, canonical_kind

__all__ = ["DEFAULT_BUDGET", "KINDS", "Budget", "canonical_kind", "decide"]

# What a bot seat at a real table gets: about 0.7 s of thinking with whole-game simulations
# (the configuration measured in tournaments). The deadline is checked inside a simulation
# too, so a decision stays under a second; the iteration cap only matters on a fast machine.
DEFAULT_BUDGET = Budget(iterations=2000, seconds=0.7)


def decide(
    kind: str, game: str, view: View, seat: int, seed: str, *, budget: Budget | None = None
) -> Command:
    """The command bot ``kind`` plays for ``seat`` given its view; deterministic for ``seed``
    (for ``mcts``, when ``budget`` limits iterations only).

    Raises ValueError for an unknown kind or when the view offers no legal command.
    """
    name = canonical_kind(kind)
    if not view.get("legal"):
        raise ValueError(f"seat {seat} has no legal command in this view")
    rng = Rng(seed_to_state(seed))
    return _DECIDERS[name](game, view, seat, rng, budget or DEFAULT_BUDGET)


def _random(game: str, view: View, seat: int, rng: Rng, budget: Budget) -> Command:
    return rng.choice(list(view["legal"]))


def _greedy(game: str, view: View, seat: int, rng: Rng, budget: Budget) -> Command:
    return adapter_for(game).heuristic(view, seat, rng)


def _mcts(game: str, view: View, seat: int, rng: Rng, budget: Budget) -> Command:
    return Search(get_game(game), adapter_for(game), view, seat, rng, budget).run()


_DECIDERS: dict[str, Callable[[str, View, int, Rng, Budget], Command]] = {
    "random": _random,
    "greedy": _greedy,
    "mcts": _mcts,
}
