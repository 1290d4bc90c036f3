"""Plain values the service hands out: a table as of one version, and its errors."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass, field
from typing import Any

from server.engine import Event, State

STATUSES = ("open", "playing", "finished")
# Table ids are ``secrets.token_urlsafe(6)``; anything else names no table and never reaches
# the database (Postgres would refuse a NUL in text; a long id would only cost a query).
TABLE_ID_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
MAX_TABLE_ID = 32
# Seat log entries a table's document carries: the newest ones. However many table acts a
# seat makes, what every seat downloads stays bounded; the whole log stays in the database
# and in the finished game's record.
SEAT_LOG_SHOWN = 50


class ServiceError(Exception):
    """A refused request, with a stable ``code``; a refused game command may name the
    ``clause`` of the rules it met (``docs/rules/``). The HTTP edge maps the code to a status
    (``server.api.errors``): nothing below it speaks HTTP.

    ``retry_after``: seconds after which the same request may succeed (a rate limit's
    refusal); HTTP answers carry it as ``Retry-After`` and in the body.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        retry_after: int | None = None,
        clause: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.clause = clause

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"


def unknown_table(table_id: str) -> ServiceError:
    shown = table_id if len(table_id) <= MAX_TABLE_ID else table_id[:MAX_TABLE_ID] + "…"
    return ServiceError("unknown_table", f"there is no table {shown!r}")


def is_table_id(text: str) -> bool:
    """Could ``text`` be a table id (1-32 of ``A-Z a-z 0-9 - _``)?"""
    return 0 < len(text) <= MAX_TABLE_ID and TABLE_ID_CHARS.issuperset(text)


def check_table_id(table_id: str) -> None:
    """ServiceError('unknown_table', 404) for a string that cannot be a table id."""
    if not is_table_id(table_id):
        raise unknown_table(table_id)


@dataclass(frozen=True)
class SeatInfo:
    """One seat as everyone may see it, plus the token hash the service checks against."""

    seat: int
    name: str | None
    bot: str | None
    token_hash: str | None = field(default=None, repr=False)

    @property
    def is_taken(self) -> bool:
        return self.token_hash is not None or self.bot is not None

    @property
    def stand_in(self) -> bool:
        """A bot plays the seat of a person who may take it back (see ``seats``)."""
        return self.token_hash is not None and self.bot is not None


@dataclass(frozen=True)
class TableData:
    """A table as of ``version``. Never mutated: a change makes a new one.

    ``log`` holds every event of the game in order (with its ``to``); views filter it.
    ``seat_log`` holds the seat changes during the game (a bot standing in, a player taking
    the seat back), each with ``at``: the length of ``log`` when it happened.
    """

    id: str
    game: str
    title: str
    options: dict[str, Any]
    seed: str = field(repr=False)
    seed_sha256: str
    status: str
    version: int
    seats: tuple[SeatInfo, ...]
    state: State | None = field(default=None, repr=False)
    log: tuple[Event, ...] = field(default=(), repr=False)
    seq: int = 0
    result: dict[str, Any] | None = None
    public: bool = False
    seat_log: tuple[dict[str, Any], ...] = ()
    # The turn clock (``server.clocks.model``; None: untimed, a table older than clocks) and
    # the first moment it wants something done.
    clock: dict[str, Any] | None = field(default=None, repr=False)
    due_at: float | None = None
    # The table of this finished game's rematch, once someone asked for one.
    rematch: str | None = None
    # The keyed hash of the address the table was created from (``limits.address_key``;
    # None: a rematch, or made by the server's tools): what per-address shares charge.
    creator_key: str | None = field(default=None, repr=False)
    # A learning table: each seat may ask what the strong bot would do (``server.tables.
    # suggest``). Chosen at creation, shown to everyone, said in the finished game's record.
    learning: bool = False
    # The events of the game's opening, the first of ``log`` (``server.engine.opening``), as
    # stored at the deal; None before it, or for a table dealt before openings were stored.
    opening: tuple[Event, ...] | None = field(default=None, repr=False)

    @property
    def shown_seat_log(self) -> tuple[dict[str, Any], ...]:
        """The newest ``SEAT_LOG_SHOWN`` entries of ``seat_log``: what documents carry."""
        return self.seat_log[-SEAT_LOG_SHOWN:]

    def seat_kinds(self) -> dict[int, str]:
        """Bot seats and their kinds."""
        return {s.seat: s.bot for s in self.seats if s.bot is not None}


# Where the learning option is kept: in the table row's ``options`` JSON beside the game's own
# options (no schema change), and taken out again on reading, so that ``TableData.options``
# stays what the game takes (``Game.new`` refuses an option it does not know).
LEARNING_KEY = "learning"


def stored_options(options: dict[str, Any], learning: bool) -> dict[str, Any]:
    """What the row's ``options`` column holds: the game's options, with the learning flag
    only when it is on (a table from before the option reads the same)."""
    return {**options, LEARNING_KEY: True} if learning else dict(options)


def split_options(stored: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The game's options and the learning flag from the row's ``options`` column."""
    options = dict(stored)
    return options, bool(options.pop(LEARNING_KEY, False))


def new_token() -> str:
    """An unguessable seat token (192 bits)."""
    return secrets.token_urlsafe(24)


def hash_token(secret_key: str, token: str) -> str:
    """HMAC-SHA256 of ``token`` under the server key, hex; only this is stored."""
    return hmac.new(secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


def seed_hash(seed: str) -> str:
    """SHA-256 hex of the seed: published at creation, checked by ``guildhall verify``."""
    return hashlib.sha256(seed.encode()).hexdigest()
