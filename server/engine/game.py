"""The contract every game implements; the server, bots and tests use nothing else.

State, commands, views and events are plain JSON data (dicts, lists, str, int,
bool, None) so that they can be stored, sent and replayed exactly.

Seats are the integers ``0 .. seats-1``. The engine knows no player names:
event texts refer to seats as ``{s0}``, ``{s1}`` … and the client substitutes names.
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict

State = dict[str, Any]
Command = dict[str, Any]
View = dict[str, Any]


class Event(TypedDict):
    """One log entry. ``to`` is None when everyone may see it, else the seats that may."""

    type: str
    text: str
    to: list[int] | None


class Result(TypedDict):
    """Final outcome: ``scores[seat]``, ``breakdown[seat][category]``, winners (ties share)."""

    scores: list[int]
    breakdown: list[dict[str, int]]
    winners: list[int]


def event(type_: str, text: str, to: list[int] | None = None) -> Event:
    """Build a log entry; pass ``to`` for an entry only some seats may read.

    >>> event("GoodsSold", "{s1} sold 2 beer for 8 talers")
    {'type': 'GoodsSold', 'text': '{s1} sold 2 beer for 8 talers', 'to': None}
    """
    return {"type": type_, "text": text, "to": None if to is None else sorted(to)}


def is_visible(ev: Event, seat: int | None) -> bool:
    """True when ``seat`` (None: a spectator) may read ``ev``."""
    return ev["to"] is None or (seat is not None and seat in ev["to"])


class Game(Protocol):
    """A game definition. Every method is pure: no I/O, inputs never mutated."""

    name: str
    title: str
    min_seats: int
    max_seats: int

    def default_options(self) -> dict[str, Any]:
        """The options a table gets when it names none."""
        ...

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        """A fresh game, deterministic for (seats, seed, options); RuleError on bad options."""
        ...

    def to_act(self, state: State) -> set[int]:
        """Seats whose input the game is waiting for now (several during sealed planning)."""
        ...

    def legal(self, state: State, seat: int) -> list[Command]:
        """Every command ``seat`` may send now; empty when it may not act."""
        ...

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        """The state after ``seat`` plays ``cmd`` and the log entries it produced.

        Accepts exactly the commands ``legal`` lists; raises RuleError otherwise.
        """
        ...

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (None: a spectator) may know, with its legal commands when it may act."""
        ...

    def result(self, state: State) -> Result | None:
        """Final scores once the game is over, else None."""
        ...
