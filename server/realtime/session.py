"""One websocket connection to one table: reads client messages, pushes that seat's document.

Two tasks per connection. The reader answers messages in order; the writer is the only one
that sends (``server.realtime.outbox``): everything else, the command path included, only
queues frames, so no command waits for a socket. When the table changes (fan-out) or presence
changes (hub), the writer, once the client has taken everything queued, builds the patch
between the last document queued here and the newest one: versions that came while a client
was slow coalesce into one patch. Documents are built under one lock, in the order they are
queued, so the document a patch is diffed against is always the one the client will hold.

The table chat rides on the same socket for a client that asks for it in its ``hello``: the
history first, then each new entry of the log, sent by the same writer once the chat's own
fan-out says the log grew (``server.chat``). It never touches the document or its version.

Before anything of a new version is queued, the connection checks that its token still plays
its seat in that version (``server.tables.seats``). When it does not (a bot stands in now),
the client gets ``error{code:"seat_lost"}`` and the socket is closed with code 4403; the
fan-out wakes every process's connections of the table, so this happens in all of them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
from typing import Any, NoReturn

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from server import metrics
from server.chat import ChatService, Speaker
from server.engine import RuleError
from server.settings import Settings
from server.tables import ServiceError, TableData, TableService
from server.tables import seats as seat_model

from .hub import Hub
from .outbox import SEND_FAILURES, TOO_SLOW, Outbox
from .protocol import (
    CHAT_WRITES,
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    MAX_DEPTH,
    Ack,
    ChatAck,
    ChatHide,
    ChatHistoryRequest,
    ChatOlder,
    ChatPost,
    ChatRoom,
    CommandMessage,
    Error,
    Hello,
    Ping,
    Pong,
    Presence,
    SeatPresence,
    carrying_ack,
    frame_problem,
)
from .views import Doc, build_doc, deliver, presence_ops

log = logging.getLogger(__name__)

PONG = Pong().model_dump_json()

SEAT_LOST_CLOSE = 4403


async def send_quietly(
    ws: WebSocket, text: str | None, close_code: int | None = None, reason: str = ""
) -> bool:
    """Send ``text`` (or, with ``close_code``, a close frame); False if the client has gone.

    For the paths that end a connection anyway, where a departed client is not an error.
    """
    try:
        if close_code is not None:
            await ws.close(code=close_code, reason=reason)
        elif text is not None:
            await ws.send_text(text)
    except SEND_FAILURES:
        return False
    return True


class RateLimiter:
    """Token bucket: ``rate`` messages a second, bursts up to twice that."""

    def __init__(self, rate: float) -> None:
        self.rate, self.capacity = rate, max(1.0, 2 * rate)
        self.tokens, self.at = self.capacity, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until the next message is allowed, rounded up to a hundredth (0: now)."""
        return max(0.0, math.ceil((1 - self.tokens) / self.rate * 100) / 100)


