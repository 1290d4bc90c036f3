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

Inside a search the same heuristic plays every seat (``choose_in_state``: the very same
commands, read from the sampled state instead of a view built for each move) and commands
are played on the search's own copy in place (``play_in_place``). ``determinize`` is the
engine's ``sample_state``; ``evaluate`` turns the engine's scoring of the sampled state into a
soft winning chance.
"""

from __future__ import annotations

from typing import Any

from server.engine import Command, Game, Rng, State, View, clone
from server.games.strasbourg.data import ROUNDS, components
from server.games.strasbourg.determinize import sample_state
from server.games.strasbourg.legal import PHASES, normalize
from server.games.strasbourg.legal import legal as legal_commands
from server.games.strasbourg.scoring import final_result
from server.games.strasbourg.state import STEPS, step_kind

from .adapters import register_adapter

CANDIDATES = 6  # root commands the search compares
# Own decisions an iteration takes in the search tree: only the root's. Every later one is
# the heuristic's, so each root command is scored by how the heuristic would go on from it
# (a rollout improvement of the heuristic) instead of by a shallow tree's untried commands.
TREE_DEPTH = 1
WIN_TEMPERATURE = 3.0  # points: how sharply an estimated lead turns into a winning chance
# Task kinds a bot can steer towards without luck, best first.
EASY_TASKS = ("guild_members", "orthogonal_line", "council", "edifice_neighbours")
WORTH_FIGHTING = {"nobility_church", "guild"}

Cell = tuple[int, int]


def _of_type(legal: list[Command], kind: str) -> list[Command]:
    return [c for c in legal if c["type"] == kind]


def _keep(offer: list[dict[str, Any]], legal: list[Command]) -> Command:
    """Keep up to two tasks of the easiest kinds (or the single best task offered); each
    offered task a dict with its ``id``, ``kind`` and ``value``."""
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


def _draw_target(rounds_left: int, available: int) -> int:
    """How many cards to hold this round: the cards still in the deck (plus those drawn)
    shared over the rounds left, at least 2."""
    return max(2, -(-available // rounds_left))


def _planning(hand: list[int], rounds_left: int, available: int, legal: list[Command]) -> Command:
    """Draw up to the fair share (``_draw_target``), then stack pairs from the top, seal."""
    types = {c["type"] for c in legal}
    if "seal" in types:
        return {"type": "seal"}
    if "retract" in types:
        # Sealed stacks stay sealed: the seat is only asked when it has nothing else.
        return legal[0]
    if "stack" in types:
        top = sorted(hand, reverse=True)
        # Pairs from the top; an odd last card goes alone.
        wanted = {"type": "stack", "cards": sorted(top[:2])}
        return wanted if wanted in legal else _of_type(legal, "stack")[0]
    if "draw" in types and len(hand) < _draw_target(rounds_left, available):
        return {"type": "draw"}
    return {"type": "stop"}


def _influence(
    stacks: list[list[int]],
    step: int,
    shown: list[int],
    goods: int,
    legal: list[Command],
) -> Command:
    """Reveal or pass in influence step ``step`` (0 = A) holding ``stacks``, the others'
    revealed totals ``shown``, ``goods`` goods."""
    reveals = _of_type(legal, "reveal")
    if not reveals:
        return {"type": "pass"} if {"type": "pass"} in legal else legal[0]
    best = max(reveals, key=lambda c: sum(stacks[c["stack"]]))
    weakest = min(reveals, key=lambda c: sum(stacks[c["stack"]]))
    steps_left = 7 - step
    kind = step_kind(step)
    if len(stacks) >= steps_left:
        return weakest  # the stacks would be discarded unrevealed anyway
    if kind in WORTH_FIGHTING and sum(stacks[best["stack"]]) > max(shown, default=0):
        return best
    if kind == "merchants" and goods >= 2:
        return weakest
    return {"type": "pass"} if {"type": "pass"} in legal else best


def _own_cells(members: list[list[int | None]], seat: int) -> set[Cell]:
    return {(r, c) for r, row in enumerate(members) for c, who in enumerate(row) if who == seat}


def _near(cell: Cell, others: set[Cell]) -> int:
    r, c = cell
    return sum(1 for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in others)


def _best_build(mine: set[Cell], edifices: set[Cell], builds: list[Command]) -> Command:
    prices = components().prices

    def score(cmd: Command) -> tuple[int, int]:
        cell = (cmd["cell"][0], cmd["cell"][1])
        return (2 * _near(cell, mine) + 3 * _near(cell, edifices), -prices.get(cell, 0))

    return max(builds, key=score)


def _choice(mine: set[Cell], edifices: set[Cell], legal: list[Command]) -> Command:
    """A decision after ranking (or in steps H and I), ``mine`` the seat's city cells."""
    builds = _of_type(legal, "build")
    if builds:
        return _best_build(mine, edifices, builds)
    for kind in ("take_good", "sell"):
        found = _of_type(legal, kind)
        if found:
            return found[0]
    returns = _of_type(legal, "return_card")
    if returns:
        return max(returns, key=lambda c: c["card"])
    places = _of_type(legal, "edifice") or _of_type(legal, "chapel")
    if places and places[0]["type"] == "edifice":
        return max(places, key=lambda c: _near((c["cell"][0], c["cell"][1]), mine))
    return legal[0]


