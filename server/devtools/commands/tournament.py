"""``guildhall tournament``: bots against bots, win shares with confidence intervals.

    guildhall tournament norenberc --bots mcts,greedy,random,random --games 200 --seed S

Seats are rotated (every deal is replayed with every bot in every seat, see
``server.devtools.bots.tournament``). Prints, per bot kind, the win share per seat it held (ties
split) with a 95% Wilson interval, the mean score and decision times.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable

from server.bots import DEFAULT_BUDGET, Budget
from server.devtools.bots.stats import GameRecord, KindSummary, percentile, summarize
from server.devtools.bots.tournament import Played, matches
from server.devtools.bots.tournament import run as run_matches
from server.engine import game_names

HELP = "bots against bots, win shares with confidence intervals"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"game name: {', '.join(game_names())}")
    parser.add_argument(
        "--bots", required=True, help="comma-separated bot kinds, one per seat (random,greedy,mcts)"
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", default="tournament", help="seed of the first deal")
    parser.add_argument(
        "--mcts-iterations",
        type=int,
        default=DEFAULT_BUDGET.iterations,
        help="search iterations per mcts decision (0: no limit)",
    )
    parser.add_argument(
        "--mcts-seconds",
        type=float,
        default=DEFAULT_BUDGET.seconds,
        help="wall-time cap per mcts decision in seconds (0: no cap, reproducible)",
    )
    parser.add_argument(
        "--mcts-horizon",
        type=int,
        default=DEFAULT_BUDGET.horizon,
        help="simulated commands per mcts iteration before the position is evaluated",
    )
    parser.add_argument(
        "--mcts-exploration",
        type=float,
        default=DEFAULT_BUDGET.exploration,
        help="UCB1 exploration constant of the search",
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)"
    )
    parser.add_argument(
        "--progress", action="store_true", help="print a line to stderr after every game"
    )


def run(args: argparse.Namespace) -> int:
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    try:
        todo = matches(args.game, kinds, args.games, args.seed, budget_from(args))
    except ValueError as exc:
        print(f"guildhall tournament: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    played = list(_with_progress(run_matches(todo, args.workers), args.progress, len(todo)))
    elapsed = time.perf_counter() - started
    print(report(played, args, elapsed))
    return 0


def budget_from(args: argparse.Namespace) -> Budget:
    """The mcts budget the options ask for (0 iterations / seconds: no such limit).

    Raises ValueError when neither limit is left.
    """
    return Budget(
        iterations=args.mcts_iterations or None,
        seconds=args.mcts_seconds or None,
        horizon=args.mcts_horizon,
        exploration=args.mcts_exploration,
    )


def _with_progress(games: Iterable[Played], show: bool, total: int) -> Iterable[Played]:
    for done, game in enumerate(games, start=1):
        if show:
            print(f"game {done}/{total}: {game.record}", file=sys.stderr, flush=True)
        yield game


def report(played: list[Played], args: argparse.Namespace, elapsed: float) -> str:
    """The printed table: one line per bot kind."""
    records: list[GameRecord] = [p.record for p in played]
    head = (
        f"{args.game}: {len(records)} games, bots {args.bots}, seed {args.seed!r}, "
        f"seats rotated, {elapsed:.0f} s"
    )
    lines = [
        head,
        f"{'bot':<8} {'seats':>5} {'win share/seat':>15} {'95% CI':>15} "
        f"{'mean score':>10} {'decision median':>16} {'p99':>9} {'slowest':>10}",
    ]
    for summary in summarize(records):
        lines.append(_line(summary, [t for p in played for t in p.times.get(summary.kind, [])]))
    return "\n".join(lines)


def _line(s: KindSummary, times: list[float]) -> str:
    ci = f"{100 * s.low:5.1f}-{100 * s.high:5.1f}%"
    median, p99 = 1000 * percentile(times, 0.5), 1000 * percentile(times, 0.99)
    # The slowest decision too: a bot must answer every one in time, not 99 in 100.
    slowest = 1000 * max(times, default=0.0)
    return (
        f"{s.kind:<8} {s.seats:>5} {100 * s.share:14.1f}% {ci:>15} {s.mean_score:10.1f} "
        f"{median:13.1f} ms {p99:6.1f} ms {slowest:7.1f} ms"
    )
