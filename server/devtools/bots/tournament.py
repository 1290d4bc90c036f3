"""Bots against bots: play whole games with the engine, seats rotated, and collect results.

Game ``g`` of a tournament uses seed ``f"{seed}-{g // n}"`` and rotates the line-up by
``g % n`` seats (``n`` bots), so every block of ``n`` games replays one deal with every bot in
every seat. That removes seat and deal luck from the comparison.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from server.bots import Budget, canonical_kind, decide
from server.engine import Game, State, View, get_game

from .stats import GameRecord

MAX_COMMANDS = 100_000  # a game that has not ended after this many commands is stuck


@dataclass
class Played:
    """One game's record and every decision's thinking time (seconds) by bot kind."""

    record: GameRecord
    times: dict[str, list[float]] = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    """Everything needed to play game ``index`` of a tournament (picklable for workers)."""

    game: str
    kinds: tuple[str, ...]
    seed: str
    index: int
    budget: Budget

    def lineup(self) -> tuple[str, ...]:
        """The bot kind at each seat: the line-up rotated by ``index`` seats."""
        n = len(self.kinds)
        return tuple(self.kinds[(seat + self.index) % n] for seat in range(n))

    def game_seed(self) -> str:
        return f"{self.seed}-{self.index // len(self.kinds)}"


def play(match: Match) -> Played:
    """Play one game to its end. Raises RuntimeError if it never ends."""
    game = get_game(match.game)
    lineup, seed = match.lineup(), match.game_seed()
    state = game.new(len(lineup), seed, game.default_options())
    times: dict[str, list[float]] = {kind: [] for kind in lineup}
    for step in range(MAX_COMMANDS):
        result = game.result(state)
        if result is not None:
            record = GameRecord(lineup, tuple(result["scores"]), tuple(result["winners"]))
            return Played(record, times)
        seat, view = _next_mover(game, state)
        started = time.perf_counter()
        cmd = decide(lineup[seat], match.game, view, seat, f"{seed}:{step}", budget=match.budget)
        times[lineup[seat]].append(time.perf_counter() - started)
        state, _ = game.apply(state, seat, cmd)
    raise RuntimeError(f"game {seed} did not end within {MAX_COMMANDS} commands")


def _next_mover(game: Game, state: State) -> tuple[int, View]:
    """The lowest seat that may act and has a legal command, with its view."""
    for seat in sorted(game.to_act(state)):
        view = game.view(state, seat)
        if view.get("legal"):
            return seat, view
    raise RuntimeError("unfinished game where no seat has a legal command")


def matches(game: str, kinds: Sequence[str], games: int, seed: str, budget: Budget) -> list[Match]:
    """The tournament's games in order. Raises ValueError for an unknown bot kind."""
    lineup = tuple(canonical_kind(k) for k in kinds)
    return [Match(game, lineup, seed, i, budget) for i in range(games)]


def run(all_matches: Sequence[Match], workers: int = 1) -> Iterator[Played]:
    """Play the matches (in ``workers`` processes when > 1), yielding results in order."""
    if workers <= 1:
        yield from map(play, all_matches)
        return
    # fork keeps games and adapters registered in this process available to the workers.
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(play, all_matches)
