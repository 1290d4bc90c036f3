"""Exact command shapes: every game checks a command against its schema before its rules look.

A command is stored as it arrived and replayed from the store, so it must be *exactly* one of
the values the game lists in ``legal``: ``9.0`` and ``True`` compare equal to ``9`` and ``1``
in Python and would pass a rules check, then break every view built from the state they
produced. The shapes here accept only JSON of the declared type (an integer is an ``int``,
never a ``float`` or a ``bool``), with bounded sizes and no unknown keys, and raise
``RuleError('bad_command')`` naming where the command is wrong.

Each game declares its table once (``server/games/<game>/commands.py``)::

    COMMANDS = CommandSchema({
        "sell": Fields({"count": Int(0, 99)}, optional={"total": Int(0, 9999)}),
        "pass": Fields(),
    })
    COMMANDS.check({"type": "sell", "count": 2})    # fine
    COMMANDS.check({"type": "sell", "count": 2.0})  # RuleError('bad_command', 'sell.count: …')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import RuleError

QUOTE_CHARS = 60  # a refused value is quoted up to this many characters


class Shape(Protocol):
    """One JSON value's allowed form."""

    def check(self, value: Any, where: str) -> None:
        """Raise RuleError('bad_command') unless ``value`` has this shape."""
        ...


def quote(value: Any) -> str:
    """``repr(value)`` cut short, for error messages (the value may be a whole frame)."""
    text = repr(value)
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def _bad(where: str, wanted: str, value: Any) -> RuleError:
    return RuleError("bad_command", f"{where} must be {wanted}, got {quote(value)}")


def is_int(value: Any) -> bool:
    """True for a JSON integer: an ``int`` that is not a ``bool``."""
    return type(value) is int


@dataclass(frozen=True)
class Int:
    """An integer in ``lo .. hi`` (both included)."""

    lo: int
    hi: int

    def check(self, value: Any, where: str) -> None:
        if not is_int(value) or not self.lo <= value <= self.hi:
            raise _bad(where, f"an integer from {self.lo} to {self.hi}", value)


@dataclass(frozen=True)
class Bool:
    """``true`` or ``false``."""

    def check(self, value: Any, where: str) -> None:
        if type(value) is not bool:
            raise _bad(where, "true or false", value)


@dataclass(frozen=True)
class Str:
    """A string of at most ``max_len`` characters, one of ``choices`` when given."""

    max_len: int
    choices: tuple[str, ...] | None = None

    def check(self, value: Any, where: str) -> None:
        if type(value) is not str or not 0 < len(value) <= self.max_len:
            raise _bad(where, f"a string of 1 to {self.max_len} characters", value)
        if self.choices is not None and value not in self.choices:
            raise _bad(where, f"one of {', '.join(self.choices)}", value)


@dataclass(frozen=True)
class ListOf:
    """A list of ``min_len .. max_len`` values, each of shape ``item``."""

    item: Shape
    max_len: int
    min_len: int = 0

    def check(self, value: Any, where: str) -> None:
        if type(value) is not list or not self.min_len <= len(value) <= self.max_len:
            raise _bad(where, f"a list of {self.min_len} to {self.max_len} values", value)
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")


@dataclass(frozen=True)
class Pair:
    """A list of exactly two values (``[row, col]``)."""

    first: Shape
    second: Shape

    def check(self, value: Any, where: str) -> None:
        if type(value) is not list or len(value) != 2:
            raise _bad(where, "a list of two values", value)
        self.first.check(value[0], f"{where}[0]")
        self.second.check(value[1], f"{where}[1]")


@dataclass(frozen=True)
class MapOf:
    """An object of at most ``max_len`` entries, keys of shape ``keys``, values ``values``."""

    keys: Str
    values: Shape
    max_len: int

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict or len(value) > self.max_len:
            raise _bad(where, f"an object of at most {self.max_len} entries", value)
        for key, item in value.items():
            self.keys.check(key, f"{where} key")
            self.values.check(item, f"{where}.{key}")


@dataclass(frozen=True)
class Record:
    """An object of exactly the keys of ``fields``, each of its shape (a data file's entry)."""

    fields: Mapping[str, Shape]

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict or set(value) != set(self.fields):
            raise _bad(where, f"an object of exactly {', '.join(self.fields)}", value)
        for key, shape in self.fields.items():
            shape.check(value[key], f"{where}.{key}")


@dataclass(frozen=True)
class Fields:
    """The keys of one command besides ``type``: all ``required`` ones, any ``optional`` ones
    (informational fields a client may leave out), nothing else."""

    required: Mapping[str, Shape] = field(default_factory=dict)
    optional: Mapping[str, Shape] = field(default_factory=dict)

    def check(self, cmd: Mapping[str, Any], kind: str) -> None:
        unknown = sorted(str(k) for k in cmd if k != "type" and k not in self.keys)
        if unknown:
            raise RuleError("bad_command", f"{kind} takes no {quote(', '.join(unknown))}")
        for key, shape in self.required.items():
            if key not in cmd:
                raise RuleError("bad_command", f"{kind} needs {key}")
            shape.check(cmd[key], f"{kind}.{key}")
        for key, shape in self.optional.items():
            if key in cmd:
                shape.check(cmd[key], f"{kind}.{key}")

    @property
    def keys(self) -> set[str]:
        return {*self.required, *self.optional}


class CommandSchema:
    """A game's command table: each ``type`` and the :class:`Fields` it takes."""

    def __init__(self, commands: Mapping[str, Fields]) -> None:
        self.commands = dict(commands)

    @property
    def types(self) -> list[str]:
        return list(self.commands)

    def check(self, cmd: Any) -> None:
        """Raise RuleError('bad_command') unless ``cmd`` is exactly a command of this table."""
        if type(cmd) is not dict or type(cmd.get("type")) is not str:
            raise RuleError(
                "bad_command", f"a command is an object with a string type, got {quote(cmd)}"
            )
        fields = self.commands.get(cmd["type"])
        if fields is None:
            known = ", ".join(self.commands)
            raise RuleError("bad_command", f"unknown command {quote(cmd['type'])} (known: {known})")
        fields.check(cmd, cmd["type"])
