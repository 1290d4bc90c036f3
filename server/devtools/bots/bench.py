"""``make bench`` section: how long each bot kind thinks per Norenberc decision.

Plays short 4-player games in which every seat is the measured kind (mcts sits with three
greedy bots and is timed on its own decisions only, with the budget a real table gives it).
Prints median and p99 per kind; nothing is asserted. Takes well under a minute.
"""

from __future__ import annotations

import time

from server.bots import DEFAULT_BUDGET, Budget, decide
from server.engine import get_game

from .stats import percentile

GAME = "norenberc"
MCTS_DECISIONS = 20  # timed mcts decisions (each up to DEFAULT_BUDGET.seconds)


def time_decisions(
    kind: str, lineup: list[str], limit: int, seed: str, budget: Budget
) -> list[float]:
    """Seconds per decision of ``kind`` over whole games of ``lineup``, up to ``limit``."""
    game = get_game(GAME)
    times: list[float] = []
    round_ = 0
    while len(times) < limit:
        state = game.new(len(lineup), f"{seed}-{round_}", game.default_options())
        step = 0
        while game.result(state) is None and len(times) < limit:
            seat = min(s for s in game.to_act(state))
            view = game.view(state, seat)
            started = time.perf_counter()
            cmd = decide(lineup[seat], GAME, view, seat, f"{seed}:{step}", budget=budget)
            if lineup[seat] == kind and len(view["legal"]) > 1:
                times.append(time.perf_counter() - started)
            state, _ = game.apply(state, seat, cmd)
            step += 1
        round_ += 1
    return times


def bench() -> None:
    """Print decision times (median, p99) for random, greedy and mcts."""
    plans = [
        ("random", ["random"] * 4, 300),
        ("greedy", ["greedy"] * 4, 300),
        ("mcts", ["mcts", "greedy", "greedy", "greedy"], MCTS_DECISIONS),
    ]
    print(f"bot decision times, {GAME}, 4 players (decisions with more than one legal command)")
    for kind, lineup, limit in plans:
        times = time_decisions(kind, lineup, limit, "bench", DEFAULT_BUDGET)
        median, p99 = percentile(times, 0.5), percentile(times, 0.99)
        print(
            f"  {kind:<7} {len(times):4d} decisions  median {1000 * median:8.1f} ms"
            f"  p99 {1000 * p99:8.1f} ms",
            flush=True,
        )
    budget = DEFAULT_BUDGET
    print(
        f"  (mcts budget: {budget.iterations} iterations or {budget.seconds} s, "
        f"horizon {budget.horizon} commands)"
    )
