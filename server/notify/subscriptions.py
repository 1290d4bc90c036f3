"""Web Push subscriptions: what a browser's ``PushManager.subscribe`` returned, checked and
kept as one row per device and seat.

The endpoint is a URL a stranger types into our server, and the sender will POST to it, so it
is checked before it is stored (and again at each send, ``server.notify.push``):
``https:`` only (``http:`` only when GUILDHALL_PUSH_ALLOW_HTTP is on, for tests), at most
``MAX_ENDPOINT`` characters, no user name or password, a host of a browser's push service
(``PUSH_SERVICES``, and those GUILDHALL_PUSH_HOSTS adds), and a host whose every address is a
public one, never loopback, private, link-local or reserved (unless
GUILDHALL_WEBHOOK_ALLOW_PRIVATE is on), so our server never becomes a way into the networks
behind it. The keys must be a P-256 point and a 16-byte secret, as browsers make them.

Nothing here ever returns or logs an endpoint or a key to anyone: listings name a device by
a short hash of its endpoint and by its push service's host.
"""

from __future__ import annotations

import binascii
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.store.models import PushSubscriptionRow, TableRow
from server.tables import ServiceError

from .addresses import Resolver, is_public, system_resolve
from .vapid import unb64url

MAX_ENDPOINT = 2048
# Subscriptions one seat may hold: a phone, a laptop and one more; each notice is one POST per
# device, so a seat holder must not turn one notice into many.
MAX_DEVICES = 3
# The push services of the browsers that have Web Push: Chrome, Edge (before WNS), Opera,
# Samsung Internet and Brave (Google FCM), Firefox (Mozilla autopush), Safari (Apple), Edge
# (Windows Push Notification Services). An endpoint elsewhere is a URL someone made up, so
# it takes GUILDHALL_PUSH_HOSTS to allow it; these are reached on https's own port only.
PUSH_SERVICES = (
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
)
P256_POINT = 65  # an uncompressed P-256 point: 0x04, x, y
AUTH_SECRET = 16


