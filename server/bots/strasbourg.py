"""Bot knowledge of Strasbourg: a heuristic player, determinization and evaluation.

The heuristic reads only the seat's view (``docs/strasbourg.md``):

- tasks: keeps the one or two offered tasks it is most likely to fulfil (a kept task
  that fails costs 3 points, so keeping all five is a gamble a careful player avoids);
- planning: draws about its fair share of the cards it has left for the rounds left,
  then splits them into pairs (with the strongest pair first), and seals;
- influence: reveals its strongest stack when that may beat what the others have turned
  over so far and the step is worth having, otherwise passes; uses no privileges;
- decisions: builds on the cheapest affordable space next to its own members or an
  edifice, sells every good, returns its highest card, puts chapels and edifices next
  to its own members.

``determinize`` is the engine's ``sample_state``; ``evaluate`` turns the engine's scoring
of the sampled state into a soft winning chance.
"""

from __future__ import annotations

from typing import Any

from server.engine import Command, Game, Rng, State, View
from server.games.strasbourg.determinize import sample_state
from server.games.strasbourg.scoring import final_result

from .adapters import register_adapter

CANDIDATES = 6  # root commands the search compares
WIN_TEMPERATURE = 3.0  # points: how sharply an estimated lead turns into a winning chance
# Task kinds a bot can steer towards without luck, best first.
EASY_TASKS = ("guild_members", "orthogonal_line", "council", "edifice_neighbours")
WORTH_FIGHTING = {"nobility_church", "guild"}

Cell = tuple[int, int]


def _of_type(legal: list[Command], kind: str) -> list[Command]:
    return [c for c in legal if c["type"] == kind]


def _keep(view: View, legal: list[Command]) -> Command:
    """Keep up to two tasks of the easiest kinds (or the single best task offered)."""
    offer = view["me"]["offer"]
    ranked = sorted(
        offer,
        key=lambda t: (
            EASY_TASKS.index(t["kind"]) if t["kind"] in EASY_TASKS else len(EASY_TASKS),
            -t["value"],
        ),
    )
    easy = [t["id"] for t in ranked if t["kind"] in EASY_TASKS][:2] or [ranked[0]["id"]]
    wanted = {"type": "keep", "tasks": sorted(easy)}
    return wanted if wanted in legal else legal[0]


