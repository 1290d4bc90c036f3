"""Each connection's document, and the JSON Patch between two of them.

The CPU time spent here (building documents and diffing them) is counted in ``STATS`` so
``make bench`` and ``/metrics`` can report it per delivered message.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import jsonpatch
from jsonpointer import escape

from server.engine import get_game, is_visible, log_entry
from server.tables.data import TableData

Doc = dict[str, Any]


@dataclass
class ViewStats:
    """CPU seconds spent building documents and patches, and the messages they made."""

    cpu_seconds: float = 0.0
    snapshots: int = 0
    patches: int = 0
    bytes_sent: int = 0

    @property
    def messages(self) -> int:
        return self.snapshots + self.patches

    def reset(self) -> None:
        self.cpu_seconds, self.snapshots, self.patches, self.bytes_sent = 0.0, 0, 0, 0


STATS = ViewStats()


def build_doc(data: TableData, seat: int | None, connected: frozenset[int]) -> Doc:
    """The document ``seat`` (None: spectator) may hold for ``data``; see docs/protocol.md."""
    game = get_game(data.game)
    return {
        "table": {
            "id": data.id,
            "game": data.game,
            "title": data.title,
            "status": data.status,
            "version": data.version,
            "seed_sha256": data.seed_sha256,
            "options": data.options,
            "seats": [
                {"seat": s.seat, "name": s.name, "bot": s.bot, "connected": s.seat in connected}
                for s in data.seats
            ],
        },
        "you": {"seat": seat},
        "game": None if data.state is None else game.view(data.state, seat),
        "log": [log_entry(e) for e in data.log if is_visible(e, seat)],
    }


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
    started = time.thread_time()
    try:
        doc = build_doc(data, seat, connected)
        doc_text = _dumps(doc)
        snapshot_text = f'{{"type":"snapshot","version":{data.version},"doc":{doc_text}}}'
        if last is not None:
            ops = diff(last, doc) + (extra_ops or [])
            patch = {"type": "patch", "version": data.version, "base": base, "ops": ops}
            patch_text = _dumps(patch)
            if len(patch_text) <= len(snapshot_text):
                STATS.patches += 1
                STATS.bytes_sent += len(patch_text)
                return Delivery(doc, patch_text, ops)
        STATS.snapshots += 1
        STATS.bytes_sent += len(snapshot_text)
        return Delivery(doc, snapshot_text, None)
    finally:
        STATS.cpu_seconds += time.thread_time() - started


def diff(old: Any, new: Any, path: str = "", depth: int = 6) -> list[dict[str, Any]]:
    """RFC 6902 ops turning ``old`` into ``new``.

    ``jsonpatch.make_patch`` makes the ops; this only walks the top ``depth`` levels of
    objects and same-length lists first, so that equal parts are skipped with one fast
    comparison, and turns a list that only grew at its end (the log) into ``add …/-`` ops.
    That cuts the CPU per message several times over on a Norenberc document.
    """
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict) and depth > 0:
        ops: list[dict[str, Any]] = []
        for key in old.keys() - new.keys():
            ops.append({"op": "remove", "path": f"{path}/{escape(key)}"})
        for key, value in new.items():
            where = f"{path}/{escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": where, "value": value})
            else:
                ops += diff(old[key], value, where, depth - 1)
        return ops
    if isinstance(old, list) and isinstance(new, list) and depth > 0:
        if len(old) == len(new):
            return [
                op
                for i, (a, b) in enumerate(zip(old, new, strict=True))
                for op in diff(a, b, f"{path}/{i}", depth - 1)
            ]
        if _grew_at_end(old, new):
            return [{"op": "add", "path": f"{path}/-", "value": item} for item in new[len(old) :]]
    if isinstance(old, (dict, list)) and type(old) is type(new):
        return [_prefixed(op, path) for op in jsonpatch.make_patch(old, new).patch]
    return [{"op": "replace", "path": path, "value": new}]


def _grew_at_end(old: list[Any], new: list[Any]) -> bool:
    return len(new) > len(old) and new[: len(old)] == old


def _prefixed(op: dict[str, Any], path: str) -> dict[str, Any]:
    op = dict(op, path=path + op["path"])
    if "from" in op:
        op["from"] = path + op["from"]
    return op


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