class Connection:
    """The server side of one websocket on ``/ws/tables/{table_id}``."""

    def __init__(
        self,
        ws: WebSocket,
        table_id: str,
        service: TableService,
        hub: Hub,
        settings: Settings,
        chat: ChatService | None = None,
    ) -> None:
        self.ws, self.table_id, self.service, self.hub = ws, table_id, service, hub
        self.settings = settings
        self.seat: int | None = None
        self._token_hash: str | None = None  # of the token that plays ``seat``
        self.greeted = False
        self._doc: Doc | None = None  # the document the client holds once the queue is sent
        self._version = 0
        self._connected: frozenset[int] | None = None  # presence in ``_doc``
        self._wanted_version = 0
        self._presence_dirty = False
        self._outbox = Outbox(ws, settings.send_timeout)
        self._doc_lock = asyncio.Lock()  # one document built (and queued) at a time
        self._limiter = RateLimiter(settings.rate_limit)
        self.client = "unknown"
        self._close_reason = "client left"
        # The chat (for a client that asked for it): who this connection chats as, whether
        # it reads the players' room, and the newest log entry it holds and has heard of.
        self.chat = chat
        self._chat_on = False
        self._speaker: Speaker | None = None
        self._table_public = False
        self._chat_seq = 0
        self._chat_wanted = 0
        self._spectator_key = "s:" + secrets.token_hex(8)  # a spectator's messages' author

    # ------------------------------------------------------------ lifecycle

    async def run(self) -> None:
        """Serve the connection until the client goes away or is dropped."""
        metrics.connection_opened()
        log.info("connection opened", extra=self._fields())
        loop = asyncio.get_running_loop()
        reader = loop.create_task(self._read_forever())
        writer = loop.create_task(self._write_forever())
        try:
            await asyncio.wait((reader, writer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            try:
                await self._close(reader, writer)
            finally:  # even when cancelled (the server is shutting down)
                metrics.connection_closed()
                log.info("connection closed", extra=self._fields(reason=self._close_reason))
        for task in (reader, writer):
            failure = None if task.cancelled() else task.exception()
            if failure is not None:
                raise failure  # a bug of ours: let uvicorn log it

    def _fields(self, **more: Any) -> dict[str, Any]:
        """Log context for this connection (never the seat token)."""
        return {"table_id": self.table_id, "seat": self.seat, "client": self.client, **more}

    async def _read_forever(self) -> None:
        try:
            while True:
                await self._outbox.room()
                text = await self._receive()
                if text is None:
                    return
                await self._handle_frame(text)
        except WebSocketDisconnect:
            return

    async def _receive(self) -> str | None:
        """The next frame as text; None when the client has gone."""
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("text") is not None:
            return str(message["text"])
        return bytes(message.get("bytes") or b"").decode("utf-8", errors="replace")

    async def _close(self, reader: asyncio.Task[None], writer: asyncio.Task[None]) -> None:
        if self.greeted:
            self.service.fanout.unsubscribe(self.table_id, self._on_table_change)
            if self._chat_on and self.chat is not None:
                self.chat.fanout.unsubscribe(self.table_id, self._on_chat_change)
                self.chat.unfollow(self.table_id)
            self.hub.unwatch(self.table_id, self._on_presence_change)
            self.hub.seat_changed(self.table_id, self.seat, None)
            if self.seat is not None:
                self.service.note_seen(self.table_id, self.seat)
        if self._outbox.closing and not writer.done():
            # An error and a close frame are queued (the seat was lost): let them go out.
            await asyncio.wait((writer,), timeout=self.settings.send_timeout + 1)
        if self._outbox.dropped is not None:
            self._close_reason = "too slow"
        for task in (reader, writer):
            task.cancel()
        await asyncio.wait((reader, writer))

    # ------------------------------------------------------------ incoming

    async def _handle_frame(self, text: str) -> None:
        if len(text.encode()) > self.settings.max_message_bytes:
            cap = self.settings.max_message_bytes
            return self._error("message_too_large", f"frames are capped at {cap} bytes")
        if not self._limiter.allow():
            limit, wait = self.settings.rate_limit, self._limiter.wait()
            return self._error(
                "rate_limited",
                f"at most {limit:g} messages a second; try again in {wait:.2f} s",
            )
        try:
            raw = json.loads(text)
        except RecursionError:
            return self._error("too_deep", f"messages nest at most {MAX_DEPTH} levels deep")
        except ValueError:
            return self._error("bad_json", "the frame is not valid JSON")
        if not isinstance(raw, dict):
            return self._error("bad_json", "a message is a JSON object with a 'type'")
        problem = frame_problem(raw)
        if problem is not None:
            return self._error(*problem)
        if raw.get("type") not in CLIENT_TYPES:
            known = ", ".join(CLIENT_TYPES)
            return self._error(
                "unknown_message", f"unknown message type {raw.get('type')!r} (known: {known})"
            )
        try:
            message = CLIENT_MESSAGE.validate_python(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"][1:])
            reply_id = raw.get("id") if isinstance(raw.get("id"), str) else None
            return self._error("bad_message", f"{where}: {first['msg']}", reply_id)
        await self._dispatch(message)

    async def _dispatch(self, message: Any) -> None:
        if isinstance(message, Ping):
            return self._outbox.put(PONG)
        if isinstance(message, Hello):
            return await self._hello(message)
        if not self.greeted:
            reply_id = getattr(message, "id", None)  # a command's or a chat message's
            return self._error("hello_required", "send hello first", reply_id)
        if isinstance(message, CommandMessage):
            return await self._command(message)
        if isinstance(message, CHAT_WRITES):
            return await self._chat_write(message)
        if isinstance(message, ChatHistoryRequest):
            return await self._chat_older(message)
        await self._push(snapshot=True)

    async def _hello(self, hello: Hello) -> None:
        seat: int | None = None
        token_hash: str | None = None
        speaker = Speaker(None, self._spectator_key, "a:" + self.client)
        if hello.token:
            try:
                data = await self.service.get_stored(self.table_id)
                access = seat_model.known_access(data, self.settings.secret_key, hello.token)
            except ServiceError as exc:
                return self._error(exc.code, exc.message)
            owner = self.service.token_hash(hello.token)
            try:
                # The seat model's "WS hello": a token reads its seat only while it plays it.
                seat_model.check_right(seat_model.Right.PLAYER, data, access, None)
            except ServiceError as exc:
                self._error(exc.code, exc.message)
                if not (hello.chat and exc.code == "seat_lost"):
                    return
                # Chatting is not playing: a client that asked for the chat follows the
                # table as a spectator and chats as the seat's owner.
                speaker = Speaker(access.seat, owner, owner)
            else:
                seat, token_hash = access.seat, owner
                speaker = Speaker(seat, owner, owner)
        first = not self.greeted
        old, self.seat, self._token_hash = self.seat, seat, token_hash
        if first:
            self.greeted = True
            self.service.fanout.subscribe(self.table_id, self._on_table_change)
        # Our own arrival changes presence for the others, not for us: we get it right below.
        self.hub.unwatch(self.table_id, self._on_presence_change)
        self.hub.seat_changed(self.table_id, None if first else old, seat)
        self.hub.watch(self.table_id, self._on_presence_change)
        self._outbox.put(await self._presence_message())
        # ``since`` only means something for a fresh connection (a reconnect).
        await self._push(snapshot=True, since=hello.since if first else None)
        if seat is not None:
            self.service.note_seen(self.table_id, seat)
        if hello.chat and self.chat is not None:
            await self._chat_hello(speaker)

    async def _command(self, message: CommandMessage) -> None:
        # The seat model's "WS command": a token that plays its seat, which the hello
        # checked and ``seats.check_plays`` checks again on the version the command is
        # decided on.
        if self.seat is None:
            return self._error("spectator", "spectators cannot play; use a seat link", message.id)
        if message.seat is not None and message.seat != self.seat:
            text = f"you hold seat {self.seat}, not seat {message.seat}"
            return self._error("wrong_seat", text, message.id)
        started = time.perf_counter()
        fields = self._fields(command_id=message.id, command=message.cmd.get("type"))
        try:
            version = await self.service.submit(
                self.table_id, self.seat, message.cmd, message.id, by=self._token_hash
            )
        except (ServiceError, RuleError) as exc:
            log.info("command rejected", extra={**fields, "code": exc.code})
            if exc.code == "seat_lost":
                async with self._doc_lock:
                    self._lose_seat(exc.message, message.id)
            return self._error(exc.code, exc.message, message.id, exc.clause)
        except Exception:
            # An engine that fails on odd input is a bug, but one player's odd command must
            # not end their connection; nothing was committed.
            log.exception(
                "command failed: %r", message.cmd, extra={**fields, "code": "internal_error"}
            )
            return self._error("internal_error", "the server could not apply that", message.id)
        latency_ms = round((time.perf_counter() - started) * 1000, 2)
        log.info("command accepted", extra={**fields, "version": version, "latency_ms": latency_ms})
        # The document message that brings this client to the command's version carries the
        # ack, so an ack never outruns its patch; alone only when the client already held it.
        if not await self._push(ack=message.id):
            self._outbox.put(Ack(id=message.id, version=version).model_dump_json())

    # ------------------------------------------------------------ the chat

    async def _chat_hello(self, speaker: Speaker) -> None:
        """Start (or, with a new identity, restart) the chat: its history, then its news."""
        assert self.chat is not None
        if not self._chat_on:
            self._chat_on = True
            self.chat.fanout.subscribe(self.table_id, self._on_chat_change)
            self.chat.follow(self.table_id)
        self._speaker = speaker
        self._table_public = (await self.service.get(self.table_id)).public
        log = await self.chat.log(self.table_id)
        self._chat_seq = log.newest
        self._outbox.put(log.history(speaker.seated, self._table_public))

    async def _chat_write(self, message: ChatPost | ChatHide | ChatRoom) -> None:
        """A message, a hide or a room change: acknowledged once committed; every reader,
        this one too, gets it through the chat's fan-out."""
        chat, speaker = self.chat, self._speaker
        if chat is None or speaker is None:
            return self._error("chat_off", "say hello with chat: true first", message.id)
        try:
            if isinstance(message, ChatPost):
                seq = await chat.post(
                    self.table_id,
                    speaker,
                    message.room,
                    message.id,
                    text=message.text,
                    phrase=message.phrase,
                    name=message.name,
                )
            elif isinstance(message, ChatHide):
                seq = await chat.hide(self.table_id, speaker, message.seq, message.id)
            else:
                seq = await chat.set_room(self.table_id, speaker, message.spectators, message.id)
        except ServiceError as exc:
            log.info("chat refused", extra=self._fields(code=exc.code))
            return self._error(exc.code, exc.message, message.id)
        self._outbox.put(ChatAck(id=message.id, seq=seq).model_dump_json())

    async def _chat_older(self, message: ChatHistoryRequest) -> None:
        if self.chat is None or self._speaker is None:
            return self._error("chat_off", "say hello with chat: true first")
        messages, more = await self.chat.older(
            self.table_id, message.before, self._speaker.seated, self._table_public
        )
        reply = ChatOlder(before=message.before, messages=messages, more=more)
        self._outbox.put(reply.model_dump_json())

    def _on_chat_change(self, _table_id: str, seq: int) -> None:
        self._chat_wanted = max(self._chat_wanted, seq)
        self._outbox.wake.set()

    async def _push_chat(self) -> None:
        """Queue what the chat's log gained since this client's last entry, if any of it is
        for this reader (the whole history again if this process no longer holds it)."""
        assert self.chat is not None and self._speaker is not None
        log = await self.chat.log(self.table_id, self._chat_wanted)
        seated, public = self._speaker.seated, self._table_public
        try:
            text = log.since(self._chat_seq, seated, public)
        except LookupError:
            text = log.history(seated, public)
        self._chat_seq = log.newest
        if text is not None:
            self._outbox.put(text)

    # ------------------------------------------------------------ outgoing

    def _on_table_change(self, _table_id: str, version: int) -> None:
        self._wanted_version = max(self._wanted_version, version)
        self._outbox.wake.set()

    def _on_presence_change(self) -> None:
        self._presence_dirty = True
        self._outbox.wake.set()

    async def _write_forever(self) -> None:
        """The connection's only sender: what is queued, in order, then (the client having
        taken all of it) the newest document if the table or presence moved on meanwhile."""
        outbox = self._outbox
        while True:
            await outbox.wake.wait()
            outbox.wake.clear()
            if not await outbox.flush():
                break
            try:
                await self._catch_up()
            except WebSocketDisconnect:
                pass  # the seat was lost: its error and close frame are queued
            except Exception:
                # Never go quiet while the socket stays open: close it, and the client
                # reconnects with ``since`` and gets what it missed.
                log.warning("push failed; closing", extra=self._fields(), exc_info=True)
                self._close_reason = "push failed"
                outbox.close(1011)
            if not await outbox.flush():
                break
        if outbox.dropped is not None:
            log.warning(
                "client too slow; dropped",
                extra=self._fields(code=TOO_SLOW, reason=outbox.dropped),
            )

    async def _catch_up(self) -> None:
        if not self.greeted or self._outbox.closing:
            return
        if self._presence_dirty:
            self._presence_dirty = False
            self._outbox.put(await self._presence_message())
            await self._push()
        elif self._wanted_version > self._version:
            await self._push()
        if self._chat_on and self._chat_wanted > self._chat_seq and not self._outbox.closing:
            await self._push_chat()

    async def _push(
        self, snapshot: bool = False, since: int | None = None, ack: str | None = None
    ) -> bool:
        """Queue what the client needs to hold the newest document (nothing if it has it);
        True if a message was queued, carrying ``ack`` when one is given."""
        async with self._doc_lock:
            data = await self.service.get(self.table_id, max(self._wanted_version, self._version))
            if not self._still_plays(data):
                self._lose_seat(f"seat {self.seat} is played by a bot now")
            connected = self.hub.connected(self.table_id)
            if (
                not snapshot
                and since is None
                and data.version == self._version
                and connected == self._connected
            ):
                return False  # the client holds this very document: the patch would be empty
            last, base, extra = self._doc, self._version, None
            if since is not None:
                last, base, extra = self._since_base(since, connected)
            elif snapshot:
                last, base = None, 0
            delivery = deliver(data, self.seat, connected, last, base, extra)
            if delivery.ops == [] and base == data.version:
                return False
            self._doc, self._version, self._connected = delivery.doc, data.version, connected
            text = delivery.text if ack is None else carrying_ack(delivery.text, ack)
            self._outbox.put(text)
            return True

    def _still_plays(self, data: TableData) -> bool:
        if self.seat is None or self._token_hash is None:
            return True  # a spectator reads only what everyone may
        return seat_model.plays(data, self.seat, self._token_hash)

    def _lose_seat(self, message: str, reply_id: str | None = None) -> NoReturn:
        """Tell the client its token no longer plays the seat, close, and end this connection
        (raises WebSocketDisconnect). Called holding the document lock, before anything of
        the version that took the seat away is queued."""
        metrics.record_error("seat_lost")
        log.info("seat lost; closing", extra=self._fields(code="seat_lost"))
        self._close_reason = "seat lost"
        self._outbox.put(Error(id=reply_id, code="seat_lost", message=message).to_json())
        self._outbox.close(SEAT_LOST_CLOSE, "seat_lost")
        # From here on this connection is nobody's: no command, no document.
        self.hub.seat_changed(self.table_id, self.seat, None)
        if self.seat is not None:
            self.service.note_seen(self.table_id, self.seat)
        self.seat, self._token_hash = None, None
        self._doc = None
        raise WebSocketDisconnect(code=SEAT_LOST_CLOSE, reason="seat_lost")

    def _since_base(
        self, since: int, connected: frozenset[int]
    ) -> tuple[Doc | None, int, list[dict[str, Any]] | None]:
        """The document the client says it holds (rebuilt from memory), or None for a snapshot."""
        old = self.service.at_version(self.table_id, since)
        if old is None:
            return None, 0, None
        # Presence at ``since`` is not kept: set every flag explicitly instead.
        return build_doc(old, self.seat, connected), since, presence_ops(len(old.seats), connected)

    async def _presence_message(self) -> str:
        connected = self.hub.connected(self.table_id)
        data = await self.service.get(self.table_id)
        seats = [SeatPresence(seat=s.seat, connected=s.seat in connected) for s in data.seats]
        return Presence(seats=seats).model_dump_json()

    def _error(
        self, code: str, message: str, reply_id: str | None = None, clause: str | None = None
    ) -> None:
        metrics.record_error(code)
        self._outbox.put(Error(id=reply_id, code=code, message=message, clause=clause).to_json())
