"""Each connection's document, and the JSON Patch between two of them.

The CPU time spent here (building documents and diffing them) is counted in ``VIEW_STATS`` so
``make bench`` and ``/metrics`` can report it per delivered message.

Three caches keep that time down; none changes a byte of what is sent:

- the log: a table's log only grows, so each event's entry (and its JSON) is made once per
  table, and each reader's visible entries are found once (``_TableLog``);
- whole documents: the document (and its JSON) of one ``TableData`` object for one seat and
  one presence is built once however many connections ask (``document``). The key holds the
  seat (None: a spectator) and the cached entry holds the ``TableData`` itself, so a seat never
  gets another seat's document and a new version (a new ``TableData``) never an old document;
- the spectator's game view of one ``TableData``, from which a game with ``view_from`` makes
  each seat's view: what every seat may know is built once per version, not once per seat.

Documents are shared between connections and caches: nothing here or in the callers mutates
a document once built.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import jsonpatch
from jsonpointer import escape

from server import jsontext
from server.engine import Event, Game, State, View, get_game, is_visible, log_entry
from server.metrics import VIEW_STATS
from server.tables import clock as table_clock
from server.tables.data import TableData

Doc = dict[str, Any]

LOG_TABLES = 1024  # tables whose log entries are kept (a miss only costs a rebuild)
DOCUMENTS = 256  # recent documents kept (per table version, seat and presence)


def build_doc(data: TableData, seat: int | None, connected: frozenset[int]) -> Doc:
    """The document ``seat`` (None: spectator) may hold for ``data``; see docs/protocol.md."""
    return document(data, seat, connected).doc


class Document:
    """A built document and its JSON, encoded only when asked for.

    ``min_length`` is a lower bound of ``len(text)`` known without encoding the game view:
    enough to see that a patch is shorter than the snapshot without making the snapshot.
    The log's JSON is joined from its entries' (each encoded once per table) only when the
    text is asked for: a patch never needs it.
    """

    __slots__ = ("_count", "_head", "_reader", "_text", "doc", "min_length")

    def __init__(self, doc: Doc, head: str, reader: _SeatLog, count: int) -> None:
        self.doc, self._head, self._reader, self._count = doc, head, reader, count
        self._text: str | None = None
        # head + game (at least one character) + ',"log":[' + entries and commas + ']}'
        self.min_length = len(head) + 1 + len(_LOG_KEY) + reader.text_length(count) + 2

    @property
    def text(self) -> str:
        """Exactly ``_dumps(doc)``: compact JSON of a dict is its members' JSON in order."""
        if self._text is None:
            entries = ",".join(self._reader.texts[: self._count])
            game = _dumps(self.doc["game"])
            self._text = f"{self._head}{game}{_LOG_KEY}{entries}]}}"
        return self._text


_LOG_KEY = ',"log":['


def document(data: TableData, seat: int | None, connected: frozenset[int]) -> Document:
    """``build_doc`` (and its JSON), made once per (``data``, seat, presence)."""
    key = (data.id, data.version, seat, connected)
    held = _DOCUMENTS.get(key)
    if held is not None and held[0] is data:
        _DOCUMENTS.move_to_end(key)
        return held[1]
    built = build_document(data, seat, connected)
    _DOCUMENTS[key] = (data, built)
    if len(_DOCUMENTS) > DOCUMENTS:
        _DOCUMENTS.popitem(last=False)
    return built


def clear_caches() -> None:
    """Forget every cached log entry and document (tests; never needed for correctness)."""
    _DOCUMENTS.clear()
    _TABLE_PARTS.clear()
    _SPECTATOR_VIEWS.clear()
    _LOGS.clear()
    _MEMO.clear()


def build_document(data: TableData, seat: int | None, connected: frozenset[int]) -> Document:
    """``document`` without the document cache (the log entries still come from theirs)."""
    game = get_game(data.game)
    table_log = _table_log(data)
    reader, count = table_log.visible(seat, len(data.log))
    table, table_text = _table_part(data, connected)
    if data.seat_log:
        # Each seat change's place counted in this reader's log, not the whole table's (a
        # table with seat changes only: the others share one table part).
        seat_log = [
            {**change, "at": table_log.visible_before(seat, change["at"])}
            for change in data.shown_seat_log
        ]
        table = {**table, "seat_log": seat_log}
        table_text = _dumps(table)
    doc: Doc = {
        "table": table,
        "you": _YOU.get(seat) or {"seat": seat},
        "game": _game_view(data, game, seat),
        "log": reader.entries[:count],
    }
    head = f'{{"table":{table_text},"you":{{"seat":{_dumps(seat)}}},"game":'
    return Document(doc, head, reader, count)


