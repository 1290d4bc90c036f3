"""Reaching mid-game states for bot tests: play a policy for a number of commands."""

from __future__ import annotations

from collections.abc import Callable

from server.engine import Command, Game, Rng, State, seed_to_state

# picks the command ``seat`` plays in ``state``; ``rng`` is the play-out's own generator
Policy = Callable[[Game, State, int, Rng], Command]


def random_policy(game: Game, state: State, seat: int, rng: Rng) -> Command:
    return rng.choice(game.legal(state, seat))


def play_to(game: Game, seats: int, seed: str, steps: int, policy: Policy) -> State:
    """The state after ``steps`` commands of ``policy`` from a fresh deal (earlier if it ends)."""
    state = game.new(seats, seed, game.default_options())
    rng = Rng(seed_to_state(seed))
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, policy(game, state, seat, rng))
    return state
