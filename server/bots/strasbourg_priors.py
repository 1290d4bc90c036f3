"""What other seats really hold behind their screens in Strasbourg, measured in self-play:
the priors the determinizer (``server.games.strasbourg.determinize``) samples from.

A seat's view hides the others' goods, privileges, coins and kept task cards. At every
decision a seat makes in a bot game (``holdings``), each other seat's real holdings are read
from the state, by round: goods (their total), privileges, coins *earned* (every coin comes
from selling a good, and every coin spent is a member in the city at a public price, so
coins = 5 + earned - the prices of its city cells), and kept task cards.

``python -m server.bots.strasbourg_priors [GAMES]`` plays greedy games at 3, 4 and 5 seats and
prints the histograms in the form ``determinize.PRIORS`` keeps them (counts per round, from
0 up), with their means: how the table there was made.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from server.engine import Command, Rng, State, get_game, seed_to_state
from server.games.strasbourg.data import ROUNDS
from server.games.strasbourg.determinize import START_COINS, spent_on_city

from .strasbourg import choose

GAME = get_game("strasbourg")
KINDS = ("goods", "privileges", "earned", "tasks")
# A seat's move in a measured game: (state, seat, rng) -> command.
Mover = Callable[[State, int, Rng], Command]


@dataclass(frozen=True)
class Seen:
    """One other seat's real holdings at one decision of the deciding seat."""

    round: int  # 1..ROUNDS
    phase: str
    goods: int
    privileges: int
    earned: int
    tasks: int

    def value(self, kind: str) -> int:
        found: int = getattr(self, kind)
        return found


def greedy(state: State, seat: int, rng: Rng) -> Command:
    """The greedy bot's move, from the seat's view as at a table."""
    return choose(GAME.view(state, seat), seat, rng)


def holdings(seats: int, seed: str, mover: Mover = greedy) -> Iterator[Seen]:
    """Every other seat's holdings at every decision with a choice, in one game of
    ``mover`` at every seat (from the tasks' end: before it, nobody holds anything)."""
    state = GAME.new(seats, seed, GAME.default_options())
    rng = Rng(seed_to_state(seed))
    while GAME.result(state) is None:
        seat = min(GAME.to_act(state))
        legal = GAME.legal(state, seat)
        if len(legal) > 1 and state["phase"] != "tasks":
            for other, player in enumerate(state["players"]):
                if other != seat:
                    yield Seen(
                        round=state["round"] + 1,
                        phase=state["phase"],
                        goods=sum(player["goods"].values()),
                        privileges=player["privileges"],
                        earned=player["coins"] + spent_on_city(state["city"], other) - START_COINS,
                        tasks=len(player["tasks"]),
                    )
        state, _ = GAME.apply(state, seat, mover(state, seat, rng))


def histograms(seen: list[Seen], kind: str) -> list[list[int]]:
    """Per round (index 0 = round 1), how often ``kind`` took each value 0, 1, 2, …"""
    out: list[list[int]] = []
    for round_ in range(1, ROUNDS + 1):
        values = [s.value(kind) for s in seen if s.round == round_]
        counts = [0] * (max(values, default=0) + 1)
        for v in values:
            counts[v] += 1
        out.append(counts)
    return out


def means(seen: list[Seen], kind: str) -> list[float]:
    """Per round, the mean of ``kind`` (0.0 for a round never seen)."""
    out = []
    for round_ in range(1, ROUNDS + 1):
        values = [s.value(kind) for s in seen if s.round == round_]
        out.append(sum(values) / len(values) if values else 0.0)
    return out


def measure(games: int, seed: str = "priors") -> list[Seen]:
    """Holdings over ``games`` greedy games at each of 3, 4 and 5 seats."""
    return [
        s
        for seats in (3, 4, 5)
        for g in range(games)
        for s in holdings(seats, f"{seed}-{seats}-{g}")
    ]


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 40
    seen = measure(games)
    print(f"# {len(seen)} observations, {games} greedy games at each of 3, 4 and 5 seats")
    for kind in KINDS:
        print(f"# {kind} means by round: {[round(m, 2) for m in means(seen, kind)]}")
        print(f'"{kind}": {histograms(seen, kind)},')
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