# One ``you`` object per seat for every document: an unchanged member is then the same
# object in a client's last document and its next one, which the diff skips at once.
_YOU: dict[int | None, Doc] = {seat: {"seat": seat} for seat in (None, *range(16))}


def _game_view(data: TableData, game: Game, seat: int | None) -> View | None:
    """``game.view(data.state, seat)``. A game with ``view_from`` makes every seat's view
    from the spectator's, built once per version (``_spectator_view``): what every seat may
    know is built once, and per seat only what differs (its hidden holdings, its legal
    commands). The views share those parts; documents are never changed."""
    if data.state is None:
        return None
    view_from = getattr(game, "view_from", None)
    if view_from is None:
        return game.view(data.state, seat)
    spectator = _spectator_view(data, game, data.state)
    if seat is None:
        return spectator
    seat_view: View = view_from(data.state, seat, spectator)
    return seat_view


def _spectator_view(data: TableData, game: Game, state: State) -> View:
    key = (data.id, data.version)
    held = _SPECTATOR_VIEWS.get(key)
    if held is not None and held[0] is data:
        return held[1]
    view = game.view(state, None)
    _SPECTATOR_VIEWS[key] = (data, view)
    if len(_SPECTATOR_VIEWS) > DOCUMENTS:
        _SPECTATOR_VIEWS.popitem(last=False)
    return view


def _table_part(data: TableData, connected: frozenset[int]) -> tuple[Doc, str]:
    """The ``table`` member every seat's document shares, and its JSON: made once per
    (``data``, presence), not once per seat."""
    key = (data.id, data.version, connected)
    held = _TABLE_PARTS.get(key)
    if held is not None and held[0] is data:
        return held[1], held[2]
    table: Doc = {
        "id": data.id,
        "game": data.game,
        "title": data.title,
        "status": data.status,
        "version": data.version,
        "seed_sha256": data.seed_sha256,
        "options": data.options,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "connected": s.seat in connected,
                "stand_in": s.stand_in,
            }
            for s in data.seats
        ],
        "public": data.public,
        "seat_log": list(data.shown_seat_log),
        "clock": table_clock.public(data),
        "rematch": data.rematch,
    }
    if data.learning:
        table["learning"] = True  # a learning table (docs/protocol.md); absent: not one
    skipped = len(data.seat_log) - len(data.shown_seat_log)
    if skipped:
        table["seat_log_skipped"] = skipped  # the older entries the document leaves out
    text = _dumps(table)
    _TABLE_PARTS[key] = (data, table, text)
    if len(_TABLE_PARTS) > DOCUMENTS:
        _TABLE_PARTS.popitem(last=False)
    return table, text


@dataclass
class _SeatLog:
    """What one reader may see of a table's log: positions, entries and their JSON (all
    only ever appended to, so the first ``count`` of each never change)."""

    scanned: int = 0  # events of the table log looked at so far
    index: list[int] = field(default_factory=list)
    entries: list[Doc] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)  # length of the first i+1 texts, joined

    def add(self, at: int, entry: Doc, text: str) -> None:
        self.index.append(at)
        self.entries.append(entry)
        self.texts.append(text)
        self.ends.append(len(text) + (self.ends[-1] + 1 if self.ends else 0))

    def text_length(self, count: int) -> int:
        """``len(",".join(texts[:count]))``."""
        return self.ends[count - 1] if count else 0


