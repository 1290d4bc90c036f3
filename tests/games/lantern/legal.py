"""Legality: every command a seat may send now; ``check`` accepts exactly those."""

from __future__ import annotations

from typing import Any

from server.engine import Command, RuleError
from server.engine import planning as pl

from .state import LanternState


def legal(state: LanternState, seat: int) -> list[Command]:
    """Bids 0 .. the seat's coins, wait and retract as the planning record allows."""
    p = state["planning"]
    if type(seat) is not int or not 0 <= seat < state["seats"] or p is None:
        return []
    commands: list[Command] = []
    if pl.may_commit(p, seat):
        coins = state["players"][seat]["coins"]
        commands += [{"type": "bid", "amount": amount} for amount in range(coins + 1)]
    if pl.may_wait(p, seat):
        commands.append({"type": "wait"})
    if pl.may_retract(p, seat):
        commands.append({"type": "retract"})
    return commands


def check(state: LanternState, seat: int, cmd: dict[str, Any]) -> None:
    """Nothing if ``seat`` may play ``cmd`` now; else RuleError with the shared code."""
    if state["phase"] == "over":
        raise RuleError("game_over", "the game is over")
    options = legal(state, seat)
    if cmd in options:
        return
    p = state["planning"]
    if not options:
        if p is not None and 0 <= seat < state["seats"] and pl.has_committed(p, seat):
            raise RuleError("already_committed", f"seat {seat} has sealed its bid")
        if p is not None and 0 <= seat < state["seats"] and not pl.may_commit(p, seat):
            raise RuleError("must_wait", f"seat {seat} bids after the seats before it")
        raise RuleError("not_your_turn", f"seat {seat} has nothing to decide now")
    if cmd["type"] not in {c["type"] for c in options}:
        raise RuleError("unexpected_command", f"{cmd['type']!r} is not possible now")
    raise RuleError("not_allowed", f"{cmd!r} is not allowed (at most your coins)")
