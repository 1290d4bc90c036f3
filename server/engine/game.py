"""The contract every game implements; the server, bots and tests use nothing else.

State, commands, views and events are plain JSON data (dicts, lists, str, int,
bool, None) so that they can be stored, sent and replayed exactly.

Seats are the integers ``0 .. seats-1``. The engine knows no player names:
event texts refer to seats as ``{s0}``, ``{s1}`` … and the client substitutes names.
Each event also carries ``params``, the values its text was made of (seats as integers,
guilds, goods and tiles as data), so that a client can render the line in the reader's
language from a template keyed by the event type; the English ``text`` is the fallback.
"""

from __future__ import annotations

from typing import Any, Protocol, TypedDict

State = dict[str, Any]
Command = dict[str, Any]
View = dict[str, Any]


class Event(TypedDict):
    """One log entry. ``to`` is None when everyone may see it, else the seats that may.

    ``params`` holds exactly what ``text`` says, never more: a seat that may read the
    event may read every value in it. ``params["variant"]``, when present, names which of
    several phrasings of the same event type applies.
    """

    type: str
    text: str
    to: list[int] | None
    params: dict[str, Any]


class Result(TypedDict):
    """Final outcome: ``scores[seat]``, ``breakdown[seat][category]``, winners (ties share)."""

    scores: list[int]
    breakdown: list[dict[str, int]]
    winners: list[int]


def event(
    type_: str,
    text: str,
    to: list[int] | None = None,
    *,
    params: dict[str, Any] | None = None,
) -> Event:
    """Build a log entry; pass ``to`` for an entry only some seats may read.

    >>> event("GoodsSold", "{s1} sold 2 beer for 8 talers",
    ...       params={"seat": 1, "goods": {"beer": 2}, "total": 8})["params"]
    {'seat': 1, 'goods': {'beer': 2}, 'total': 8}
    """
    return {
        "type": type_,
        "text": text,
        "to": None if to is None else sorted(to),
        "params": dict(params or {}),
    }


def log_entry(ev: Event | dict[str, Any]) -> dict[str, Any]:
    """What a reader of the log receives: the event without its audience.

    Events stored before ``params`` existed get an empty ``params``; the client then
    shows their English text.
    """
    return {"type": ev["type"], "text": ev["text"], "params": ev.get("params") or {}}


def is_visible(ev: Event, seat: int | None) -> bool:
    """True when ``seat`` (None: a spectator) may read ``ev``."""
    return ev["to"] is None or (seat is not None and seat in ev["to"])


def opening(
    game: Game, seats: int, seed: str, options: dict[str, Any]
) -> tuple[State, list[Event]]:
    """A fresh game and the events of its opening: the game's ``opening`` when it has one,
    else ``new`` and no events. The state is always ``game.new(seats, seed, options)``."""
    made = getattr(game, "opening", None)
    if made is None:
        return game.new(seats, seed, options), []
    state, events = made(seats, seed, options)
    return state, list(events)


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
        """A fresh game, deterministic for (seats, seed, options); RuleError on bad options.

        A game whose opening says something (round 1's lantern, the starting player) also
        defines ``opening(seats, seed, options) -> (State, list[Event])``: the same state and
        the events of the opening, which a table logs as the events of its first version.
        Use :func:`opening` to ask any game for both.
        """
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
        """What ``seat`` (None: a spectator) may know, with its legal commands when it may act.

        A game may also define ``view_from(state, seat, spectator) -> View``: the same view
        of ``seat``, made from ``spectator`` (``view(state, None)``), sharing its parts and
        never changing it. The server then builds what every seat may know once per version
        (``server.realtime.views``); the play-out tests check that both give the same view.
        """
        ...

    def result(self, state: State) -> Result | None:
        """Final scores once the game is over, else None."""
        ...
