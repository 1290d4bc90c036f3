"""Norenberc's phase table: what each phase lets a seat send, what a legal command does, and
who acts; the engine's shell (``server.engine.phases``) accepts exactly what ``legal`` lists.

Planning is the sealed-planning phase of ``flow.PLANNING``; in the action phase, the open
citizen choice (``citizens.legal_choice``) or the four actions at the called guild
(``actions.legal_actions``). A refused command is explained by the rule that refuses it: each
``do_*`` of ``actions`` and ``citizens`` checks its command and says why (RuleError codes in
docs/protocol.md), before the shared codes.
"""

from __future__ import annotations

from typing import Any

from server.engine import Command, Event, RuleError, State, draft
from server.engine.phases import Phase, legal_in, to_act_in

from . import actions, citizens, flow
from .state import UNCHANGING

# Fields a client may leave out of a command (a sale's total, a hire's tile, a theft's
# payment): they only confirm what the rules compute, and are checked when given.
INFORMATIONAL = frozenset({"total", "tile", "paid"})


def _legal_action(state: State, seat: int) -> list[Command]:
    if flow.current_actor(state) != seat:
        return []
    if state["action"]["choice"] is not None:
        return citizens.legal_choice(state, seat)
    return actions.legal_actions(state, seat)


def _legal_action_like(state: State, seat: int, cmd: Command) -> list[Command]:
    """The part of ``_legal_action`` that may hold ``cmd``: the open choice's answers, the
    hires of its window, or the actions of its type."""
    if flow.current_actor(state) != seat:
        return []
    if state["action"]["choice"] is not None:
        return citizens.legal_choice(state, seat)
    kind = cmd["type"]
    if kind == "nothing":
        return [{"type": "nothing"}]
    if kind == "hire" and type(cmd.get("window")) is int:
        return actions.legal_hire(state, seat, state["action"]["guild"], cmd["window"])
    listing = _ACTION_LISTS.get(kind)
    return listing(state, seat, state["action"]["guild"]) if listing else []


_ACTION_LISTS = {"sell": actions.legal_sell, "hire": actions.legal_hire, "buy": actions.legal_buy}


def _apply_action(state: State, seat: int, cmd: Command) -> list[Event]:
    """The open citizen choice answered, or the action at the called guild taken; then play
    moves on."""
    events: list[Event] = []
    if state["action"]["choice"] is not None:
        citizens.apply_choice(state, seat, cmd, events)
        flow.finish_action(state, seat, events)
        return events
    handler = actions.ACTIONS.get(cmd["type"])
    if handler is None:
        known = ", ".join(actions.ACTIONS)
        raise RuleError("unexpected_command", f"{cmd['type']!r} is not an action (one of {known})")
    if handler(state, seat, state["action"]["guild"], cmd, events):
        flow.finish_action(state, seat, events)
    return events


def _explain_action(state: State, seat: int, cmd: Command, legal: list[Command]) -> Any:
    """Why ``cmd`` is refused: not the acting seat, else what the rule it breaks says (the
    rules run on a copy-on-write draft that is thrown away)."""
    actor = flow.current_actor(state)
    if seat != actor:
        return RuleError("not_your_turn", f"seat {actor} acts now, not seat {seat}")
    try:
        _apply_action(draft(state, UNCHANGING), seat, cmd)
    except RuleError as exc:
        return exc
    return None


def _actor(state: State) -> set[int]:
    actor = flow.current_actor(state)
    return set() if actor is None else {actor}


PHASES = {
    "planning": flow.PLANNING.phase()._replace(explain=flow.explain_planning),
    "action": Phase(
        _legal_action,
        _apply_action,
        explain=_explain_action,
        to_act=_actor,
        informational=INFORMATIONAL,
        legal_of=_legal_action_like,
    ),
}


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may send now, in a stable order; [] when it may not act or the
    game is over."""
    return legal_in(PHASES, state, seat)


def to_act(state: State) -> set[int]:
    """Seats the game waits for: planners who may commit now, or the acting seat."""
    return to_act_in(PHASES, state)


def normalize(cmd: Command) -> Command:
    """The command with its lists in canonical order (a plan's guilds, the bailiff's tiles),
    as the rules read them."""
    out = dict(cmd)
    for key in ("guilds", "tiles"):
        if isinstance(out.get(key), list):
            out[key] = sorted(out[key])
    return out
