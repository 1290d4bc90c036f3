"""RFC 6902 patches applied in place, for the load players.

``jsonpatch.apply_patch`` builds an operation object and parses a pointer object for every op
of every patch; at 100 tables that was about 60 % of the players' process, and a player
process at a full core measures its own queue instead of the server's latency. This walks
each op's path straight into the document. The patches come from our own server or the floor,
so it implements the operations they may send (``add``, ``remove``, ``replace``, ``move``,
``copy``, ``test``) exactly, and refuses anything else with ``PatchFailed`` rather than guess.
"""

from __future__ import annotations

import copy
from typing import Any


class PatchFailed(ValueError):
    """The patch does not apply to the document (which may be partly patched by then)."""


def _tokens(pointer: Any) -> list[str]:
    if not isinstance(pointer, str) or (pointer and not pointer.startswith("/")):
        raise PatchFailed(f"not a JSON pointer: {pointer!r}")
    if pointer == "":
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


def _index(container: list[Any], token: str, adding: bool) -> int:
    """The list position ``token`` names; ``-`` (the end) only when adding."""
    if token == "-" and adding:
        return len(container)
    if not (token.isascii() and token.isdigit()) or (token != "0" and token.startswith("0")):
        raise PatchFailed(f"not a list index: {token!r}")
    index = int(token)
    if index > len(container) or (index == len(container) and not adding):
        raise PatchFailed(f"index {index} out of range (length {len(container)})")
    return index


def _parent(doc: Any, tokens: list[str]) -> Any:
    """The container holding the value ``tokens`` points at (every step must exist)."""
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, dict):
            if token not in node:
                raise PatchFailed(f"no member {token!r}")
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, adding=False)]
        else:
            raise PatchFailed(f"cannot step into {type(node).__name__} with {token!r}")
    return node


def _slot(doc: Any, tokens: list[str], adding: bool = False) -> tuple[Any, Any]:
    """The container ``tokens`` point into and the member name or list position there; the
    value must exist, unless ``adding`` (a new member, or a list position up to its end)."""
    parent, last = _parent(doc, tokens), tokens[-1]
    if isinstance(parent, dict):
        if last not in parent and not adding:
            raise PatchFailed(f"no member {last!r}")
        return parent, last
    if isinstance(parent, list):
        return parent, _index(parent, last, adding)
    raise PatchFailed(f"cannot step into {type(parent).__name__} with {last!r}")


def _get(doc: Any, tokens: list[str]) -> Any:
    if not tokens:
        return doc
    parent, key = _slot(doc, tokens)
    return parent[key]


def _add(doc: Any, tokens: list[str], value: Any) -> Any:
    if not tokens:
        return value
    parent, key = _slot(doc, tokens, adding=True)
    if isinstance(parent, list):
        parent.insert(key, value)
    else:
        parent[key] = value
    return doc


def _remove(doc: Any, tokens: list[str]) -> Any:
    """Remove the value at ``tokens``; returns it."""
    if not tokens:
        raise PatchFailed("cannot remove the whole document")
    parent, key = _slot(doc, tokens)
    return parent.pop(key)


def _replace(doc: Any, tokens: list[str], value: Any) -> Any:
    if not tokens:
        return value
    parent, key = _slot(doc, tokens)
    parent[key] = value
    return doc


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``1 == True`` in Python, not in JSON."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def apply_in_place(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """``doc`` with ``ops`` applied, changed in place (the root itself may be replaced, so use
    the value returned). The values of ``ops`` become part of the document, not copies."""
    for op in ops:
        if not isinstance(op, dict):
            raise PatchFailed(f"not an operation: {op!r}")
        kind, path = op.get("op"), _tokens(op.get("path"))
        if kind in ("add", "replace", "test") and "value" not in op:
            raise PatchFailed(f"{kind} needs a value")
        if kind == "add":
            doc = _add(doc, path, op["value"])
        elif kind == "remove":
            _remove(doc, path)
        elif kind == "replace":
            doc = _replace(doc, path, op["value"])
        elif kind == "move":
            source = _tokens(op.get("from"))
            if path[: len(source)] == source and path != source:
                raise PatchFailed("cannot move a value into itself")
            if path != source:
                doc = _add(doc, path, _remove(doc, source))
        elif kind == "copy":
            doc = _add(doc, path, copy.deepcopy(_get(doc, _tokens(op.get("from")))))
        elif kind == "test":
            if not _equal(_get(doc, path), op["value"]):
                raise PatchFailed(f"test failed at {op.get('path')!r}")
        else:
            raise PatchFailed(f"unknown operation {kind!r}")
    return doc
