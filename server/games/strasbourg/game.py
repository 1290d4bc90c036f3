"""The Strasbourg game object: the engine contract wired to the rule modules."""

from __future__ import annotations

from typing import Any

from server.engine import Command, Event, Result, RuleError, State, View, draft, finish
from server.engine import planning as pl

from . import clauses
from .choices import apply_choice
from .commands import check_command
from .flow import continue_choices
from .influence import apply_influence
from .legal import check, legal
from .planning import apply_keep, apply_planning
from .scoring import final_result
from .setup import default_options, new_state
from .state import UNCHANGING
from .views import build_view, seat_view


class Strasbourg:
    """Strasbourg for 3–5 players; see docs/strasbourg.md for commands, views and events."""

    name = "strasbourg"
    title = "Strasbourg"
    min_seats = 3
    max_seats = 5

    def default_options(self) -> dict[str, Any]:
        return default_options()

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        """Setup; raises RuleError('bad_seats') or RuleError('bad_option')."""
        return new_state(seats, seed, options)

    def to_act(self, state: State) -> set[int]:
        """Seats the game waits for: planners now, the seat at the head of the
        influence queue, or the seat owing the next decision."""
        phase = state["phase"]
        if phase in ("tasks", "planning"):
            return set(pl.awaiting(state["planning"]))
        if phase == "influence":
            return {state["influence"]["queue"][0]}
        if phase == "choice":
            return {state["choices"][0]["seat"]}
        return set()

    def legal(self, state: State, seat: int) -> list[Command]:
        return legal(state, seat)

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        """The next state and events; raises RuleError, naming the clause it enforces, for
        anything ``legal`` does not list."""
        try:
            return self._apply(state, seat, cmd)
        except RuleError as exc:
            raise clauses.CITATIONS.cite(exc, state, seat, cmd) from None

    def _apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        check_command(cmd)  # exact JSON types first: 9.0 and true would pass ``check``
        norm = check(state, seat, cmd)
        # Copy on write: the rules take each part they change (``own_player``, ``own``) and
        # only those are copied; the rest is shared with ``state``, never changed.
        new = draft(state, UNCHANGING)
        phase = new["phase"]
        if phase == "tasks":
            events = apply_keep(new, seat, norm)
        elif phase == "planning":
            events = apply_planning(new, seat, norm)
        elif phase == "influence":
            events = apply_influence(new, seat, norm)
        else:
            events = apply_choice(new, seat, norm) + continue_choices(new)
        return finish(new), events

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat, self.to_act(state))

    def view_from(self, state: State, seat: int, spectator: View) -> View:
        """``view(state, seat)`` made from ``spectator``, the spectator's view of ``state``,
        which the seat's view shares (neither is ever changed): the server builds what every
        seat may know once per version, and per seat only what differs."""
        return seat_view(state, seat, spectator)

    def result(self, state: State) -> Result | None:
        return final_result(state) if state["phase"] == "over" else None


GAME = Strasbourg()
