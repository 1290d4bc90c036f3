"""A small game for server tests: sealed planning, a hidden value per seat, turns, an end.

Each of ``ROUNDS`` rounds: every seat secretly plans a number 1-3 (through
``server.engine.planning``: plan, wait, retract), in planning order = reverse turn order.
Then, in turn order, each seat's plan is revealed on its turn and it either ``collect``s its
planned number of coins or ``pass``es for one coin. Coins are hidden (only their owner sees
them, and the log tells only the owner how many). The starting seat moves on each round.
Highest coins wins.
"""

from __future__ import annotations

import copy
from typing import Any

from server.engine import (
    Command,
    Event,
    Result,
    Rng,
    RuleError,
    State,
    View,
    event,
    register_game,
    seed_to_state,
)
from server.engine import planning as pl

ROUNDS = 3
PLANS = (1, 2, 3)


class ToyGame:
    name = "toy"
    title = "Toy"
    min_seats = 2
    max_seats = 5

    def default_options(self) -> dict[str, Any]:
        return {"planning": "simultaneous", "promo": False}

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleError("bad_seats", f"toy takes 2-5 seats, not {seats}")
        if options.get("planning", "simultaneous") not in ("simultaneous", "ordered"):
            raise RuleError("bad_option", f"planning {options.get('planning')!r}")
        rng = Rng(seed_to_state(seed))
        coins = [1 + rng.below(5) for _ in range(seats)]
        state: State = {
            "seats": seats,
            "options": dict(options),
            "round": 1,
            "start": 0,
            "coins": coins,
            "rng": rng.state,
        }
        return _open_round(state)

    def to_act(self, state: State) -> set[int]:
        if state["phase"] == "planning":
            return set(pl.awaiting(state["planning"]))
        if state["phase"] == "action":
            return {state["order"][state["turn"]]}
        return set()

    def legal(self, state: State, seat: int) -> list[Command]:
        if state["phase"] == "planning":
            p = state["planning"]
            moves: list[Command] = []
            if pl.may_commit(p, seat):
                moves += [{"type": "plan", "value": v} for v in PLANS]
            if pl.may_wait(p, seat):
                moves.append({"type": "wait"})
            if pl.may_retract(p, seat):
                moves.append({"type": "retract"})
            return moves
        if state["phase"] == "action" and state["order"][state["turn"]] == seat:
            return [{"type": "collect"}, {"type": "pass"}]
        return []

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        if cmd not in self.legal(state, seat):
            if state["phase"] == "over":
                raise RuleError("game_over", "the game is over")
            raise RuleError("illegal", f"seat {seat} cannot play {cmd!r} now")
        s = copy.deepcopy(state)
        if s["phase"] == "planning":
            return _apply_planning(s, seat, cmd)
        return _apply_action(s, seat, cmd)

    def view(self, state: State, seat: int | None) -> View:
        view: View = {
            "phase": state["phase"],
            "round": state["round"],
            "order": state["order"],
            "revealed": state["revealed"],
            "planning": pl.public_status(state["planning"]),
            "to_act": sorted(self.to_act(state)),
            "legal": self.legal(state, seat) if seat is not None else [],
        }
        if seat is not None:
            view["coins"] = state["coins"][seat]
            view["my_plan"] = pl.plan_of(state["planning"], seat)
        return view

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = list(state["coins"])
        best = max(scores)
        return {
            "scores": scores,
            "breakdown": [{"coins": c} for c in scores],
            "winners": [s for s, c in enumerate(scores) if c == best],
        }


def _open_round(state: State) -> State:
    n = state["seats"]
    order = [(state["start"] + i) % n for i in range(n)]
    ordered = state["options"].get("planning") == "ordered"
    state["order"] = order
    state["planning"] = pl.open_planning(n, order[::-1], list(range(n)), ordered=ordered)
    state["phase"], state["turn"], state["revealed"] = "planning", 0, [None] * n
    return state


def _apply_planning(s: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
    kind = cmd["type"]
    if kind == "plan":
        s["planning"] = pl.commit(s["planning"], seat, cmd["value"])
        events = [event("PlanCommitted", f"{{s{seat}}} committed a plan")]
    elif kind == "wait":
        s["planning"] = pl.wait(s["planning"], seat)
        events = [pl.waited_event(seat, "in reverse order")]
    else:
        s["planning"] = pl.retract(s["planning"], seat)
        events = [pl.retracted_event(seat)]
    if pl.is_complete(s["planning"]):
        s["phase"] = "action"
        events.append(event("PlanningClosed", "every seat has planned"))
    return s, events


def _apply_action(s: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
    planned = pl.plan_of(s["planning"], seat)
    s["revealed"][seat] = planned
    gain = planned if cmd["type"] == "collect" else 1
    s["coins"][seat] += gain
    events = [
        event("PlanRevealed", f"{{s{seat}}} had planned {planned}"),
        event("CoinsTaken", f"you took {gain} coins", to=[seat]),
    ]
    s["turn"] += 1
    if s["turn"] < s["seats"]:
        return s, events
    if s["round"] == ROUNDS:
        s["phase"] = "over"
        events.append(event("GameEnded", "the game is over"))
        return s, events
    s["round"] += 1
    s["start"] = (s["start"] + 1) % s["seats"]
    return _open_round(s), events


TOY = register_game(ToyGame())
