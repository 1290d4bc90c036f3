"""How ``guildhall serve`` runs uvicorn: whose forwarded headers count, how long clients may take.

- ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are read only from a peer listed in
  ``GUILDHALL_TRUSTED_PROXIES`` (addresses or networks). Nobody is trusted by default: an app
  reachable directly would otherwise let any client claim any address and walk past the
  per-address caps.
- uvicorn itself closes an idle keep-alive connection (``GUILDHALL_KEEPALIVE_TIMEOUT``) but
  waits forever for a request to arrive in full: a client can open sockets and send a byte a
  minute. ``RequestTimeoutProtocol`` gives every request ``GUILDHALL_REQUEST_TIMEOUT`` seconds
  from its first byte (or from the connection, for the first one) to be complete, then
  answers 408 and closes. A websocket is no longer an HTTP request once upgraded, so the
  clock stops there; idle websockets are watched by uvicorn's pings.
- Websocket messages are compressed (permessage-deflate, when the client offers it) only from
  ``COMPRESS_FROM`` bytes on (``SmallMessagesPlainProtocol``): snapshots shrink several times,
  while a patch of a few hundred bytes fits one packet either way and compressing it was a
  tenth of the server's CPU per command.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Sequence
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension, ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

from server.settings import Settings, proxy_entries

log = logging.getLogger(__name__)
TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 16\r\n\r\nrequest timeout\n"
)


class RequestTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for receiving each request in full."""

    request_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._request_deadline = self.loop.call_later(self.request_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._request_deadline is not None:
            self._request_deadline.cancel()
            self._request_deadline = None

    def _timed_out(self) -> None:
        self._request_deadline = None
        if self.transport.is_closing():
            return
        client = self.client[0] if self.client else "unknown"
        log.info("request timed out", extra={"client": client, "code": "request_timeout"})
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


COMPRESS_FROM = 1024  # bytes: a websocket message shorter than this is sent uncompressed


class SmallMessagesPlain(PerMessageDeflate):
    """permessage-deflate that leaves a message of one frame under ``COMPRESS_FROM`` bytes
    uncompressed (RSV1 unset), which RFC 7692 allows at any time: the peer inflates only the
    messages marked compressed, so both sides' windows still hold the same bytes."""

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.fin
            and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
            and len(frame.data) < COMPRESS_FROM
        ):
            return frame
        return super().encode(frame)


class SmallMessagesPlainFactory(ServerExtensionFactory):
    """The permessage-deflate factory uvicorn made, negotiating with its own settings, whose
    agreed extension then sends with ``SmallMessagesPlain``."""

    def __init__(self, negotiator: ServerPerMessageDeflateFactory) -> None:
        self.name = negotiator.name
        self._negotiator = negotiator

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = self._negotiator.process_request_params(params, accepted_extensions)
        extension = SmallMessagesPlain(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            agreed.compress_settings,
        )
        return response, extension


class SmallMessagesPlainProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, its permessage-deflate (if offered at all: uvicorn's
    ``ws_per_message_deflate``) sending small messages plain."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn.available_extensions = [
            SmallMessagesPlainFactory(factory)
            if isinstance(factory, ServerPerMessageDeflateFactory)
            else factory
            for factory in self.conn.available_extensions or []
        ]


def uvicorn_config(app: Any, settings: Settings) -> uvicorn.Config:
    """The uvicorn configuration ``guildhall serve`` runs ``app`` with."""
    protocol = type(
        "GuildhallHttpProtocol",
        (RequestTimeoutProtocol,),
        {"request_timeout": settings.request_timeout},
    )
    proxies = proxy_entries(settings.trusted_proxies)
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=protocol,
        ws=SmallMessagesPlainProtocol,
        proxy_headers=bool(proxies),
        # Always explicit: uvicorn would otherwise fall back to FORWARDED_ALLOW_IPS or 127.0.0.1.
        forwarded_allow_ips=proxies or [],
        timeout_keep_alive=settings.keepalive_timeout,
        ws_max_size=max(1 << 20, 4 * settings.max_message_bytes),
        log_level="info",
        # No "server: uvicorn" on every answer: it tells a client nothing it needs and names
        # the software to anyone probing; on a table page's twenty requests it is ~400 bytes.
        server_header=False,
        # No formatters of uvicorn's own: its records reach the root logger, which
        # ``configure_process_logging`` formats like every other line (JSON in the image).
        log_config=None,
    )


# A young collection every 20,000 new containers instead of 700, a middle one every 50 of
# those, a full one every 100 of those (Python's defaults: 700, 10, 10).
GC_THRESHOLDS = (20_000, 50, 100)


def tune_garbage_collector() -> None:
    """Move what start-up made (modules, the app, its routes, and what its lifespan made:
    ``guildhall serve`` calls this once that is done) out of the collector's reach and
    collect less often. Each command builds and drops views, patches and encoded documents by
    the thousand; with Python's defaults the full collections that walked the whole heap were
    the server's tail: 200 tables at human pace on Postgres went from p50 49-66 ms and p99
    1.3-2.0 s to p50 17-21 ms and p99 0.2-0.45 s, and from 7.6-8.1 to 5.4 ms of CPU per
    command (``guildhall loadtest --tables 200 --think 2``, 3 runs each). The garbage is the
    same; it is collected in fewer, larger steps."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
