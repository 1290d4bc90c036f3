"""The bot adapter of a game that needs no more than a heuristic, a determinizer and its
scores as they stand: the search considers every legal command at the root, rolls out at
random and scores an unfinished state as if the game ended there."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from server.engine import Command, Game, Result, Rng, State, View

from .ismcts import outcome


@dataclass(frozen=True)
class PlainAdapter:
    """A ``BotAdapter`` made of three functions of the game's (``server.bots.adapters``)."""

    heuristic: Callable[[View, int, Rng], Command]
    determinize: Callable[[View, int, Rng], State]
    scores: Callable[[State], Result]

    def candidates(self, view: View, seat: int) -> list[Command]:
        return list(view["legal"])

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        return rng.choice(game.legal(state, seat))

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        return outcome(self.scores(state), seat)
