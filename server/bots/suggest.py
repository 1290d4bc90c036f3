"""What the strong bot would do: the learning table's suggestions for one seat.

``suggest`` runs the ``mcts`` search exactly as a bot seat would, from the seat's own view and
nothing else, and returns its three best root commands by the search's statistics with the
facts a reader's one-line reason is made of: how often the search tried the command, the share
of its simulated games the command won (its mean reward, in [0, 1]), and, where the game's bot
knowledge can price a command, what its heuristic says the command is worth in points.

The search is seeded from the view itself (and the decision's step), so two tables that differ
only in what the seat cannot see get the same suggestion: the answer can tell nothing about
hidden parts, and asking again gives the same three commands. With an iteration budget alone
that holds exactly; the time cap only cuts a search short on a machine too busy to finish it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from server.engine import Command, Rng, View, get_game, seed_to_state

from .adapters import adapter_for
from .ismcts import Budget, Search, command_key

SHOWN = 3
# Iterations fit the bots' usual second on the reference machine (docs/bots.md has the
# figures); the time cap keeps a busy machine within it, at the cost of exactness.
SUGGEST_BUDGET = Budget(iterations=500, seconds=0.9)


@dataclass(frozen=True)
class Suggestion:
    """One suggested command and why: ``visits`` of the search's ``total``, ``win`` the mean
    outcome of those simulated games (None: the only legal command, not searched), ``points``
    the game heuristic's estimate of what the command adds (None where it has none)."""

    cmd: Command
    visits: int
    total: int
    win: float | None
    points: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "cmd": self.cmd,
            "visits": self.visits,
            "total": self.total,
            "win": None if self.win is None else round(self.win, 3),
            "points": None if self.points is None else round(self.points, 1),
        }


class _Pricing(Protocol):
    def gains(self, view: View, seat: int, cmds: list[Command]) -> list[float | None]: ...


def view_seed(view: View, seat: int, step: int) -> str:
    """A seed made of the seat's view, the seat and the decision's step: nothing hidden."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"suggest:{seat}:{step}:{text}".encode()).hexdigest()


def suggest(
    game_name: str, view: View, seat: int, step: int, budget: Budget | None = None
) -> list[Suggestion]:
    """The strong bot's best (at most) three commands for ``seat`` from its ``view``.

    Raises ValueError when the view offers no legal command.
    """
    if not view.get("legal"):
        raise ValueError(f"seat {seat} has no legal command in this view")
    adapter = adapter_for(game_name)
    rng = Rng(seed_to_state(view_seed(view, seat, step)))
    search = Search(get_game(game_name), adapter, view, seat, rng, budget or SUGGEST_BUDGET)
    search.run()
    keys = search.ranking()[:SHOWN]
    cmds = [search.root_legal[k] for k in keys]
    pricing: _Pricing | None = adapter if hasattr(adapter, "gains") else None  # type: ignore[assignment]
    points = pricing.gains(view, seat, cmds) if pricing is not None else [None] * len(cmds)
    total = search.root.visits
    found = []
    for key, cmd, worth in zip(keys, cmds, points, strict=True):
        visits, mean = search.stats(key)
        found.append(Suggestion(cmd, visits, total, mean, worth))
    return found


__all__ = ["SHOWN", "SUGGEST_BUDGET", "Suggestion", "command_key", "suggest", "view_seed"]
