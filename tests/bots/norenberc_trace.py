"""A fingerprint of everything the Norenberc bots decide, for checking that a change meant to
make them faster changes none of their choices.

``trace(seats, seed, promo)`` plays one whole game of greedy bots (each decision seeded by the
step) and, along the way, asks every other part of the bots' knowledge about the positions it
passes: the search's candidates (``ranked``), the learning table's gains, the play-out move on
the true state (``rollout``, with the true purses), a determinization of the view and the
evaluation of it, and a short ``mcts`` search. Each part's answers are hashed into one
digest: a digest equal to one recorded before a change means the same answers, command for
command and bit for bit (floats by ``repr``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from server.bots import Budget, decide
from server.bots.adapters import adapter_for
from server.bots.norenberc_greedy import gains
from server.engine import Rng, get_game, seed_to_state

PARTS = ("greedy", "ranked", "gains", "rollout", "determinize", "evaluate", "mcts")
DETERMINIZE_EVERY = 3  # steps between determinizations (each guesses every sealed plan)
MCTS_EVERY = 29  # steps between short searches
MCTS_BUDGET = Budget(iterations=3, horizon=30)


class _Digest:
    def __init__(self) -> None:
        self.hashes = {part: hashlib.sha256() for part in PARTS}

    def add(self, part: str, value: Any) -> None:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
        self.hashes[part].update(text.encode())
        self.hashes[part].update(b"\n")

    def result(self) -> dict[str, str]:
        return {part: h.hexdigest()[:16] for part, h in self.hashes.items()}


def trace(seats: int, seed: str, promo: bool = False) -> dict[str, str]:
    """The digest of each part's answers along one greedy self-play game (see the module)."""
    game, adapter = get_game("norenberc"), adapter_for("norenberc")
    state = game.new(seats, seed, {**game.default_options(), "promo": promo})
    digest = _Digest()
    step = 0
    while game.result(state) is None:
        seat = min(game.to_act(state))
        view = game.view(state, seat)
        cmd = decide("greedy", "norenberc", view, seat, f"{seed}:{step}")
        digest.add("greedy", [step, seat, cmd])
        digest.add("ranked", adapter.candidates(view, seat))
        digest.add("gains", [repr(g) for g in gains(view, seat, view["legal"])])
        rng = Rng(seed_to_state(f"{seed}:rollout:{step}"))
        digest.add("rollout", [adapter.rollout(game, state, seat, rng), rng.state])
        if step % DETERMINIZE_EVERY == 0:
            rng = Rng(seed_to_state(f"{seed}:determinize:{step}"))
            sampled = adapter.determinize(view, seat, rng)
            digest.add("determinize", [sampled, rng.state])
            digest.add("evaluate", [repr(adapter.evaluate(game, sampled, s)) for s in range(seats)])
        if step % MCTS_EVERY == MCTS_EVERY - 1 and len(view["legal"]) > 1:
            searched = decide(
                "mcts", "norenberc", view, seat, f"{seed}:mcts:{step}", budget=MCTS_BUDGET
            )
            digest.add("mcts", [step, searched])
        state, _ = game.apply(state, seat, cmd)
        step += 1
    digest.add("greedy", game.result(state))
    return digest.result()


# The games the fingerprint is taken on: every seat count, with and without the promo tiles.
GAMES = [(seats, f"trace-{seats}-{i}", i == 1) for seats in (2, 3, 4, 5) for i in range(2)]


if __name__ == "__main__":  # prints the RECORDED table of test_norenberc_unchanged.py
    for seats, seed, promo in GAMES:
        print(f"    ({seats}, {seed!r}, {promo}): {trace(seats, seed, promo)!r},", flush=True)