def _draw_target(view: View) -> int:
    """How many cards to hold this round: the cards still in the deck (plus those drawn)
    shared over the rounds left, at least 2."""
    me = view["me"]
    rounds_left: int = view["rounds"] - view["round"] + 1
    available: int = me["deck"] + len(me["hand"]) + sum(len(s) for s in me["building"])
    return max(2, -(-available // rounds_left))


def _planning(view: View, legal: list[Command]) -> Command:
    types = {c["type"] for c in legal}
    me = view["me"]
    if "seal" in types:
        return {"type": "seal"}
    if "retract" in types:
        # Sealed stacks stay sealed: the seat is only asked when it has nothing else.
        return legal[0]
    if "stack" in types:
        hand = sorted(me["hand"], reverse=True)
        # Pairs from the top; an odd last card goes alone.
        wanted = {"type": "stack", "cards": sorted(hand[:2])}
        return wanted if wanted in legal else _of_type(legal, "stack")[0]
    drawn = len(me["hand"])
    if "draw" in types and drawn < _draw_target(view):
        return {"type": "draw"}
    return {"type": "stop"}


def _influence(view: View, legal: list[Command]) -> Command:
    reveals = _of_type(legal, "reveal")
    if not reveals:
        return {"type": "pass"} if {"type": "pass"} in legal else legal[0]
    stacks = view["me"]["stacks"]
    best = max(reveals, key=lambda c: sum(stacks[c["stack"]]))
    weakest = min(reveals, key=lambda c: sum(stacks[c["stack"]]))
    step = view["step"]
    shown = [sum(p["revealed"]) for p in view["players"] if p["revealed"] is not None]
    steps_left = 7 - "ABCDEFG".index(step["letter"])
    if len(stacks) >= steps_left:
        return weakest  # the stacks would be discarded unrevealed anyway
    if step["kind"] in WORTH_FIGHTING and sum(stacks[best["stack"]]) > max(shown, default=0):
        return best
    if step["kind"] == "merchants" and sum(view["me"]["goods"].values()) >= 2:
        return weakest
    return {"type": "pass"} if {"type": "pass"} in legal else best


def _own_cells(view: View, seat: int) -> set[Cell]:
    return {
        (r, c)
        for r, row in enumerate(view["city"]["members"])
        for c, who in enumerate(row)
        if who == seat
    }


def _near(cell: Cell, others: set[Cell]) -> int:
    r, c = cell
    return sum(1 for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in others)


def _price(view: View, cell: Cell) -> int:
    price = view["board"]["prices"][cell[0]][cell[1]]
    return price if isinstance(price, int) else 0


def _best_build(view: View, seat: int, builds: list[Command]) -> Command:
    mine = _own_cells(view, seat)
    edifices = {tuple(e["cell"]) for e in view["city"]["edifices"]}

    def score(cmd: Command) -> tuple[int, int]:
        cell = (cmd["cell"][0], cmd["cell"][1])
        return (2 * _near(cell, mine) + 3 * _near(cell, edifices), -_price(view, cell))

    return max(builds, key=score)


def _choice(view: View, seat: int, legal: list[Command]) -> Command:
    builds = _of_type(legal, "build")
    if builds:
        return _best_build(view, seat, builds)
    for kind in ("take_good", "sell"):
        found = _of_type(legal, kind)
        if found:
            return found[0]
    returns = _of_type(legal, "return_card")
    if returns:
        return max(returns, key=lambda c: c["card"])
    places = _of_type(legal, "edifice") or _of_type(legal, "chapel")
    if places and places[0]["type"] == "edifice":
        mine = _own_cells(view, seat)
        return max(places, key=lambda c: _near((c["cell"][0], c["cell"][1]), mine))
    return legal[0]


def choose(view: View, seat: int, rng: Rng) -> Command:
    """The heuristic's command for ``seat``; always one of ``view["legal"]``.
    Raises ValueError when there is none."""
    legal = list(view["legal"])
    if not legal:
        raise ValueError(f"seat {seat} has no legal command")
    phase = view["phase"]
    if phase == "tasks":
        cmd = _keep(view, legal)
    elif phase == "planning":
        cmd = _planning(view, legal)
    elif phase == "influence":
        cmd = _influence(view, legal)
    else:
        cmd = _choice(view, seat, legal)
    return cmd if cmd in legal else legal[rng.below(len(legal))]


def win_chance(scores: list[int], seat: int) -> float:
    """A soft-max over scores: the share of wins ``seat`` may expect, 0..1."""
    top = max(scores)
    weights: list[float] = [pow(2.718281828, (v - top) / WIN_TEMPERATURE) for v in scores]
    return weights[seat] / sum(weights)


class StrasbourgBots:
    """The ``BotAdapter`` of Strasbourg (see ``server.bots.adapters``)."""

    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        return choose(view, seat, rng)

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        return sample_state(view, rng)

    def candidates(self, view: View, seat: int) -> list[Command]:
        """The heuristic's command first, then the others (the few of each type first)."""
        legal: list[Command] = list(view["legal"])
        first = choose(view, seat, Rng(0))
        rest = [c for c in legal if c != first]
        # Of many stack splits keep the small ones; a search cannot tell 800 apart anyway.
        rest.sort(key=lambda c: len(c.get("cards", [])))
        return [first, *rest][:CANDIDATES]

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        view = game.view(state, seat)
        return choose(view, seat, rng)

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        scores: list[Any] = final_result(state)["scores"]
        coins = [p["coins"] for p in state["players"]]
        # Coins still buy members; count them at a fraction of a point.
        return win_chance([s + c // 4 for s, c in zip(scores, coins, strict=True)], seat)


register_adapter("strasbourg", StrasbourgBots())
