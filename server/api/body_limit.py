"""The request body limit (a pure ASGI middleware; websockets pass: their frames have their own).

A body is refused with 413 ``body_too_large`` before anything parses it: at once when its
``Content-Length`` says it is too large (the app never runs), and while it is read when it
comes without one (chunked) or lies about it, as soon as the bytes received pass the limit.
Nothing past the limit is kept, so however large a body a client sends, the server holds at
most ``GUILDHALL_MAX_BODY`` bytes of it; the refusal closes the connection, so the rest of the
body is not even read.

Counting happens in ``receive``: the refusal is raised there as an HTTPException, which
FastAPI passes through to the app's error handler (the usual ``{code, message}`` body). Read
outside a route's body parsing, the middleware answers itself.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server import metrics

CODE = "body_too_large"


class BodyTooLarge(HTTPException):
    """The request body passed the limit (413); the app's handler answers ``body_too_large``."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"a request body may hold at most {limit} bytes")


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length`` (None: absent or not a number; uvicorn refuses the
    latter itself)."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """Refuses HTTP request bodies over ``limit`` bytes with 413 ``body_too_large``."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        received = 0
        refused = started = False

        async def counted() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    raise BodyTooLarge(self.limit)
            return message

        async def closing(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if refused:
                    # The rest of the body is still on its way: end the connection rather
                    # than read it only to throw it away.
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        try:
            await self.app(scope, counted, closing)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        """The 413 answer, sent by the middleware itself (no route has run)."""
        metrics.record_error(CODE)
        body = (
            f'{{"code":"{CODE}","message":"a request body may hold at most {self.limit} bytes"}}'
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