def _checked(cmd: Command, legal: list[Command], rng: Rng) -> Command:
    return cmd if cmd in legal else legal[rng.below(len(legal))]


def choose(view: View, seat: int, rng: Rng) -> Command:
    """The heuristic's command for ``seat``; always one of ``view["legal"]``.
    Raises ValueError when there is none."""
    legal = list(view["legal"])
    if not legal:
        raise ValueError(f"seat {seat} has no legal command")
    phase = view["phase"]
    me = view["me"]
    if phase == "tasks":
        cmd = _keep(me["offer"], legal)
    elif phase == "planning":
        available = me["deck"] + len(me["hand"]) + sum(len(s) for s in me["building"])
        cmd = _planning(me["hand"], view["rounds"] - view["round"] + 1, available, legal)
    elif phase == "influence":
        shown = [sum(p["revealed"]) for p in view["players"] if p["revealed"] is not None]
        step = STEPS.index(view["step"]["letter"])
        cmd = _influence(me["stacks"], step, shown, sum(me["goods"].values()), legal)
    else:
        edifices = {(e["cell"][0], e["cell"][1]) for e in view["city"]["edifices"]}
        cmd = _choice(_own_cells(view["city"]["members"], seat), edifices, legal)
    return _checked(cmd, legal, rng)


def choose_in_state(state: State, seat: int, rng: Rng) -> Command:
    """``choose`` read straight from a (simulated) state: the very same command, without
    building the seat's view first (most of a play-out's cost). Only for states the bot may
    read whole: sampled ones inside a search, or the analysis's finished games.
    Raises ValueError when the seat has no legal command."""
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal command")
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "tasks":
        tasks = components().tasks
        offer = [{"id": t, "kind": tasks[t].kind, "value": tasks[t].value} for t in player["offer"]]
        cmd = _keep(offer, legal)
    elif phase == "planning":
        hand = player["hand"]
        available = len(player["deck"]) + len(hand) + sum(len(s) for s in player["building"])
        rounds_left = ROUNDS - min(state["round"] + 1, ROUNDS) + 1
        cmd = _planning(hand, rounds_left, available, legal)
    elif phase == "influence":
        revealed = state["influence"]["revealed"]
        shown = [sum(cards) for cards in revealed if cards is not None]
        goods = sum(player["goods"].values())
        cmd = _influence(player["stacks"], state["step"], shown, goods, legal)
    else:
        edifices = {(r, c) for r, c, _ in state["built"]}
        cmd = _choice(_own_cells(state["city"], seat), edifices, legal)
    return _checked(cmd, legal, rng)


def play_in_place(state: State, seat: int, cmd: Command) -> State:
    """``state`` after ``seat`` plays ``cmd``, which must be one of its legal commands: the
    phase's own rules applied to ``state`` itself (a plain dict is its holder's own, so the
    rules change it rather than a copy; ``server.engine.state``). The same state
    ``game.apply`` returns, at a fraction of the cost, for a state nobody else holds."""
    PHASES[state["phase"]].apply(state, seat, normalize(cmd))
    return state


def win_chance(scores: list[int], seat: int) -> float:
    """A soft-max over scores: the share of wins ``seat`` may expect, 0..1."""
    top = max(scores)
    weights: list[float] = [pow(2.718281828, (v - top) / WIN_TEMPERATURE) for v in scores]
    return weights[seat] / sum(weights)


class StrasbourgBots:
    """The ``BotAdapter`` of Strasbourg (see ``server.bots.adapters``)."""

    tree_depth: int | None = TREE_DEPTH

    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        return choose(view, seat, rng)

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        # A copy that shares nothing with the view, so that ``advance`` may change it.
        return clone(sample_state(view, rng))

    def candidates(self, view: View, seat: int) -> list[Command]:
        """The heuristic's command first, then the others (the few of each type first)."""
        legal: list[Command] = list(view["legal"])
        first = choose(view, seat, Rng(0))
        rest = [c for c in legal if c != first]
        # Of many stack splits keep the small ones; a search cannot tell 800 apart anyway.
        # Passing and giving up a privilege come before the reveals, which a seat with many
        # stacks has more of than the search compares.
        rest.sort(key=lambda c: (len(c.get("cards", [])), c["type"] == "reveal"))
        return [first, *rest][:CANDIDATES]

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        return choose_in_state(state, seat, rng)

    def advance(self, game: Game, state: State, seat: int, cmd: Command) -> State:
        """``state`` after ``seat`` plays the legal ``cmd``: changed in place by the rules
        themselves, without the engine's checks and copy (the search's own state only)."""
        return play_in_place(state, seat, cmd)

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        scores: list[Any] = final_result(state)["scores"]
        coins = [p["coins"] for p in state["players"]]
        # Coins still buy members; count them at a fraction of a point.
        return win_chance([s + c // 4 for s, c in zip(scores, coins, strict=True)], seat)


register_adapter("strasbourg", StrasbourgBots())
