"""The resolver of push connections: a host is refused at the moment of connecting if any of
its addresses is not public (``server.notify.push`` explains why). Its own module because it
subclasses aiohttp's resolver, and aiohttp is imported only when a push is sent."""

from __future__ import annotations

import socket

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver

from .addresses import is_public


class RefusedAddress(OSError):
    """A push endpoint's host resolved to an address we do not send to."""


class GuardedResolver(AbstractResolver):
    """The system resolver, refusing a host with any non-public address: checked when the
    connection is made, so a name that is pointed elsewhere after it was checked is caught.
    (aiohttp does not resolve IP literals: ``PushSender`` checks those itself.)"""

    def __init__(self) -> None:
        self._inner = ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self._inner.resolve(host, port, family)
        if not found or not all(is_public(result["host"]) for result in found):
            raise RefusedAddress(f"{host} has a non-public address")
        return found

    async def close(self) -> None:
        await self._inner.close()
