"""Where a URL that a stranger typed may point, for every channel that sends to one.

``is_public`` judges one address (webhooks and Web Push endpoints both use it), unwrapping
the IPv4 address an IPv6 one may carry: on a host with NAT64, 6to4 or Teredo egress,
``[64:ff9b::a9fe:a9fe]`` reaches 169.254.169.254 as surely as the IPv4 literal. A webhook URL
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


# Written out rather than left to ``ipaddress``'s ``is_global`` alone: its registry changes
# between patch releases of Python, and a refusal must not depend on which one a host runs.
V4_REFUSED = tuple(
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8",  # "this network"
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local, cloud metadata (169.254.169.254)
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated): a way into 6to4
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, broadcast
    )
)
V6_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")
V6_REFUSED = tuple(
    ipaddress.IPv6Network(n)
    for n in (
        "64:ff9b:1::/48",  # NAT64 local use (RFC 8215): the operator's own, wherever it puts v4
        "100::/64",  # discard
        "100:0:0:1::/64",  # dummy prefix
        "2001:2::/48",  # benchmarking
        "2001:10::/28",  # ORCHID (deprecated)
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
        "5f00::/16",  # segment routing
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated)
        "ff00::/8",  # multicast
    )
)
# IPv6 forms that carry an IPv4 address in their last 32 bits: whoever sends there reaches
# that IPv4 address (through the host's own stack, a NAT64 gateway or SIIT translator).
V6_LAST_32 = tuple(
    ipaddress.IPv6Network(n)
    for n in (
        "::ffff:0:0/96",  # IPv4-mapped, in any spelling (::ffff:7f00:1 is 127.0.0.1)
        "::ffff:0:0:0/96",  # IPv4-translated (SIIT, RFC 2765)
        "::/96",  # IPv4-compatible (deprecated), :: and ::1 included
        "64:ff9b::/96",  # NAT64 well-known prefix (RFC 6052)
    )
)
SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")  # the IPv4 address in bits 16-48
TEREDO = ipaddress.IPv6Network("2001::/32")  # server in bits 32-64, client inverted at the end


def carried_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address] | None:
    """The IPv4 addresses an IPv6 address carries and is reached through, or None for a plain
    IPv6 address.

    >>> carried_ipv4(ipaddress.IPv6Address("64:ff9b::a9fe:a9fe"))
    [IPv4Address('169.254.169.254')]
    >>> teredo = ipaddress.IPv6Address("2001:0:4136:e378:8000:63bf:80ff:fffe")
    >>> [str(a) for a in carried_ipv4(teredo)]  # the server, and the client inverted
    ['65.54.227.120', '127.0.0.1']
    """
    if any(ip in net for net in V6_LAST_32):
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    if ip in SIX_TO_FOUR and ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip in TEREDO and ip.teredo is not None:
        return list(ip.teredo)
    return None


def _is_public_v4(ip: ipaddress.IPv4Address) -> bool:
    return ip.is_global and not any(ip in net for net in V4_REFUSED)


def _is_public_v6(ip: ipaddress.IPv6Address) -> bool:
    carried = carried_ipv4(ip)
    if carried is not None:
        return all(_is_public_v4(v4) for v4 in carried)
    return (
        ip in V6_GLOBAL_UNICAST
        and not any(ip in net for net in V6_REFUSED)
        and ip.is_global  # and whatever else this Python's registry knows of
    )


def is_public(address: str) -> bool:
    """Whether ``address`` (an IP literal) is one a stranger's URL may reach: a global unicast
    address. An IPv6 address that carries an IPv4 one (mapped in any spelling, translated,
    compatible, NAT64's well-known prefix, 6to4, Teredo's server and client) is judged by the
    IPv4 addresses it carries; NAT64's local-use prefix, unique-local, link-local, site-local,
    multicast, documentation, discard, loopback and unspecified addresses are never public,
    nor is an address with a zone (``%eth0``). Text that is no IP address is not.

    >>> [is_public(a) for a in ("93.184.215.14", "127.0.0.1", "10.1.2.3", "169.254.169.254")]
    [True, False, False, False]
    >>> [is_public(a) for a in ("::1", "fe80::1", "::ffff:192.168.0.1", "100.64.0.1", "x")]
    [False, False, False, False, False]
    >>> [is_public(a) for a in ("::127.0.0.1", "::ffff:0:7f00:1", "64:ff9b::a9fe:a9fe")]
    [False, False, False]
    >>> [is_public(a) for a in ("2606:4700:4700::1111", "64:ff9b::808:808", "2002:808:808::1")]
    [True, True, True]
    """
    if "%" in address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv4Address):
        return _is_public_v4(ip)
    return _is_public_v6(ip)


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
