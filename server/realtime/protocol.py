"""The websocket messages, as pydantic models (documented in ``docs/protocol.md``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from server import jsontext


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore")


# ------------------------------------------------------------------ client → server


class Hello(_Message):
    """Who this connection is (no token: a spectator) and the version it still holds."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)
    since: int | None = Field(default=None, ge=0)


class CommandMessage(_Message):
    """A game command for the connection's seat; ``id`` makes retries idempotent."""

    type: Literal["command"]
    id: str = Field(min_length=1, max_length=64)
    cmd: dict[str, Any]
    seat: int | None = None


class Ping(_Message):
    type: Literal["ping"]


class SnapshotRequest(_Message):
    type: Literal["snapshot_request"]


ClientMessage = Annotated[
    Hello | CommandMessage | Ping | SnapshotRequest, Field(discriminator="type")
]
CLIENT_MESSAGE: TypeAdapter[Hello | CommandMessage | Ping | SnapshotRequest] = TypeAdapter(
    ClientMessage
)
CLIENT_TYPES = ("hello", "command", "ping", "snapshot_request")


MAX_DEPTH = 32  # no message of the protocol nests deeper than a handful of levels
FORBIDDEN_CHARS = frozenset(chr(c) for c in (*range(0xD800, 0xE000), 0))


def frame_problem(raw: Any) -> tuple[str, str] | None:
    """Why a parsed frame is refused before it is read as a message, or None.

    ``('too_deep', …)`` for nesting beyond MAX_DEPTH (nothing the protocol sends is that deep,
    and deeper values would cost recursion everywhere they go), ``('bad_text', …)`` for a
    string (key or value) holding a lone UTF-16 surrogate (it cannot be encoded as UTF-8, so
    it could be neither answered, hashed nor stored) or a NUL character (Postgres refuses it
    in text). Walks the value without recursion.
    """
    pending: list[tuple[Any, int]] = [(raw, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            return "too_deep", f"messages nest at most {MAX_DEPTH} levels deep"
        if isinstance(value, str):
            if not FORBIDDEN_CHARS.isdisjoint(value):
                return "bad_text", "text may not hold NUL characters or lone UTF-16 surrogates"
        elif isinstance(value, dict):
            pending.extend((key, depth) for key in value)
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)
    return None


# ------------------------------------------------------------------ server → client


class Snapshot(_Message):
    """The connection's whole document at ``version``; ``ack`` as on a patch."""

    type: Literal["snapshot"] = "snapshot"
    version: int
    doc: dict[str, Any]
    ack: str | None = None


class Patch(_Message):
    """RFC 6902 ``ops`` turning the document at ``base`` into the document at ``version``.

    ``ack``: the id of this connection's command that the new document includes, committed
    (the mover's document message acknowledges its command, one frame fewer per move).
    """

    type: Literal["patch"] = "patch"
    version: int
    base: int
    ops: list[dict[str, Any]]
    ack: str | None = None


def carrying_ack(message: str, command_id: str) -> str:
    """A snapshot's or patch's JSON text (an object: it ends with ``}``) with ``ack`` added.

    Text, not a model: the message is encoded once per connection already, and ``command_id``
    passed the frame checks (no lone surrogate, no NUL), so it always encodes.
    """
    return f'{message[:-1]},"ack":{jsontext.dumps(command_id)}}}'


class Ack(_Message):
    """Command ``id`` is committed; the table is at ``version``. Sent alone only when the
    connection already held the document that includes the command (or for a repeated id)."""

    type: Literal["ack"] = "ack"
    id: str
    version: int


class Error(_Message):
    """A refused message; ``id`` echoes the command id when there is one. ``clause`` is
    the rule a refused game command broke (``docs/rules/``), sent only with such a refusal."""

    type: Literal["error"] = "error"
    id: str | None = None
    code: str
    message: str
    clause: str | None = None

    def to_json(self) -> str:
        """The message as sent: without ``clause`` when it names none (as before it existed)."""
        return self.model_dump_json(exclude={"clause"} if self.clause is None else None)


class SeatPresence(_Message):
    seat: int
    connected: bool


class Presence(_Message):
    """Which seats have at least one open connection."""

    type: Literal["presence"] = "presence"
    seats: list[SeatPresence]


class Pong(_Message):
    type: Literal["pong"] = "pong"


ServerMessage = Snapshot | Patch | Ack | Error | Presence | Pong