class _TableLog:
    """One table's log entries and their JSON, each made once; extended as the log grows."""

    def __init__(self) -> None:
        self.events: tuple[Event, ...] = ()
        self.entries: list[Doc] = []
        self.texts: list[str] = []
        self.readers: dict[int | None, _SeatLog] = {}

    def holds(self, log: tuple[Event, ...]) -> bool:
        """True when ``log`` and what is held agree on their common prefix."""
        if log is self.events:
            return True
        held = len(self.events)
        if len(log) == held:
            return log == self.events  # no slice: every seat after the first asks this
        if len(log) > held:
            return log[:held] == self.events
        return log == self.events[: len(log)]

    def extend(self, log: tuple[Event, ...]) -> None:
        for event in log[len(self.events) :]:
            entry = log_entry(event)
            self.entries.append(entry)
            self.texts.append(_dumps(entry))
        self.events = log

    def visible(self, seat: int | None, length: int) -> tuple[_SeatLog, int]:
        """``seat``'s reader and how many of its entries lie among the first ``length``
        events."""
        reader = self.readers.get(seat)
        if reader is None:
            reader = self.readers[seat] = _SeatLog()
        for at in range(reader.scanned, len(self.events)):
            if is_visible(self.events[at], seat):
                reader.add(at, self.entries[at], self.texts[at])
        reader.scanned = len(self.events)
        if not reader.index or reader.index[-1] < length:
            return reader, len(reader.index)
        return reader, bisect_left(reader.index, length)

    def visible_before(self, seat: int | None, at: int) -> int:
        """How many of the first ``at`` events ``seat`` may read (after ``visible`` for it)."""
        return bisect_left(self.readers[seat].index, at)


def _table_log(data: TableData) -> _TableLog:
    held = _LOGS.get(data.id)
    if held is None or not held.holds(data.log):
        held = _LOGS[data.id] = _TableLog()
    _LOGS.move_to_end(data.id)
    if len(_LOGS) > LOG_TABLES:
        _LOGS.popitem(last=False)
    if len(data.log) > len(held.events):
        held.extend(data.log)
    return held


_LOGS: OrderedDict[str, _TableLog] = OrderedDict()
DocumentKey = tuple[str, int, int | None, frozenset[int]]
_DOCUMENTS: OrderedDict[DocumentKey, tuple[TableData, Document]] = OrderedDict()
_TABLE_PARTS: OrderedDict[tuple[str, int, frozenset[int]], tuple[TableData, Doc, str]] = (
    OrderedDict()
)
_SPECTATOR_VIEWS: OrderedDict[tuple[str, int], tuple[TableData, View]] = OrderedDict()


def presence_ops(seats: int, connected: frozenset[int]) -> list[dict[str, Any]]:
    """Ops that set every seat's ``connected`` flag whatever the client held."""
    return [
        {"op": "replace", "path": f"/table/seats/{seat}/connected", "value": seat in connected}
        for seat in range(seats)
    ]


@dataclass(frozen=True)
class Delivery:
    """One message for one connection, serialized: a snapshot (``ops`` None) or a patch."""

    doc: Doc
    text: str
    ops: list[dict[str, Any]] | None


def deliver(
    data: TableData,
    seat: int | None,
    connected: frozenset[int],
    last: Doc | None,
    base: int,
    extra_ops: list[dict[str, Any]] | None = None,
) -> Delivery:
    """The message that brings a client holding ``last`` (at version ``base``) to ``data``.

    A patch made with ``jsonpatch.make_patch`` (plus ``extra_ops``), or a snapshot when there
    is no ``last`` or the patch message would be longer than the snapshot message.
    """
    # perf_counter, not thread_time: a CPU clock is a system call, four times per command,
    # and the time in here has no await in it (so it is this thread's own unless preempted).
    started = time.perf_counter()
    try:
        built = document(data, seat, connected)
        doc = built.doc
        head = f'{{"type":"snapshot","version":{data.version},"doc":'
        if last is not None:
            ops = diff(last, doc) + (extra_ops or [])
            patch = {"type": "patch", "version": data.version, "base": base, "ops": ops}
            patch_text = _dumps(patch)
            # The snapshot is ``head + built.text + "}"``; encode it only if it might be shorter.
            shorter = len(patch_text) <= len(head) + built.min_length + 1
            if shorter or len(patch_text) <= len(head) + len(built.text) + 1:
                VIEW_STATS.patches += 1
                VIEW_STATS.bytes_sent += len(patch_text)
                return Delivery(doc, patch_text, ops)
        snapshot_text = f"{head}{built.text}}}"
        VIEW_STATS.snapshots += 1
        VIEW_STATS.bytes_sent += len(snapshot_text)
        return Delivery(doc, snapshot_text, None)
    finally:
        VIEW_STATS.cpu_seconds += time.perf_counter() - started


