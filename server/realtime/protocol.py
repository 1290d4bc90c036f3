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
    # The table chat is sent only to connections that ask for it (older clients never see
    # its messages).
    chat: bool = False


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


class ChatPost(_Message):
    """A chat message: ``text`` (what a person typed) or ``phrase`` (a quick phrase's id),
    in ``room``; ``name`` is a spectator's. ``id`` makes a resent message one."""

    type: Literal["chat"]
    id: str = Field(min_length=1, max_length=64)
    room: Literal["players", "spectators"] = "players"
    # Longer than the limit, so that the service answers 'too_long' rather than a schema
    # error; the frame cap bounds it anyway.
    text: str | None = Field(default=None, max_length=4000)
    phrase: str | None = Field(default=None, max_length=64)
    name: str | None = Field(default=None, max_length=200)


class ChatHide(_Message):
    """The creator hides message ``seq`` for everyone."""

    type: Literal["chat_hide"]
    id: str = Field(min_length=1, max_length=64)
    seq: int = Field(ge=1)


class ChatRoom(_Message):
    """The creator opens (true) or closes (false) the spectators' room."""

    type: Literal["chat_room"]
    id: str = Field(min_length=1, max_length=64)
    spectators: bool


class ChatHistoryRequest(_Message):
    """Older messages: those before ``before`` (a message's ``seq``)."""

    type: Literal["chat_history"]
    before: int = Field(ge=1)


ClientMessage = Annotated[
    Hello
    | CommandMessage
    | Ping
    | SnapshotRequest
    | ChatPost
    | ChatHide
    | ChatRoom
    | ChatHistoryRequest,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[
    Hello
    | CommandMessage
    | Ping
    | SnapshotRequest
    | ChatPost
    | ChatHide
    | ChatRoom
    | ChatHistoryRequest
] = TypeAdapter(ClientMessage)
CLIENT_TYPES = (
    "hello",
    "command",
    "ping",
    "snapshot_request",
    "chat",
    "chat_hide",
    "chat_room",
    "chat_history",
)
CHAT_WRITES = (ChatPost, ChatHide, ChatRoom)


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


class ChatAck(_Message):
    """Chat message (hide, room change) ``id`` is committed as entry ``seq`` of the log."""

    type: Literal["chat_ack"] = "chat_ack"
    id: str
    seq: int


class ChatOlder(_Message):
    """The answer to a ``chat_history`` request: ``messages`` before ``before``, oldest
    first, and whether there are ``more``. (The ``chat_history`` sent after a hello, which
    replaces what the client holds, and the ``chat`` messages are built as text by
    ``server.chat.log``.)"""

    type: Literal["chat_history"] = "chat_history"
    before: int
    messages: list[dict[str, Any]]
    more: bool


ServerMessage = Snapshot | Patch | Ack | Error | Presence | Pong | ChatAck | ChatOlder
