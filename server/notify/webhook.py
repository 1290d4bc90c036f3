"""The webhook channel: a JSON POST of each notice to the URL the table's creator set.

The URL is typed by whoever created the table, so the server must not become their proxy
into the machine or network it runs in (the form and address checks are
``server.notify.addresses``):

- only ``http`` and ``https`` URLs with a host name are taken;
- the host is resolved when the URL is set and again at every send, and every address it
  resolves to must be a global one: no loopback, private, link-local, shared, reserved or
  multicast address (an IPv4 address written as IPv6 counts as itself), unless the self-hoster
  sets ``GUILDHALL_WEBHOOK_ALLOW_PRIVATE``;
- the POST goes to the address that was checked, never to a second lookup of the name (a
  name that answers a public address to the check and a private one to the connection gets
  nothing), with the name kept for the ``Host`` header and TLS (SNI and certificate);
- short timeouts (``GUILDHALL_WEBHOOK_TIMEOUT`` for the whole request), no redirect
  followed, no proxy taken from the environment, and the answer's body never read.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import ssl
from urllib.parse import SplitResult, unquote, urlsplit

import h11
import orjson
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import SeatRow, TableRow
from server.tables import ServiceError

from .channel import Channel, ChannelContext
from .notice import Notice, Outcome

log = logging.getLogger(__name__)


async def post(parts: SplitResult, address: str, body: bytes, timeout: float) -> int:
    """POST ``body`` to ``parts``, connecting to ``address``; the answer's status.

    One HTTP/1.1 request over a connection of its own (h11 speaks the protocol): the name
    stays in the ``Host`` header and in TLS (SNI, certificate check); a redirect is only a
    status here, never followed; no environment proxy is used; the answer's body is not read.
    Raises OSError, TimeoutError, ssl.SSLError or h11.ProtocolError when no answer comes.
    """
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [
        ("Host", parts.netloc.rsplit("@", 1)[-1]),
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body))),
        ("User-Agent", "Guildhall"),
        ("Connection", "close"),
    ]
    if parts.username:
        login = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
        headers.append(("Authorization", "Basic " + base64.b64encode(login).decode()))
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(
            address,
            port,
            ssl=ssl.create_default_context() if https else None,
            server_hostname=parts.hostname if https else None,
        )
        try:
            conn = h11.Connection(h11.CLIENT)
            for event in (
                h11.Request(method="POST", target=target, headers=headers),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                writer.write(conn.send(event) or b"")
            await writer.drain()
            return await _status(conn, reader)
        finally:
            writer.close()


async def _status(conn: h11.Connection, reader: asyncio.StreamReader) -> int:
    """The status of the final answer (an informational 1xx is skipped)."""
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(await reader.read(4096))
        elif isinstance(event, h11.Response):
            return int(event.status_code)
        elif isinstance(event, h11.ConnectionClosed):
            raise OSError("the receiver closed the connection without answering")


def outcome_of(status: int) -> Outcome:
    """What an HTTP status means for the notice: 2xx sent; 408, 425, 429 and 5xx worth a
    retry; anything else (a redirect, 404, 410, ...) will not get better by retrying."""
    if 200 <= status < 300:
        return "sent"
    if status in (408, 425, 429) or status >= 500:
        return "retry"
    return "gone"


class Webhook:
    """The channel: POSTs ``Notice.as_json`` to the table's webhook URL."""

    name = "webhook"

    def __init__(self, context: ChannelContext) -> None:
        self._sessions = context.sessions
        self._guard = context.guard
        self._timeout = context.settings.webhook_timeout

    async def deliver(self, notice: Notice) -> Outcome:
        async with self._sessions() as session:
            url = (
                await session.execute(
                    sa.select(TableRow.webhook_url).where(TableRow.id == notice.table_id)
                )
            ).scalar_one_or_none()
        if not url:
            return "gone"
        parts = urlsplit(url)
        try:
            addresses = await self._guard.addresses(parts)
        except ServiceError as exc:
            log.warning(
                "webhook not sent: %s",
                exc.code,
                extra={"table_id": notice.table_id, "seat": notice.seat},
            )
            return "gone" if exc.code == "private_webhook" else "retry"
        body = orjson.dumps(notice.as_json())
        try:
            status = await post(parts, addresses[0], body, self._timeout)
        except (OSError, TimeoutError, h11.ProtocolError) as exc:
            log.info(
                "webhook failed: %s",
                type(exc).__name__,
                extra={"table_id": notice.table_id, "seat": notice.seat},
            )
            return "retry"
        outcome = outcome_of(status)
        if outcome != "sent":
            log.info(
                "webhook answered %s",
                status,
                extra={"table_id": notice.table_id, "seat": notice.seat},
            )
        return outcome

    async def addressed(self, session: AsyncSession) -> set[tuple[str, int]]:
        """Every person-owned seat of a playing table with a webhook."""
        query = (
            sa.select(SeatRow.table_id, SeatRow.seat)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(
                TableRow.status == "playing",
                TableRow.webhook_url.is_not(None),
                SeatRow.token_hash.is_not(None),
            )
        )
        return {(t, s) for t, s in (await session.execute(query)).all()}


def channel(context: ChannelContext) -> Channel:
    """The webhook channel (always on: a table without a URL simply has no address)."""
    hook = Webhook(context)
    return Channel(name=hook.name, deliver=hook.deliver, addressed=hook.addressed)
