"""Where a URL that a stranger typed may point, for every channel that sends to one.

``is_public`` judges one address (webhooks and Web Push endpoints both use it). A webhook URL
is checked for its form (``parse``) and for every address its host resolves to (``Guard``),
when it is set and again at every send: ``server.notify.webhook`` says why.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from urllib.parse import SplitResult, urlsplit

from server.tables import ServiceError

MAX_URL = 2000
Resolver = Callable[[str, int], Awaitable[list[str]]]


async def system_resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (the system's resolver)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def is_public(address: str) -> bool:
    """Whether ``address`` (an IP literal) is one a stranger's URL may reach: a global unicast
    address, not loopback, private, link-local, shared, reserved, multicast or unspecified (an
    IPv4 address written as IPv6 is judged as the IPv4 one). Text that is no IP address is not.

    >>> [is_public(a) for a in ("93.184.215.14", "127.0.0.1", "10.1.2.3", "169.254.169.254")]
    [True, False, False, False]
    >>> [is_public(a) for a in ("::1", "fe80::1", "::ffff:192.168.0.1", "100.64.0.1", "x")]
    [False, False, False, False, False]
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def parse(url: str) -> SplitResult:
    """``url`` split, if it may be a webhook. Raises ServiceError('bad_webhook', 400)."""
    if len(url) > MAX_URL:
        raise ServiceError("bad_webhook", f"a webhook URL is at most {MAX_URL} characters")
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in url):
        raise ServiceError("bad_webhook", "a webhook URL has no spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise ServiceError("bad_webhook", f"{url[:80]!r} is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServiceError(
            "bad_webhook", "a webhook URL starts with http:// or https:// and names a host"
        )
    return parts


class Guard:
    """The address check of webhook URLs; ``resolve`` may be replaced (tests do)."""

    def __init__(self, allow_private: bool, resolve: Resolver = system_resolve) -> None:
        self.allow_private = allow_private
        self.resolve = resolve

    async def addresses(self, parts: SplitResult) -> list[str]:
        """The addresses of ``parts``' host, each one allowed.

        Raises ServiceError: 'bad_webhook' (the name does not resolve), 'private_webhook'
        (an address is not public and the settings do not allow that).
        """
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            found = await self.resolve(host, port)
        except (OSError, UnicodeError):
            found = []
        if not found:
            raise ServiceError("bad_webhook", f"the host {host[:80]!r} does not resolve")
        if not self.allow_private:
            refused = [a for a in found if not is_public(a)]
            if refused:
                raise ServiceError(
                    "private_webhook",
                    f"the host {host[:80]!r} is or resolves to a loopback, private or "
                    "link-local address; this server sends webhooks to public addresses only",
                )
        return found

    async def check(self, url: str) -> str:
        """``url``, checked as a webhook (see ``addresses``); the URL as stored."""
        await self.addresses(parse(url))
        return url
