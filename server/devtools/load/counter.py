"""A trivial game for benchmarks only: seats take turns adding 1-3 to a shared count.

It exists so that ``guildhall loadtest --game counter`` measures the framework (storage,
fan-out, documents, the protocol) without the cost of real rules, and so that the same game
can be played against the bare ``floor`` server. It is registered only in the load test's
servers (``server.devtools.load.serve``) and never appears in the lobby.

The state carries the last ``RECENT`` moves so that what is stored per command weighs about
2 KB, like the floor's state and like a small real game.
"""

from __future__ import annotations

from typing import Any

from server.engine import Command, Event, Result, RuleError, State, View, event, register_game

RECENT = 64  # moves kept in the state (about 2 KB of JSON)
SHOWN = 8  # of them, the ones a view shows
STEPS = (1, 2, 3)
DEFAULT_TARGET = 100_000  # the count that ends a game: far beyond any load run


def legal_moves(turn: int, seat: int) -> list[Command]:
    """What ``seat`` may send while it is ``turn``'s turn (the floor server uses this too)."""
    return [{"type": "add", "n": n} for n in STEPS] if seat == turn else []


def new_state(seats: int, target: int = DEFAULT_TARGET) -> State:
    """A fresh counter state (the floor server starts from this too)."""
    return {"seats": seats, "turn": 0, "count": 0, "target": target, "moves": 0, "recent": []}


def check_move(state: State, seat: int, cmd: Any) -> int:
    """The step ``cmd`` adds; RuleError unless it is ``seat``'s turn and a legal ``add``."""
    if state["count"] >= state["target"]:
        raise RuleError("game_over", "the game is over")
    if seat != state["turn"]:
        raise RuleError("not_your_turn", f"seat {state['turn']} acts now, not seat {seat}")
    if not isinstance(cmd, dict) or cmd.get("type") != "add" or set(cmd) != {"type", "n"}:
        raise RuleError("bad_command", "the only command is {'type': 'add', 'n': 1-3}")
    step = cmd["n"]
    if isinstance(step, bool) or step not in STEPS:
        raise RuleError("bad_command", f"n is 1, 2 or 3, not {step!r}")
    return int(step)


def advanced(state: State, seat: int, step: int) -> State:
    """A new state after ``seat`` added ``step``; ``state`` is left as it was."""
    count = state["count"] + step
    recent = [*state["recent"][1 - RECENT :], {"seat": seat, "n": step, "count": count}]
    return {
        **state,
        "turn": (seat + 1) % state["seats"],
        "count": count,
        "moves": state["moves"] + 1,
        "recent": recent,
    }


class Counter:
    """The counter game (``Game`` protocol)."""

    name = "counter"
    title = "Counter (benchmark)"
    min_seats = 1
    max_seats = 8

    def default_options(self) -> dict[str, Any]:
        return {"target": DEFAULT_TARGET}

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        target = options.get("target", DEFAULT_TARGET)
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise RuleError("bad_option", f"target is a positive integer, not {target!r}")
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleError("bad_seats", f"counter takes 1-8 seats, not {seats}")
        return new_state(seats, target)

    def to_act(self, state: State) -> set[int]:
        return set() if state["count"] >= state["target"] else {state["turn"]}

    def legal(self, state: State, seat: int) -> list[Command]:
        if state["count"] >= state["target"]:
            return []
        return legal_moves(state["turn"], seat)

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        step = check_move(state, seat, cmd)
        new = advanced(state, seat, step)
        text = f"{{s{seat}}} added {step}"
        return new, [event("Added", text, params={"seat": seat, "n": step})]

    def view(self, state: State, seat: int | None) -> View:
        to_act = sorted(self.to_act(state))
        return {
            "count": state["count"],
            "target": state["target"],
            "turn": state["turn"],
            "recent": state["recent"][-SHOWN:],
            "to_act": to_act,
            "legal": [] if seat is None else self.legal(state, seat),
        }

    def view_from(self, state: State, seat: int, spectator: View) -> View:
        """``view(state, seat)`` sharing ``spectator``'s parts, as the real games do: only a
        seat's legal commands are its own."""
        return {**spectator, "legal": self.legal(state, seat)}

    def result(self, state: State) -> Result | None:
        if state["count"] < state["target"]:
            return None
        last = state["recent"][-1]["seat"] if state["recent"] else 0
        scores = [int(seat == last) for seat in range(state["seats"])]
        return Result(scores=scores, breakdown=[{"last": s} for s in scores], winners=[last])


COUNTER = register_game(Counter())
