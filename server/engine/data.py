"""Component data files (``seeds/<game>.json``): one way to find, read and reject them.

A game validates its own file's contents; this module only locates it and turns an unreadable
or non-JSON file into the same ``DataError`` the game raises for a malformed entry, so that a
bad file stops the server at start-up with one kind of message naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.resources import ROOT

from .errors import RuleError
from .schema import Shape

SEEDS = ROOT / "seeds"


class DataError(ValueError):
    """A component data file is malformed; the message names the file and the bad entry."""


def data_path(game: str) -> Path:
    """Where ``game``'s component data lives: ``seeds/<game>.json``."""
    return SEEDS / f"{game}.json"


def parse_json(text: str, where: str) -> Any:
    """Decoded ``text``; DataError naming ``where`` when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where} is not valid JSON: {exc}") from None


def read_json(path: Path) -> Any:
    """The decoded file at ``path``; DataError when it cannot be read or is not JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot read the component data: {exc}") from exc
    return parse_json(text, str(path))


def read_shaped(path: Path, shape: Shape) -> Any:
    """The decoded file at ``path`` if it has ``shape`` (``server.engine.schema``); else
    DataError naming the file and the bad entry. A game checks what a shape cannot say
    (ids that repeat, counts that must agree) itself."""
    raw = read_json(path)
    try:
        shape.check(raw, path.name)
    except RuleError as exc:
        raise DataError(exc.message) from None
    return raw
