"""gzip for pages, static files and public documents (a pure ASGI middleware).

Starlette's ``GZipMiddleware`` does the work for a client that accepts gzip. Answers that
may carry a secret next to text a stranger chooses (a seat token beside a player's name,
under ``/api/tables``) are sent uncompressed, so their length never tells an eavesdropper
whether a guess matched the secret (the BREACH attack). The replay steps of a finished
game are public and large, and are compressed.
"""

from __future__ import annotations

import re

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

MINIMUM_SIZE = 500  # bytes: below this the gzip header costs more than it saves
PUBLIC_API = re.compile(r"/api/(games|tables/[^/]+/replay/[0-9]+)")


class Compression:
    """gzip every HTTP answer except those of the private API routes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=MINIMUM_SIZE)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        private = path.startswith("/api/") and not PUBLIC_API.fullmatch(path)
        if scope["type"] != "http" or private:
            await self.app(scope, receive, send)
            return
        await self.gzip(scope, receive, send)
