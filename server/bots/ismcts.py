"""Information-set Monte Carlo tree search over the ``Game`` contract.

The searching seat never sees the real state. Every iteration asks the game's adapter for a
*determinization* — a full state consistent with the seat's view, hidden parts sampled
afresh — and plays it forward with the engine:

- the seat's own decisions walk a tree keyed by its own commands (one tree shared by all
  determinizations, so it stands for the seat's information set); a child is scored with
  UCB1 counting how often it was *available* rather than how often its parent was visited
  (commands legal in one sampled world may be illegal in another);
- the other seats, and the searching seat once it has left the tree, move by the adapter's
  fast rollout policy. Modelling opponents by a policy instead of tree nodes keeps them from
  "seeing" the seat's sealed plan in the search, and makes small budgets count;
- after ``horizon`` simulated commands (or at the end) the position is scored in [0, 1]:
  the final win share (with a small score-margin term) or the adapter's evaluation.

The result is deterministic for a seed and an iteration budget; a time budget stops early.

An adapter may also offer ``advance(game, state, seat, cmd)``: the state after a legal
command, made by changing ``state`` in place without the engine's checks. The search plays
each iteration on a state it alone holds (a fresh determinization), so it uses that when the
adapter has it, and the engine's ``apply`` otherwise: a game without the hook searches
exactly as before. Likewise ``tree_depth``: how many of the seat's own decisions an
iteration walks in the tree (the rest are the rollout policy's); without it, as many as the
tree has. A small budget spread over a deep tree scores a root command partly by the
untried, mostly poor, later commands the tree explores after it.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from server.engine import Command, Game, Result, Rng, State, View

from .adapters import BotAdapter


@dataclass(frozen=True)
class Budget:
    """How much searching one decision may do: stop at whichever limit comes first.

    ``iterations`` alone makes the search reproducible; ``seconds`` caps the wall time.
    """

    iterations: int | None = 300
    seconds: float | None = None
    horizon: int = 400
    exploration: float = 0.7

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations, seconds or both")


@dataclass
class _Node:
    """Statistics of one own command in the seat's tree (keyed by the command's JSON)."""

    visits: int = 0
    value: float = 0.0
    available: int = 0
    children: dict[str, _Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        mean = self.value / self.visits
        return mean + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def command_key(cmd: Command) -> str:
    """A canonical text for ``cmd`` so equal commands share one tree node."""
    return json.dumps(cmd, sort_keys=True, separators=(",", ":"))


def outcome(result: Result, seat: int) -> float:
    """Reward of a finished game for ``seat`` in [0, 1].

    Mostly the win share (ties split), plus a small term for the margin over the best
    other seat, so that a search still prefers closer losses and bigger wins.
    """
    scores, winners = result["scores"], result["winners"]
    win = 1.0 / len(winners) if seat in winners else 0.0
    others = [s for i, s in enumerate(scores) if i != seat] or [0]
    margin = scores[seat] - max(others)
    spread = abs(scores[seat]) + abs(max(others)) + 1
    return 0.8 * win + 0.2 * (0.5 + 0.5 * margin / spread)


class Search:
    """One decision's search; ``run`` returns the command with the most visits."""

    def __init__(
        self, game: Game, adapter: BotAdapter, view: View, seat: int, rng: Rng, budget: Budget
    ) -> None:
        self.game, self.adapter, self.view, self.seat = game, adapter, view, seat
        self.rng, self.budget = rng, budget
        self.root = _Node()
        legal = {command_key(c): c for c in view.get("legal") or []}
        chosen = [command_key(c) for c in adapter.candidates(view, seat)] if legal else []
        # Only the adapter's candidates are searched, and only if they are really legal.
        self.root_legal = {k: legal[k] for k in chosen if k in legal} or legal
        self.iterations = 0
        self.deadline: float | None = None
        depth: int | None = getattr(adapter, "tree_depth", None)
        self.tree_depth: float = math.inf if depth is None else depth
        faster = getattr(adapter, "advance", None)
        self.advance: Callable[[State, int, Command], State] = self._apply
        if faster is not None:
            self.advance = lambda state, actor, cmd: faster(game, state, actor, cmd)

    def _apply(self, state: State, seat: int, cmd: Command) -> State:
        new, _ = self.game.apply(state, seat, cmd)
        return new

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def run(self) -> Command:
        """Search within the budget. Raises ValueError if the view offers no command."""
        if not self.root_legal:
            raise ValueError(f"seat {self.seat} has no legal command in this view")
        if len(self.root_legal) == 1:
            return next(iter(self.root_legal.values()))
        if self.budget.seconds is not None:
            self.deadline = time.perf_counter() + self.budget.seconds
        while self.budget.iterations is None or self.iterations < self.budget.iterations:
            if self._out_of_time():
                break
            self._iterate()
            self.iterations += 1
        best: Command = self.root_legal[self.best_key()]
        return best

    def best_key(self) -> str:
        """Most visited root command; ties go to the better mean, then to candidate order."""
        return self.ranking()[0]

    def ranking(self) -> list[str]:
        """The root commands best first, as ``best_key`` orders them (the learning table's
        suggestions show the first three)."""
        order = list(self.root_legal)

        def rank(key: str) -> tuple[int, float, int]:
            node = self.root.children.get(key)
            if node is None or node.visits == 0:
                return (0, 0.0, -order.index(key))
            return (node.visits, node.value / node.visits, -order.index(key))

        return sorted(order, key=rank, reverse=True)

    def stats(self, key: str) -> tuple[int, float | None]:
        """Visits of root command ``key`` and its mean reward (None: never tried)."""
        node = self.root.children.get(key)
        if node is None or node.visits == 0:
            return 0, None
        return node.visits, node.value / node.visits

    def _iterate(self) -> None:
        state = self.adapter.determinize(self.view, self.seat, self.rng)
        path = [self.root]
        node: _Node | None = self.root
        steps = 0
        while self.game.result(state) is None and steps < self.budget.horizon:
            if steps and self._out_of_time():
                break  # evaluate early rather than overrun the time budget
            actor = self._next_actor(state)
            if actor == self.seat and node is not None and len(path) <= self.tree_depth:
                legal = self._own_legal(state, node is self.root)
                key, node, expanded = self._select(node, legal)
                path.append(node)
                cmd = legal[key]
                if expanded:
                    node = None  # leave the tree: one new node per iteration
            else:
                cmd = self.adapter.rollout(self.game, state, actor, self.rng)
            state = self.advance(state, actor, cmd)
            steps += 1
        reward = self._score(state)
        for visited in path:
            visited.visits += 1
            visited.value += reward

    def _next_actor(self, state: State) -> int:
        actors = self.game.to_act(state)
        if not actors:
            raise RuntimeError("simulated game has no seat to act but no result either")
        # The searching seat decides first among simultaneous planners: the others plan
        # on their own views afterwards, which never show a sealed plan.
        return self.seat if self.seat in actors else min(actors)

    def _own_legal(self, state: State, at_root: bool) -> dict[str, Command]:
        """The seat's commands worth a tree node here: the adapter's candidates, best first."""
        if at_root:
            return self.root_legal
        view = self.game.view(state, self.seat)
        legal = {command_key(c): c for c in view["legal"]}
        chosen = [command_key(c) for c in self.adapter.candidates(view, self.seat)]
        return {k: legal[k] for k in chosen if k in legal} or legal

    def _select(self, node: _Node, legal: dict[str, Command]) -> tuple[str, _Node, bool]:
        """The child to follow: the first untried command (candidates come best first, so a
        new node starts on the heuristic's line), else the best by UCB1."""
        untried = [key for key in legal if key not in node.children]
        for key in legal:
            if key in node.children:
                node.children[key].available += 1
        if untried:
            key = untried[0]
            child = node.children[key] = _Node(available=1)
            return key, child, True
        explore = self.budget.exploration
        key = max(legal, key=lambda k: node.children[k].ucb(explore))
        return key, node.children[key], False

    def _score(self, state: State) -> float:
        result = self.game.result(state)
        if result is not None:
            return outcome(result, self.seat)
        return self.adapter.evaluate(self.game, state, self.seat)
