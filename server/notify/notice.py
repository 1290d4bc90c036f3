"""A "your move" notice as plain data, what it says, and which notice a seat's clock wants.

A notice passes through other people's machines (a browser maker's push service, a chat
server, a mail relay), so it carries only what every player and spectator of the table may
know: the table's name, whose move it is, how long they have left, and the table page's
address, never a seat token, a card or a coin. Nothing here does I/O; ``now`` is passed in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from server.clocks import model as clock_model

Outcome = Literal["sent", "retry", "gone"]
# "chat": somebody wrote in the table's chat (``server.notify.chat_notices``; its rows are
# apart from the others and never replace them, so it is not among KINDS).
Kind = Literal["turn", "reminder", "nudge", "chat"]
# For one decision a later kind replaces an earlier one (a nudge only on an untimed table,
# the reminder only on a timed one).
KINDS: tuple[Kind, ...] = ("turn", "reminder", "nudge")
# The reminder of a timed decision goes out once this share of the decision's time is used.
REMINDER_AT = 0.8


def table_name(title: str, table_id: str) -> str:
    """How a notice, and a mail, name a table: the game's title and the table id, as the
    page's top bar shows them (``Norenberc · k3Xz``): nothing a player typed."""
    return f"{title} · {table_id}"


@dataclass(frozen=True)
class Notice:
    """One seat's "your move", as every channel receives it.

    ``seconds_left`` is None on an untimed table; ``url`` is the table page without any seat
    token (the player opens it with their own seat link, or their browser remembers it);
    ``by_name`` is who nudged the player (a ``nudge``: the table log says so to everyone),
    or who wrote in the chat (a ``chat`` notice, which never says what: only that).
    """

    table_id: str
    seat: int
    kind: Kind
    table_name: str
    seat_name: str
    seconds_left: float | None
    url: str
    by_name: str | None = None

    @property
    def subject(self) -> str:
        """A one-line title (an e-mail subject, a push title).

        >>> Notice("t1", 0, "turn", "Toy · t1", "Anna", None, "http://x/t/t1").subject
        'Your move at Toy · t1'
        """
        if self.kind == "nudge":
            return f"{self.by_name or 'A player'} is waiting for your move at {self.table_name}"
        if self.kind == "chat":
            return f"{self.by_name or 'A player'} wrote at table {self.table_name}"
        lead = "Reminder: your move" if self.kind == "reminder" else "Your move"
        return f"{lead} at {self.table_name}"

    @property
    def text(self) -> str:
        """The message in a sentence or two, with the table's address.

        >>> print(Notice("t1", 1, "reminder", "Toy · t1", "Bela", 5400, "http://x/t/t1").text)
        Bela, it is your move at Toy · t1. Time left: 1 h 30 min.
        http://x/t/t1
        """
        if self.kind == "chat":
            return f"{self.subject}. Open the table to read it.\n{self.url}"
        left = ""
        if self.seconds_left is not None:
            left = f" Time left: {duration(self.seconds_left)}."
        nudged = f" {self.by_name or 'A player'} nudged you:" if self.kind == "nudge" else ""
        move = f"{self.seat_name},{nudged} it is your move at {self.table_name}."
        return f"{move}{left}\n{self.url}"

    def as_json(self) -> dict[str, Any]:
        """The JSON a webhook receives: the fields, plus ``text`` and ``content`` (the keys
        Slack- and Matrix-style hooks and Discord show)."""
        return {
            "text": self.text,
            "content": self.text,
            "kind": self.kind,
            "table": self.table_name,
            "table_id": self.table_id,
            "seat": self.seat,
            "player": self.seat_name,
            "by": self.by_name,
            "seconds_left": None if self.seconds_left is None else round(self.seconds_left),
            "url": self.url,
        }


def duration(seconds: float) -> str:
    """``seconds`` for people, to the minute (seconds under two minutes).

    >>> [duration(s) for s in (45, 150, 7260, 90000, 259200)]
    ['45 s', '2 min', '2 h 1 min', '1 day 1 h', '3 days']
    """
    seconds = max(0, round(seconds))
    if seconds < 120:
        return f"{seconds} s"
    minutes = seconds // 60
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        head = f"{days} day" + ("s" if days > 1 else "")
        return f"{head} {hours} h" if hours else head
    return f"{hours} h {mins} min" if hours else f"{mins} min"


def wanted(clock: clock_model.Clock, seat: int, now: float) -> tuple[float, Kind] | None:
    """The notice ``seat``'s clock wants at ``now``: (the decision's start, kind), or None.

    A seat is owed a notice while it is asked to act (its clock runs: ``since`` is set), no
    bot is playing its decision, and the table is not paused. On a timed table the notice
    becomes a reminder once ``REMINDER_AT`` of the decision's time is used.

    >>> clock = clock_model.new_clock(clock_model.check_config({"mode": "days"}), 2)
    >>> clock = clock_model.advance(clock, set(), {1}, now=0.0, planning=False)
    >>> wanted(clock, 0, 10.0), wanted(clock, 1, 10.0), wanted(clock, 1, 0.8 * 86400)
    (None, (0.0, 'turn'), (0.0, 'reminder'))
    """
    entry = clock["seats"][seat]
    since = entry["since"]
    if since is None or entry["covered"] or clock["paused"] is not None:
        return None
    end = clock_model.deadline(clock, seat)
    if end is not None and now >= since + REMINDER_AT * (end - since):
        return float(since), "reminder"
    return float(since), "turn"


def replaces(old_decision: float, old_kind: str, decision: float, kind: Kind) -> bool:
    """Whether a wanted notice replaces the one held: a new decision, or the reminder of the
    decision whose first notice was held (sent or not). Never twice the same."""
    if old_decision != decision:
        return True
    return KINDS.index(kind) > KINDS.index(old_kind) if old_kind in KINDS else True


def left(clock: clock_model.Clock | None, seat: int, now: float) -> float | None:
    """Seconds ``seat`` has left of its decision (None: untimed, or not running)."""
    if clock is None:
        return None
    end = clock_model.deadline(clock, seat)
    return None if end is None else max(0.0, end - now)


# The interface of a channel (``server.notify.outbox`` registers them): what it does with a
# notice, and which seats it has an address for.
Deliver = Callable[[Notice], Awaitable[Outcome]]
