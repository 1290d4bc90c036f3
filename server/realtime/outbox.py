"""A connection's outgoing frames: a bounded queue that one writer task empties, in order.

Whoever has something for the client (the command path's patch and ack, an error, a pong, the
pusher's document) only ``put``s it here, which never waits; the connection's writer sends the
frames one by one (``flush``). So a client that does not read slows down nobody but itself:
not the command that made the change, not the table's other connections.

A client that falls too far behind is dropped (``TOO_SLOW_CLOSE``): when ``CAPACITY`` frames
are waiting, or when one frame has not been taken by the transport within the send timeout
(``GUILDHALL_SEND_TIMEOUT``). It reconnects with ``since`` and is brought up to date as after
any reconnect (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

log = logging.getLogger(__name__)

# What a send raises once the client has gone: starlette's WebSocketDisconnect, its
# WebSocketDisconnected (a RuntimeError) after a close was already sent, or the transport's
# OSError when the peer vanished.
SEND_FAILURES = (WebSocketDisconnect, WebSocketDisconnected, OSError)

# Frames one connection may have waiting. A client that reads holds a handful at most (a
# command's patch and ack, a presence change and its patch): the writer takes them as fast
# as the transport accepts them, the pusher builds the next document only once the queue is
# empty (new versions coalesce into one patch instead of queueing), and the connection's
# reader, whose replies are the rest, waits for ``room`` before reading on.
CAPACITY = 64
TOO_SLOW_CLOSE = 4408
TOO_SLOW = "too_slow"
# How long a dropped client gets to take its close frame before the socket is cut.
CLOSE_GRACE = 1.0


@dataclass(frozen=True)
class Close:
    """A close frame: the last thing the writer sends."""

    code: int
    reason: str = ""


class Outbox:
    """The frames waiting to be sent on ``ws``, and the writer's side of sending them."""

    def __init__(self, ws: WebSocket, send_timeout: float, capacity: int = CAPACITY) -> None:
        self.ws, self.send_timeout, self.capacity = ws, send_timeout, capacity
        self.wake = asyncio.Event()  # set by ``put``, ``close`` and whoever wants a push
        self._roomy = asyncio.Event()  # set while at most half the capacity is taken
        self._roomy.set()
        self._frames: deque[str | Close] = deque()
        self.closing = False  # a close is queued (or the connection is over): take nothing more
        self.overflowed = False
        self.dropped: str | None = None  # why the client was dropped as too slow
        self._writable = transport_writable(ws)

    def __len__(self) -> int:
        return len(self._frames)

    def put(self, text: str) -> None:
        """Queue one frame; never waits. A full queue marks the client too slow instead."""
        if self.closing:
            return
        if len(self._frames) >= self.capacity:
            self.overflowed = self.closing = True
        else:
            self._frames.append(text)
            if len(self._frames) >= self.capacity // 2:
                self._roomy.clear()
        self.wake.set()

    async def room(self) -> None:
        """Wait while half the capacity or more is taken (until the client was dropped).

        The reader calls this before each message, so a client that sends faster than it
        reads the replies waits for its own writer; nothing else does.
        """
        await self._roomy.wait()

    def close(self, code: int, reason: str = "") -> None:
        """Queue a close frame after what is queued; nothing is taken after it."""
        if not self.closing:
            self._frames.append(Close(code, reason))
            self.closing = True
        self.wake.set()

    async def flush(self) -> bool:
        """Send every queued frame in order; False once the connection is over (its close
        was sent, the client left, or it was too slow and has been dropped)."""
        while self._frames or self.overflowed:
            if self.overflowed:
                await self._drop(f"{self.capacity} frames were waiting")
                return False
            frame = self._frames.popleft()
            try:
                if not isinstance(frame, Close) and self._writable and self._writable.is_set():
                    # uvicorn writes the frame at once while its transport takes more: no
                    # wait, so no timer (arming and cancelling one was 2-4% of a command).
                    await self.ws.send_text(frame)
                else:
                    async with asyncio.timeout(self.send_timeout):
                        if isinstance(frame, Close):
                            await self.ws.close(code=frame.code, reason=frame.reason)
                            return False
                        await self.ws.send_text(frame)
                if len(self._frames) < self.capacity // 2:
                    self._roomy.set()
            except TimeoutError:
                await self._drop(f"a frame waited {self.send_timeout:g} s to be sent")
                return False
            except SEND_FAILURES:
                return False
        return True

    async def _drop(self, why: str) -> None:
        """Close a client that does not read: with ``TOO_SLOW_CLOSE`` if it takes the close
        frame within CLOSE_GRACE, else by cutting the socket."""
        self.closing, self.dropped = True, why
        self._frames.clear()
        self._roomy.set()
        try:
            async with asyncio.timeout(CLOSE_GRACE):
                await self.ws.close(code=TOO_SLOW_CLOSE, reason=TOO_SLOW)
            return
        except (TimeoutError, *SEND_FAILURES):
            pass
        abort_transport(self.ws)


def _server_protocol(ws: WebSocket) -> object | None:
    """uvicorn's protocol object under ``ws``: ``receive`` is one of its methods. None
    elsewhere (the test client)."""
    return getattr(getattr(ws, "_receive", None), "__self__", None)


def transport_writable(ws: WebSocket) -> asyncio.Event | None:
    """uvicorn's flag that is set while its transport takes more (cleared while the peer's
    unread data is above the high-water mark); its send waits for it and for nothing else.
    None where it cannot be reached: every send then runs under the send timeout."""
    writable = getattr(_server_protocol(ws), "writable", None)
    return writable if isinstance(writable, asyncio.Event) else None


def abort_transport(ws: WebSocket) -> None:
    """Cut the TCP connection under ``ws`` at once, when the server lets us reach it.

    uvicorn writes a frame, a close frame too, only once its transport has room, and a
    transport it closes the ordinary way stays open until the peer has read everything
    buffered: a client that never reads would keep its socket (and hold up the server's
    shutdown) for as long as it stays connected. uvicorn's ``receive`` is a method of its
    protocol object, which holds the transport; elsewhere (the test client) nothing happens
    and the connection simply ends.
    """
    abort = getattr(getattr(_server_protocol(ws), "transport", None), "abort", None)
    if callable(abort):  # asyncio's transports, and uvloop's (which are not their subclasses)
        with contextlib.suppress(Exception):
            abort()
