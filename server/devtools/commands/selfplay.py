"""``guildhall selfplay``: play random legal games with an engine and print a JSON summary.

Also the engine section of ``make bench`` (``bench()``): random games per CPU-second (the
median and the lowest of three runs) and the mean / median / p99 CPU time of ``apply`` and
``legal``, per player count.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from server.engine import Game, Rng, RuleError, game_names, get_game, seed_to_state

HELP = "play random games with the engine and print a JSON summary"
MAX_COMMANDS = 100_000


@dataclass
class Timings:
    """CPU seconds per call of ``apply`` and ``legal`` (filled only when timing is asked for).

    This thread's CPU time, not wall time: on a shared machine wall time mostly measures the
    other processes (a busy machine made a 40 µs ``apply`` look like 200 µs)."""

    apply: list[float] = field(default_factory=list)
    legal: list[float] = field(default_factory=list)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"registered game name: {', '.join(game_names())}")
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the minimum)")
    parser.add_argument("--seed", default="selfplay", help="base seed; game i uses SEED-i")
    parser.add_argument(
        "--options", default="{}", help='table options as JSON, e.g. \'{"planning": "ordered"}\''
    )


def _legal(game: Game, state: Any, seat: int, timings: Timings | None) -> list[dict[str, Any]]:
    if timings is None:
        return game.legal(state, seat)
    start = time.thread_time()
    legal = game.legal(state, seat)
    timings.legal.append(time.thread_time() - start)
    return legal


def _apply(game: Game, state: Any, seat: int, cmd: dict[str, Any], timings: Timings | None) -> Any:
    if timings is None:
        return game.apply(state, seat, cmd)[0]
    start = time.thread_time()
    new_state, _ = game.apply(state, seat, cmd)
    timings.apply.append(time.thread_time() - start)
    return new_state


def play_one(
    game: Game, seats: int, seed: str, options: dict[str, Any], timings: Timings | None = None
) -> tuple[list[int], int]:
    """Play one random game to the end; returns (winners, number of commands).

    Raises RuntimeError when the game stalls (nobody may act) or does not end.
    """
    pick = Rng(seed_to_state("selfplay:" + seed))
    state = game.new(seats, seed, options)
    commands = 0
    while (outcome := game.result(state)) is None:
        to_act = sorted(game.to_act(state))
        if not to_act or commands >= MAX_COMMANDS:
            raise RuntimeError(f"game {seed!r} stalled after {commands} commands")
        seat = to_act[pick.below(len(to_act))]
        legal = _legal(game, state, seat, timings)
        cmd = legal[pick.below(len(legal))]
        state = _apply(game, state, seat, cmd, timings)
        commands += 1
    return list(outcome["winners"]), commands


def selfplay(
    name: str, games: int, players: int | None, seed: str, options: dict[str, Any]
) -> dict[str, Any]:
    """Play ``games`` random games and summarize them (the JSON ``run`` prints)."""
    game = get_game(name)
    seats = players or game.min_seats
    wins = [0] * seats
    commands = 0
    start = time.perf_counter()
    for i in range(games):
        winners, n = play_one(game, seats, f"{seed}-{i}", options)
        commands += n
        for seat in winners:
            wins[seat] += 1
    seconds = time.perf_counter() - start
    return {
        "game": name,
        "players": seats,
        "games": games,
        "commands": commands,
        "winners": wins,
        "seconds": round(seconds, 3),
    }


def run(args: argparse.Namespace) -> int:
    """Print the summary; exit 2 on bad arguments (unknown game, bad options or seats)."""
    try:
        options = json.loads(args.options)
        summary = selfplay(args.game, args.games, args.players, args.seed, options)
    except (RuleError, json.JSONDecodeError) as exc:
        print(json.dumps({"error": getattr(exc, "code", "bad_options"), "message": str(exc)}))
        return 2
    print(json.dumps(summary))
    return 0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


RUNS = 3  # the games-per-CPU-second figure: the median and the lowest of this many runs


def bench(name: str | None = None, games_per_count: int = 60) -> None:
    """Print games per CPU-second and apply/legal CPU times for every player count of ``name``
    (every registered game when ``name`` is None)."""
    for game_name in [name] if name else game_names():
        _bench_game(get_game(game_name), games_per_count)


def _rate(game: Game, seats: int, games: int, run: int) -> float:
    """Random games per CPU-second of this process (CPU time: on a shared machine only this
    is stable)."""
    start = time.process_time()
    for i in range(games):
        play_one(game, seats, f"bench-{seats}-{run}-{i}", {})
    return games / (time.process_time() - start)


def _micros(values: list[float]) -> str:
    return (
        f"mean {statistics.fmean(values) * 1e6:4.0f} median {statistics.median(values) * 1e6:4.0f}"
        f" p99 {_percentile(values, 0.99) * 1e6:5.0f} µs"
    )


def _bench_game(game: Game, games_per_count: int) -> None:
    name = game.name
    for seats in range(game.min_seats, game.max_seats + 1):
        rates = [_rate(game, seats, games_per_count // RUNS, run) for run in range(RUNS)]
        timings = Timings()
        for i in range(max(4, games_per_count // 6)):
            play_one(game, seats, f"bench-timed-{seats}-{i}", {}, timings)
        print(
            f"{name} {seats}p: {statistics.median(rates):6.1f} games per CPU-second "
            f"(lowest of {RUNS} runs {min(rates):6.1f}) | apply {_micros(timings.apply)} | "
            f"legal {_micros(timings.legal)}",
            flush=True,
        )
