"""Bot knowledge of Norenberc: the heuristic player, the determinizer and the evaluation.

``determinize`` is ``server.games.norenberc.determinize.sample_state`` with the bots' guesses:
other seats' purses from start money plus income so far, and their sealed guilds as the
heuristic would pick them for them, with some noise.
"""

from __future__ import annotations

from server.engine import Command, Game, Rng, State, View
from server.games.norenberc.determinize import GuessPlan, sample_state
from server.games.norenberc.game import board_view

from .adapters import register_adapter
from .norenberc_greedy import choose, estimate_talers, gains, planned_gains, ranked
from .norenberc_model import Position, worths

CANDIDATES = 4  # root commands the search compares
PLAN_NOISE = 1.0  # VP of noise when guessing another seat's sealed guilds
WIN_TEMPERATURE = 4.0  # VP: how sharply an estimated lead turns into a winning chance


class _PlanGuesser:
    """Guesses which guilds another seat sealed: the ones the heuristic would pick for it
    (its best guilds by planned gain, with a little noise so guesses vary), given the
    talers sampled for it. Uses public holdings only."""

    def __init__(self, view: View, talers: list[int], rng: Rng) -> None:
        self.view, self.rng = view, rng
        self.pos = Position.from_view(view, [float(t) for t in talers])

    def guess(self, seat: int, choices: list[int], count: int) -> list[int]:
        if count <= 0 or not choices:
            return []
        gains = planned_gains(self.view, self.pos, seat)
        noisy = {g: gains.get(g, 0.0) + PLAN_NOISE * self.rng.below(1000) / 1000 for g in choices}
        return sorted(sorted(choices, key=lambda g: -noisy[g])[:count])


def determinize(view: View, seat: int, rng: Rng) -> State:
    """An engine state consistent with ``view`` (``sample_state``), other seats' purses
    guessed from income so far and their sealed guilds as the heuristic would pick them."""

    def guesser(talers: list[int]) -> GuessPlan:
        return _PlanGuesser(view, talers, rng).guess

    return sample_state(view, seat, rng, estimate_talers(view, seat), guesser)


class NorenbercBots:
    """The ``BotAdapter`` of Norenberc (see ``server.bots.adapters``)."""

    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        return choose(view, seat, rng)

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        return determinize(view, seat, rng)

    def candidates(self, view: View, seat: int) -> list[Command]:
        return ranked(view, seat, CANDIDATES)

    def gains(self, view: View, seat: int, cmds: list[Command]) -> list[float | None]:
        """VP the heuristic expects each command to add (a learning table's reasons)."""
        return gains(view, seat, cmds)

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        # The heuristic reads the board and the legal commands only: the full view's
        # summaries for people (the score if the game ended now above all) cost more.
        view = board_view(state, seat)
        talers = [float(p["talers"]) for p in state["players"]]
        return choose(view, seat, rng, talers)

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        view = game.view(state, None)
        pos = Position.from_view(view, [float(p["talers"]) for p in state["players"]])
        values = worths(pos)
        return win_chance(values, seat)


def win_chance(values: list[float], seat: int) -> float:
    """A soft-max over estimated final VP: the share of wins ``seat`` may expect."""
    top = max(values)
    weights: list[float] = [pow(2.718281828, (v - top) / WIN_TEMPERATURE) for v in values]
    return weights[seat] / sum(weights)


register_adapter("norenberc", NorenbercBots())
