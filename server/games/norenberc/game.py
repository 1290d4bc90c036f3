"""The Norenberc game object: the ``Game`` contract, dispatching to the rule modules."""

from __future__ import annotations

from typing import Any

from server.engine import Event, Result, RuleError, State, View, draft, finish

from . import actions, citizens, clauses, flow, scoring, views
from .commands import check_command
from .legal import legal
from .setup import DEFAULT_OPTIONS, MAX_SEATS, MIN_SEATS, new_state
from .state import UNCHANGING


class Norenberc:
    """Norenberc for 2-5 players (rules: docs/rules/norenberc.md)."""

    name = "norenberc"
    title = "Norenberc"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

    def default_options(self) -> dict[str, Any]:
        """``{"planning": "simultaneous", "promo": False}``."""
        return dict(DEFAULT_OPTIONS)

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        """A fresh game; RuleError('bad_seats' / 'bad_option')."""
        state = new_state(seats, seed, options)
        flow.open_turn(state)
        return state

    def to_act(self, state: State) -> set[int]:
        """Seats the game waits for: planners who may commit now, or the acting seat."""
        return set(_to_act(state))

    def legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every command ``seat`` may send now, in a stable order; [] when it may not act."""
        return legal(state, seat)

    def apply(self, state: State, seat: int, cmd: dict[str, Any]) -> tuple[State, list[Event]]:
        """The new state and the events of ``seat`` playing ``cmd``; RuleError, naming the
        clause it enforces, when illegal."""
        try:
            return self._apply(state, seat, cmd)
        except RuleError as exc:
            raise clauses.CITATIONS.cite(exc, state, seat, cmd) from None

    def _apply(self, state: State, seat: int, cmd: dict[str, Any]) -> tuple[State, list[Event]]:
        check_command(cmd)
        if state["phase"] == "over":
            raise RuleError("game_over", "the game is over")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
            raise RuleError("not_your_turn", f"there is no seat {seat!r} at this table")
        events: list[Event] = []
        # Copy on write: the rules take each part they change (``own_player``, ``own_house``
        # …) and only those are copied; the rest is shared with ``state``, never changed.
        new = draft(state, UNCHANGING)
        if state["phase"] == "planning":
            _apply_planning(new, seat, cmd, events)
        else:
            _apply_action(new, seat, cmd, events)
        return finish(new), events

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (None: spectator) may know; see docs/norenberc.md."""
        legal_commands = legal(state, seat) if seat is not None else []
        actor = flow.current_actor(state) if state["phase"] == "action" else None
        return views.build_view(
            state, seat, _to_act(state), legal_commands, actor, scoring.result(state)
        )

    def view_from(self, state: State, seat: int, spectator: View) -> View:
        """``view(state, seat)`` made from ``spectator``, the spectator's view of ``state``,
        which the seat's view shares (neither is ever changed): the server builds what every
        seat may know once per version, and per seat only what differs."""
        return views.seat_view(state, seat, spectator, legal(state, seat))

    def result(self, state: State) -> Result | None:
        """Final scores with the per-category breakdown once the game is over, else None."""
        outcome = scoring.result(state)
        if outcome is None:
            return None
        return Result(
            scores=outcome["scores"], breakdown=outcome["breakdown"], winners=outcome["winners"]
        )


def _to_act(state: State) -> list[int]:
    if state["phase"] == "planning":
        return flow.planning_to_act(state)
    if state["phase"] == "action":
        actor = flow.current_actor(state)
        return [] if actor is None else [actor]
    return []


def _apply_planning(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    if cmd["type"] not in flow.PLANNING_COMMANDS:
        p = state["planning"]
        if not p["eligible"][seat]:
            raise RuleError("not_your_turn", f"seat {seat} does not plan this turn")
        raise RuleError(
            "unexpected_command",
            f"{cmd['type']!r} is not possible while planning (plan, pass, wait, retract)",
        )
    flow.apply_planning(state, seat, cmd, events)


def _apply_action(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    actor = flow.current_actor(state)
    if seat != actor:
        raise RuleError("not_your_turn", f"seat {actor} acts now, not seat {seat}")
    kind = cmd["type"]
    if state["action"]["choice"] is not None:
        citizens.apply_choice(state, seat, cmd, events)
        flow.finish_action(state, seat, events)
        return
    handler = actions.ACTIONS.get(kind)
    if handler is None:
        known = ", ".join(actions.ACTIONS)
        raise RuleError("unexpected_command", f"{kind!r} is not an action (one of {known})")
    if handler(state, seat, state["action"]["guild"], cmd, events):
        flow.finish_action(state, seat, events)


GAME = Norenberc()
