"""Norenberc's legality: ``legal`` lists every command a seat may send now, in a stable order.

Planning commands come from the sealed-planning record (``server.engine.planning``); in the
action phase, the open citizen choice (``citizens.legal_choice``) or the four actions at the
called guild (``actions.legal_actions``). ``apply`` accepts exactly these: each ``do_*`` of
``actions`` and ``citizens`` checks its command and says why it refuses one (RuleError codes
in docs/protocol.md).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from server.engine import planning as sealed

from . import actions, citizens, flow
from .state import State


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now; [] when it may not act or the game is over."""
    if not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        return []
    if state["phase"] == "planning":
        return _legal_planning(state, seat)
    if state["phase"] == "action" and flow.current_actor(state) == seat:
        if state["action"]["choice"] is not None:
            return citizens.legal_choice(state, seat)
        return actions.legal_actions(state, seat)
    return []


def _legal_planning(state: State, seat: int) -> list[dict[str, Any]]:
    p = state["planning"]
    commands: list[dict[str, Any]] = []
    if sealed.may_commit(p, seat):
        commands.extend({"type": "plan", "guilds": g} for g in _plans(state, seat))
        commands.append({"type": "pass"})
    if sealed.may_wait(p, seat):
        commands.append({"type": "wait"})
    if sealed.may_retract(p, seat):
        commands.append({"type": "retract"})
    return commands


def _plans(state: State, seat: int) -> list[list[int]]:
    return [list(plan) for plan in _plans_of(len(state["houses"]), state["players"][seat]["hand"])]


@lru_cache(maxsize=64)
def _plans_of(guild_count: int, hand: int) -> tuple[tuple[int, ...], ...]:
    """Every plan of at most ``hand`` guilds out of ``guild_count``: by size, then guilds."""
    guilds = list(range(1, guild_count + 1))
    plans = []
    for mask in range(1, 1 << len(guilds)):
        plan = tuple(g for i, g in enumerate(guilds) if mask >> i & 1)
        if len(plan) <= hand:
            plans.append(plan)
    return tuple(sorted(plans, key=lambda plan: (len(plan), plan)))
