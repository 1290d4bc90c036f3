"""``make bench`` section: the post-game analysis's evaluator, how good and how cheap.

- **Calibration**: the Brier score of the evaluator's win chances at the start of each round
  of greedy self-play games (``calibration.py``), beside the score leader's share and 1/n,
  for both games at 3 and 4 seats. The games come from the judging seeds ``judge-0``,
  ``judge-1`` …, which nothing was ever tuned on (sizing runs used ``tune-…``).
- **Play-outs per CPU-second** from the deal: uniformly random commands, and the bots'
  play-out policy as the analysis plays it (``compute.playout``: greedy with its noise).

Sized to take about a minute and a half of CPU in all (a few minutes of wall time on a
loaded 2-core machine); ``python -m server.devtools.analysis.bench --games N --playouts P`` runs the
calibration larger (the figures in docs/bots.md). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from server.analysis.compute import playout
from server.bots.adapters import adapter_for
from server.engine import Game, Rng, State, get_game, seed_to_state

from .calibration import FORECASTS, Scores, calibrate, evaluator

# (game, seats, self-play games judged) at make bench's size; Norenberc's play-outs cost more.
PLANS = [("norenberc", 3, 8), ("norenberc", 4, 6), ("strasbourg", 3, 12), ("strasbourg", 4, 10)]
PLAYOUTS = 8  # per position in make bench (the analysis itself uses 16)
RATE_SECONDS = 1.5  # CPU seconds each play-out rate is measured for


def judging_seeds(count: int) -> list[str]:
    """The self-play games the calibration is judged on (never tuned on)."""
    return [f"judge-{i}" for i in range(count)]


def calibration_line(game: str, seats: int, games: int, scores: Scores) -> str:
    """One printed row: each forecast's mean Brier score ± its standard error, and the
    evaluator's lead over the leader baseline (game by game) ± its standard error."""
    cells = "  ".join(
        f"{name} {scores.mean(name):.3f}±{scores.stderr(name):.3f}" for name in FORECASTS
    )
    lead = scores.mean("evaluator") - scores.mean("leader")
    return (
        f"  {game:<10} {seats}p  {games:3d} games {scores.positions:4d} positions  {cells}"
        f"  evaluator-leader {lead:+.3f}±{scores.stderr('evaluator', 'leader'):.3f}"
    )


def print_calibration(plans: Sequence[tuple[str, int, int]], playouts: int) -> None:
    print(
        f"analysis calibration: Brier score at each round's start (lower is better; "
        f"± standard error over games), evaluator at {playouts} play-outs, greedy self-play"
    )
    for game, seats, games in plans:
        scores = calibrate(game, seats, judging_seeds(games), evaluator(playouts))
        print(calibration_line(game, seats, games, scores), flush=True)


def _random_playout(game: Game, state: State, rng: Rng) -> None:
    while game.result(state) is None:
        seat = min(game.to_act(state))
        legal = game.legal(state, seat)
        state, _ = game.apply(state, seat, legal[rng.below(len(legal))])


def playout_rate(game_name: str, seats: int, policy: str, seconds: float) -> float:
    """Play-outs from a fresh deal per CPU-second, by ``policy`` (``random`` or
    ``greedy``: the analysis's own), measured for about ``seconds`` of CPU."""
    game, adapter = get_game(game_name), adapter_for(game_name)
    start = game.new(seats, "bench", game.default_options())
    done, began = 0, time.process_time()
    while done < 3 or time.process_time() - began < seconds:
        rng = Rng(seed_to_state(f"bench:{policy}:{done}"))
        if policy == "random":
            _random_playout(game, start, rng)
        else:
            playout(game, adapter, start, rng)
        done += 1
    return done / (time.process_time() - began)


def print_playout_rates(seconds: float = RATE_SECONDS) -> None:
    print("play-outs per CPU-second from the deal (random commands; the analysis's greedy policy)")
    for game in ("norenberc", "strasbourg"):
        for seats in (3, 4):
            random_rate = playout_rate(game, seats, "random", seconds)
            greedy_rate = playout_rate(game, seats, "greedy", seconds)
            print(
                f"  {game:<10} {seats}p  random {random_rate:7.1f}/s  greedy {greedy_rate:6.2f}/s",
                flush=True,
            )


def bench() -> None:
    """Print the play-out rates and the evaluator's calibration at make bench's size."""
    print_playout_rates()
    print_calibration(PLANS, PLAYOUTS)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="the evaluator's calibration, larger")
    parser.add_argument("--games", type=int, nargs=4, metavar=("N3", "N4", "S3", "S4"))
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    args = parser.parse_args(argv)
    plans = PLANS
    if args.games:
        plans = [(g, s, n) for (g, s, _), n in zip(PLANS, args.games, strict=True)]
    print_calibration(plans, args.playouts)


if __name__ == "__main__":
    main()