def diff(old: Any, new: Any, path: str = "", depth: int = 6) -> list[dict[str, Any]]:
    """RFC 6902 ops turning ``old`` into ``new``, member order included.

    This walks the top ``depth`` levels of objects and lists, so that equal parts are skipped
    with one fast comparison; a list that only grew at its end (the log) becomes ``add …/-``
    ops, another changed list the ops of ``_list_diff``; ``jsonpatch.make_patch`` diffs only
    what lies deeper. That cuts the CPU per message several times over on a Norenberc document.

    The ops of the parts under the top ``MEMO_LEVELS`` levels are remembered by the pair of
    objects compared (``_MEMO``): the seats' documents of one version share their table part
    and most of their game view (``view_from``), so what changed there is found once per
    version, not once per seat, and an unchanged shared part is compared once.

    An added member lands at the end of its object, so a patched document reads exactly like
    a snapshot only when ``new`` lists its members that way: an object whose order differs
    otherwise (a game view that lists goods by kind gains a kind in the middle) is replaced
    whole, and so is any part where ``make_patch`` would add a member in the middle.
    """
    if old is new or old == new:
        return []
    return list(_diff(old, new, path, depth, depth - MEMO_LEVELS))


MEMO_LEVELS = 3  # levels under the root whose ops ``_MEMO`` keeps
MEMO_SIZE = 4096  # pairs kept; when full the memo starts again (a miss only costs a diff)
_Ops = list[dict[str, Any]]
_MEMO: dict[tuple[int, int, str, int], tuple[Any, Any, _Ops]] = {}


def _member_diff(before: Any, value: Any, path: str, depth: int, memo_to: int) -> _Ops:
    """``diff`` of one member (or item) and the distinct object that replaces it (never
    mutate the result: it may be shared through the memo)."""
    kind = type(value)
    if kind is not dict and kind is not list:
        # A number, a string, a flag or null: most members of a document.
        return [] if before == value else [{"op": "replace", "path": path, "value": value}]
    if type(before) is not kind:
        return [{"op": "replace", "path": path, "value": value}]
    if depth < memo_to:
        return _changed(before, value, path, depth, memo_to)
    key = (id(before), id(value), path, depth)
    held = _MEMO.get(key)
    # Both objects are kept alive by the entry, so their ids name nothing else meanwhile.
    if held is not None and held[0] is before and held[1] is value:
        return held[2]
    ops = _changed(before, value, path, depth, memo_to)
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.clear()
    _MEMO[key] = (before, value, ops)
    return ops


def _changed(before: Any, value: Any, path: str, depth: int, memo_to: int) -> _Ops:
    """The ops between two objects or two lists. An object is first compared whole (in C,
    cheaper than walking an unchanged one member by member); a list's own walk already
    stops at what differs."""
    if type(value) is dict and before == value:
        return []
    return _diff(before, value, path, depth, memo_to)


def _diff(old: Any, new: Any, path: str, depth: int, memo_to: int) -> _Ops:
    """``diff`` of two values already known to differ (each level compares its members
    before descending, so no level compares a subtree twice)."""
    if isinstance(old, dict) and isinstance(new, dict) and depth > 0:
        ops: _Ops = []
        keys = list(new)
        if keys != list(old):  # most objects keep their members and their order
            if not _order_kept(old, new):
                return [{"op": "replace", "path": path, "value": new}]
            for key in old.keys() - new.keys():
                ops.append({"op": "remove", "path": f"{path}/{_escaped(key)}"})
        for key, value in new.items():
            before = old.get(key, _ABSENT)
            # Most members are unchanged: skip those before making a path or a call for them.
            if before is value:
                continue
            if before is _ABSENT:
                ops.append({"op": "add", "path": f"{path}/{_escaped(key)}", "value": value})
            else:
                ops += _member_diff(before, value, f"{path}/{_escaped(key)}", depth - 1, memo_to)
        return ops
    if isinstance(old, list) and isinstance(new, list) and depth > 0:
        if old and _grew_at_end(old, new):
            return [{"op": "add", "path": f"{path}/-", "value": item} for item in new[len(old) :]]
        return _list_diff(old, new, path, depth, memo_to)
    if isinstance(old, dict | list) and type(old) is type(new):
        made = jsonpatch.make_patch(old, new).patch
        if not any(_adds_a_member(op, new) for op in made):
            return [_prefixed(op, path) for op in made]
    return [{"op": "replace", "path": path, "value": new}]


