"""A table's chat as this process holds it: the newest entries of its log, which messages are
hidden, whether the spectators' room is open; and what each reader is sent of it.

Who reads which room: a person who owns a seat reads both rooms (players may open the
spectators' one); a spectator reads the spectators' room, and the players' room only on a
public table. A hidden message is sent as ``hidden: true`` without its text.

Each message's JSON is made once per table and process, whoever reads it: a reader's frame is
the join of the texts it may read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server import jsontext

from .rules import HISTORY

KEEP = 500  # log entries (messages, hides, room changes) held per table


@dataclass(frozen=True)
class Entry:
    """One log entry (``server.store.models.ChatRow`` without what identifies its author)."""

    seq: int
    kind: str  # text | phrase | hide | room
    room: str
    seat: int | None
    name: str
    text: str
    target: int | None
    at: float
    who: str | None = None  # a spectator's mark (``store.entry``), for muting; None: a seat

    @property
    def is_message(self) -> bool:
        return self.kind in ("text", "phrase")

    def wire(self, hidden: bool) -> dict[str, Any]:
        """The message as readers get it: who (seat and name; seat null: a spectator, with
        ``who``, the mark that stays theirs under any name), where, when, and the text or
        the quick phrase's id unless it is hidden."""
        shown: dict[str, Any] = {
            "seq": self.seq,
            "room": self.room,
            "seat": self.seat,
            "name": self.name,
            "at": self.at,
        }
        if self.seat is None and self.who is not None:
            shown["who"] = self.who
        if hidden:
            shown["hidden"] = True
        else:
            shown[self.kind] = self.text
        return shown


def reads(room: str, seated: bool, public: bool) -> bool:
    """Whether a reader (``seated``: owns a seat of the table) may read ``room``."""
    return room == "spectators" or seated or public


@dataclass
class ChatLog:
    """The newest KEEP entries of one table's chat log, in ``seq`` order."""

    entries: list[Entry] = field(default_factory=list)
    newest: int = 0  # the highest seq applied
    complete: bool = True  # ``entries`` starts at the log's first entry
    hidden: set[int] = field(default_factory=set)
    spectators_open: bool = True
    _json: dict[int, str] = field(default_factory=dict)

    def apply(self, entries: list[Entry], hidden: set[int]) -> None:
        """Add entries newer than ``newest`` (in seq order); ``hidden``: the messages among
        them the database marks hidden."""
        for entry in entries:
            if entry.seq <= self.newest:
                continue
            self.entries.append(entry)
            self.newest = entry.seq
            if entry.kind == "hide" and entry.target is not None:
                self.hidden.add(entry.target)
                self._json.pop(entry.target, None)
            elif entry.kind == "room":
                self.spectators_open = entry.text == "open"
        self.hidden |= hidden
        if len(self.entries) > KEEP:
            for gone in self.entries[: len(self.entries) - KEEP]:
                self._json.pop(gone.seq, None)
            del self.entries[: len(self.entries) - KEEP]
            self.complete = False

    def _text(self, entry: Entry) -> str:
        text = self._json.get(entry.seq)
        if text is None:
            text = self._json[entry.seq] = jsontext.dumps(entry.wire(entry.seq in self.hidden))
        return text

    def history(self, seated: bool, public: bool) -> str:
        """The ``chat_history`` message a reader gets after its hello: the newest HISTORY
        messages it may read, whether older ones may exist, the room's state and ``seq``,
        the log's newest entry (what later ``chat`` messages follow on from)."""
        shown = [e for e in self.entries if e.is_message and reads(e.room, seated, public)]
        more = len(shown) > HISTORY or not self.complete
        texts = ",".join(self._text(e) for e in shown[-HISTORY:])
        return (
            f'{{"type":"chat_history","seq":{self.newest},"messages":[{texts}],'
            f'"more":{jsontext.dumps(more)},"spectators":{jsontext.dumps(self.spectators_open)}}}'
        )

    def since(self, seq: int, seated: bool, public: bool) -> str | None:
        """The ``chat`` message bringing a reader that holds the log up to ``seq`` to
        ``newest``: new messages, newly hidden ones, the room's state if it changed. None
        when there is nothing it may read; raises LookupError when entries after ``seq`` are
        no longer held (the reader gets the history again)."""
        if not self.complete and (not self.entries or self.entries[0].seq > seq + 1):
            raise LookupError(seq)
        messages, hidden, room = [], [], None
        for entry in self.entries[self._index_after(seq) :]:
            if entry.is_message:
                if reads(entry.room, seated, public):
                    messages.append(self._text(entry))
            elif entry.kind == "hide" and entry.target is not None:
                target = self.message(entry.target)
                if target is None or reads(target.room, seated, public):
                    hidden.append(entry.target)
            else:
                room = entry.text == "open"
        if not messages and not hidden and room is None:
            return None
        parts = [f'"type":"chat","seq":{self.newest},"messages":[{",".join(messages)}]']
        if hidden:
            parts.append(f'"hidden":{jsontext.dumps(hidden)}')
        if room is not None:
            parts.append(f'"spectators":{jsontext.dumps(room)}')
        return "{" + ",".join(parts) + "}"

    def _index_after(self, seq: int) -> int:
        """The index of the first entry after ``seq`` (entries are in seq order)."""
        low, high = 0, len(self.entries)
        while low < high:
            mid = (low + high) // 2
            if self.entries[mid].seq <= seq:
                low = mid + 1
            else:
                high = mid
        return low

    def message(self, seq: int) -> Entry | None:
        """The message ``seq`` if it is held here."""
        index = self._index_after(seq - 1)
        if index < len(self.entries) and self.entries[index].seq == seq:
            entry = self.entries[index]
            return entry if entry.is_message else None
        return None