@dataclass(frozen=True, repr=False)
class Subscription:
    """One stored subscription. Its ``repr`` names no endpoint and no key (logs print it)."""

    id: int
    table_id: str
    seat: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    created_at: datetime | None = None

    def __repr__(self) -> str:
        return f"Subscription(id={self.id}, table={self.table_id!r}, seat={self.seat})"

    @property
    def device(self) -> str:
        return device_key(self.endpoint)

    @property
    def service(self) -> str:
        """The push service's host (which browser maker's service holds this device)."""
        return urlsplit(self.endpoint).hostname or ""

    def info(self) -> dict[str, Any]:
        """The ``subscription_info`` pywebpush encrypts to."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def endpoint_key(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def device_key(endpoint: str) -> str:
    """16 hex digits naming a device in listings: the page finds its own row by hashing its
    endpoint the same way, and nobody learns the endpoint from it."""
    return endpoint_key(endpoint)[:16]


def bad(message: str) -> ServiceError:
    return ServiceError("bad_subscription", message)


# ------------------------------------------------------------------------------ checks


def matches(host: str, pattern: str) -> bool:
    """Whether ``host`` is ``pattern``: the same name, a subdomain of ``*.name``, or any for ``*``.

    >>> [matches(h, "*.push.apple.com") for h in ("web.push.apple.com", "push.apple.com")]
    [True, False]
    """
    host = host.lower().rstrip(".")
    if pattern == "*":
        return True
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and len(host) > len(pattern) - 1
    return host == pattern


def check_service(host: str, port: int | None, extra_hosts: Sequence[str]) -> None:
    """Raises ServiceError('unknown_push_service', 400) unless ``host`` is a known push
    service's (on https's port) or one the self-hoster allowed (GUILDHALL_PUSH_HOSTS)."""
    if any(matches(host, p) for p in extra_hosts):
        return
    if port in (None, 443) and any(matches(host, p) for p in PUSH_SERVICES):
        return
    raise ServiceError(
        "unknown_push_service",
        f"{host[:80]!r} is not a browser's push service; this server sends pushes to "
        + ", ".join(PUSH_SERVICES)
        + (", " + ", ".join(extra_hosts) if extra_hosts else ""),
    )


def check_endpoint(endpoint: str, allow_http: bool, extra_hosts: Sequence[str]) -> str:
    """The endpoint's host, once its form is fine and it is a push service's.

    Raises ServiceError: 'bad_subscription', 'unknown_push_service' (``check_service``).
    """
    if len(endpoint) > MAX_ENDPOINT:
        raise bad(f"the endpoint is longer than {MAX_ENDPOINT} characters")
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in endpoint):
        raise bad("the endpoint holds spaces or control characters")
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise bad("the endpoint is not a URL") from None
    schemes = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in schemes:
        raise bad(f"the endpoint must be an {' or '.join(schemes)} URL")
    if not parts.hostname:
        raise bad("the endpoint names no host")
    if "@" in parts.netloc:
        raise bad("the endpoint must not carry a user name or password")
    if parts.fragment:
        raise bad("the endpoint must not carry a fragment")
    check_service(parts.hostname, parts.port, extra_hosts)
    return parts.hostname


def check_keys(p256dh: str, auth: str) -> None:
    """Raises ServiceError('bad_subscription') unless ``p256dh`` is a P-256 public point and
    ``auth`` a 16-byte secret, both URL-safe base64."""
    try:
        point = unb64url(p256dh)
        secret = unb64url(auth)
    except (ValueError, binascii.Error):
        raise bad("keys.p256dh and keys.auth must be URL-safe base64") from None
    if len(point) != P256_POINT or point[0] != 4:
        raise bad(f"keys.p256dh must be an uncompressed P-256 point ({P256_POINT} bytes)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise bad("keys.p256dh is not a point on P-256") from None
    if len(secret) != AUTH_SECRET:
        raise bad(f"keys.auth must be {AUTH_SECRET} bytes")


async def check_host(host: str, allow_private: bool, resolve: Resolver = system_resolve) -> None:
    """Raises ServiceError unless every address ``host`` resolves to is public (or
    ``allow_private``): 'private_endpoint' (400) for a non-public one, 'bad_subscription'
    for a host that does not resolve."""
    if allow_private:
        return
    try:
        found = await resolve(host, 443)
    except (OSError, UnicodeError):
        raise bad("the endpoint's host does not resolve") from None
    if not found or not all(is_public(address) for address in found):
        raise ServiceError(
            "private_endpoint",
            "push endpoints must be on public addresses, not loopback, private or link-local ones",
        )


# ------------------------------------------------------------------------------ storage


def _from_row(row: PushSubscriptionRow) -> Subscription:
    return Subscription(
        row.id, row.table_id, row.seat, row.endpoint, row.p256dh, row.auth, row.lang,
        row.created_at,
    )  # fmt: skip


async def add(
    sessions: async_sessionmaker[Any],
    table_id: str,
    seat: int,
    endpoint: str,
    keys: tuple[str, str],
    lang: str,
) -> tuple[Subscription, bool]:
    """Store a checked subscription for ``seat``; the same device again replaces its keys and
    language. Returns it and whether it is new. Raises ServiceError('too_many_devices', 409)
    when the seat holds ``MAX_DEVICES`` others."""
    for _ in range(2):  # a second try when the same device was inserted at the same moment
        try:
            return await _upsert(sessions, table_id, seat, endpoint, keys, lang)
        except IntegrityError:
            continue
    raise ServiceError("conflict", "the subscription kept changing; try again")


async def _upsert(
    sessions: async_sessionmaker[Any],
    table_id: str,
    seat: int,
    endpoint: str,
    keys: tuple[str, str],
    lang: str,
) -> tuple[Subscription, bool]:
    key = endpoint_key(endpoint)
    of_seat = (PushSubscriptionRow.table_id == table_id) & (PushSubscriptionRow.seat == seat)
    async with sessions() as session, session.begin():
        rows = (await session.execute(sa.select(PushSubscriptionRow).where(of_seat))).scalars()
        mine = {row.endpoint_key: row for row in rows}
        row = mine.get(key)
        created = row is None
        if row is None:
            if len(mine) >= MAX_DEVICES:
                raise ServiceError(
                    "too_many_devices",
                    f"a seat may have notices sent to at most {MAX_DEVICES} devices; "
                    "turn them off on one first",
                )
            row = PushSubscriptionRow(table_id=table_id, seat=seat, endpoint=endpoint)
            row.endpoint_key = key
            session.add(row)
        row.p256dh, row.auth, row.lang = keys[0], keys[1], lang
        await session.flush()
        await session.refresh(row)
        return _from_row(row), created


async def for_seat(
    sessions: async_sessionmaker[Any], table_id: str, seat: int
) -> list[Subscription]:
    """The seat's subscriptions, oldest first."""
    query = (
        sa.select(PushSubscriptionRow)
        .where(PushSubscriptionRow.table_id == table_id, PushSubscriptionRow.seat == seat)
        .order_by(PushSubscriptionRow.id)
    )
    async with sessions() as session:
        return [_from_row(row) for row in (await session.execute(query)).scalars()]


async def remove(
    sessions: async_sessionmaker[Any], table_id: str, seat: int, subscription_id: int
) -> bool:
    """Delete one of the seat's subscriptions; False if the seat has none with that id."""
    query = sa.delete(PushSubscriptionRow).where(
        PushSubscriptionRow.id == subscription_id,
        PushSubscriptionRow.table_id == table_id,
        PushSubscriptionRow.seat == seat,
    )
    async with sessions() as session, session.begin():
        return bool((await session.execute(query)).rowcount)


async def drop(sessions: async_sessionmaker[Any], subscription_id: int) -> None:
    """Delete a subscription its push service called gone (404/410)."""
    async with sessions() as session, session.begin():
        await session.execute(
            sa.delete(PushSubscriptionRow).where(PushSubscriptionRow.id == subscription_id)
        )


async def addressed(session: AsyncSession) -> set[tuple[str, int]]:
    """The (table id, seat) pairs of playing tables with a device to push to."""
    query = (
        sa.select(PushSubscriptionRow.table_id, PushSubscriptionRow.seat)
        .join(TableRow, TableRow.id == PushSubscriptionRow.table_id)
        .where(TableRow.status == "playing")
        .distinct()
    )
    return {(row[0], row[1]) for row in await session.execute(query)}


async def forget_table(sessions: async_sessionmaker[Any], table_id: str) -> int:
    """Delete every subscription of a table (it has finished: no notice will follow)."""
    async with sessions() as session, session.begin():
        result = await session.execute(
            sa.delete(PushSubscriptionRow).where(PushSubscriptionRow.table_id == table_id)
        )
        return int(result.rowcount or 0)