def _list_diff(old: list[Any], new: list[Any], path: str, depth: int, memo_to: int) -> _Ops:
    """Ops turning list ``old`` into ``new``: the items both keep at the start and at the end
    are skipped, the ones in between are changed in place, and what is left over of either is
    removed (from the back) or added. A window that moved on (its first items gone, as many
    added at its end) loses them from the front and gains the new ones at its end.

    Linear, unlike a longest-common-subsequence diff (``make_patch`` compares item texts with
    ``difflib``, a tenth of a millisecond even for a list of two numbers); the lists of a
    document change at one place per command (a legal command gone, a seat that acted), so
    the result is as short. A list that would take more ops than it has items (all of them
    changed), or that was or becomes empty, is replaced whole: that is shorter to send, and
    the diff stops as soon as it knows.
    """
    if not old or not new:
        return [] if old == new else [{"op": "replace", "path": path, "value": new}]
    replace = [{"op": "replace", "path": path, "value": new}]
    start, shorter = 0, min(len(old), len(new))
    while start < shorter and (old[start] is new[start] or old[start] == new[start]):
        start += 1
    old_end, new_end = len(old), len(new)
    while old_end > start and new_end > start:
        a, b = old[old_end - 1], new[new_end - 1]
        if a is not b and a != b:
            break
        old_end, new_end = old_end - 1, new_end - 1
    if start == 0 and old_end == len(old) == new_end == len(new):
        moved = _window_moved(old, new, path)
        if moved is not None:
            return moved
    both = min(old_end, new_end) - start
    limit = len(new)
    ops: _Ops = []
    for i in range(start, start + both):
        if old[i] is not new[i]:
            ops += _member_diff(old[i], new[i], f"{path}/{i}", depth - 1, memo_to)
            if len(ops) > limit:
                return replace
    for i in range(old_end - 1, start + both - 1, -1):
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(start + both, new_end):
        ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
    return replace if len(ops) > limit else ops


WINDOW_STEPS = 3  # how far a window may have moved on for ``_window_moved`` to see it


def _window_moved(old: list[Any], new: list[Any], path: str) -> _Ops | None:
    """Ops for two lists of one length where ``new`` is ``old`` without its first k items
    and with k new ones at its end (a window of recent moves), for k up to WINDOW_STEPS and
    below half the length; None otherwise."""
    for k in range(1, min(WINDOW_STEPS, (len(new) - 1) // 2) + 1):
        if (new[0] is old[k] or new[0] == old[k]) and new[: len(new) - k] == old[k:]:
            ops: _Ops = [{"op": "remove", "path": f"{path}/0"} for _ in range(k)]
            ops += [{"op": "add", "path": f"{path}/-", "value": v} for v in new[-k:]]
            return ops
    return None


_ABSENT = object()  # a member ``old`` does not have
_ESCAPED: dict[str, str] = {}  # a document's member names, as JSON Pointer tokens


def _escaped(key: str) -> str:
    """``escape(key)``, remembered: documents use a few dozen member names over and over."""
    token = _ESCAPED.get(key)
    if token is None:
        token = escape(key)
        if len(_ESCAPED) < 4096:  # seat names and the like are keys too: keep it bounded
            _ESCAPED[key] = token
    return token


def _order_kept(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """True when ``new``'s members are ``old``'s that remain, in order, then the added ones."""
    kept = [key for key in old if key in new]
    return list(new)[: len(kept)] == kept


def _adds_a_member(op: dict[str, Any], new: Any) -> bool:
    """True when ``op`` puts a new member into an object (which would land at its end)."""
    if op["op"] not in ("add", "move", "copy"):
        return False
    parent = new
    tokens = op["path"].split("/")[1:]
    for token in tokens[:-1]:
        token = token.replace("~1", "/").replace("~0", "~")
        parent = parent[int(token)] if isinstance(parent, list) else parent[token]
    return isinstance(parent, dict)


def _grew_at_end(old: list[Any], new: list[Any]) -> bool:
    return len(new) > len(old) and new[: len(old)] == old


def _prefixed(op: dict[str, Any], path: str) -> dict[str, Any]:
    op = dict(op, path=path + op["path"])
    if "from" in op:
        op["from"] = path + op["from"]
    return op


def _dumps(value: Any) -> str:
    return jsontext.dumps(value)
