"""Browser security headers on every HTTP answer (a pure ASGI middleware; websockets pass).

The pages run only the app's own files: no inline script or style, nothing from another
origin, never inside a frame, no Referer (a seat link's fragment must never leak, and the
table id is in the path). API answers are never stored by a browser or proxy cache: some
carry a seat token, and the rest describe a table that changes under them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        # The push notices' service worker, /sw.js (script-src would allow it too; said here).
        "worker-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

# FastAPI's interactive API pages (/docs, /redoc) are one static inline script that loads
# Swagger UI / ReDoc from a CDN. They reflect no input and carry no secret, so they alone
# get a policy that lets them work; they still may not be framed.
API_DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")
API_DOCS_CDN = "https://cdn.jsdelivr.net"
API_DOCS_POLICY = "; ".join(
    (
        "default-src 'none'",
        f"script-src 'self' 'unsafe-inline' {API_DOCS_CDN}",
        f"style-src 'self' 'unsafe-inline' {API_DOCS_CDN}",
        f"img-src 'self' data: {API_DOCS_CDN} https://fastapi.tiangolo.com",
        f"font-src 'self' {API_DOCS_CDN} https://fonts.gstatic.com",
        f"connect-src 'self' {API_DOCS_CDN}",
        "worker-src blob:",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)

COMMON_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


# Scripts and style sheets are never shown as documents (nosniff keeps a browser from
# treating them as one), so the document-only headers (policy, framing, opener) would be
# about 270 bytes of every one of a table page's dozen or more files for nothing.
SUBRESOURCE_HEADERS = tuple(
    (name, value)
    for name, value in COMMON_HEADERS
    if name in (b"x-content-type-options", b"referrer-policy")
)
SUBRESOURCE = re.compile(r"/(static|strings)/.+\.(js|css)")


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every answer to ``path`` gets (Cache-Control only where none was set)."""
    if SUBRESOURCE.fullmatch(path):
        return list(SUBRESOURCE_HEADERS)
    policy = API_DOCS_POLICY if path in API_DOCS_PATHS else CONTENT_SECURITY_POLICY
    return [(b"content-security-policy", policy.encode()), *COMMON_HEADERS]


class SecurityHeaders:
    """Adds :func:`security_headers` to every HTTP response, and ``Cache-Control: no-store``
    to every ``/api/`` answer (unless the route chose its own caching)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        added = security_headers(path)
        no_store = path.startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _OURS]
                headers.extend(added)
                if no_store and not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


_OURS = frozenset(name for name, _ in (*COMMON_HEADERS, (b"content-security-policy", b"")))
