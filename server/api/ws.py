"""The websocket route; the protocol lives in ``server.realtime`` and ``docs/protocol.md``."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import APIRouter, WebSocket

from server import metrics
from server.realtime.protocol import Error
from server.realtime.session import Connection, send_quietly
from server.tables import ServiceError

router = APIRouter()
log = logging.getLogger(__name__)

UNKNOWN_TABLE_CLOSE = 4404
TOO_MANY_CONNECTIONS_CLOSE = 4429


class ConnectionCap:
    """Counts open websockets per client address and refuses those beyond ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    @contextmanager
    def hold(self, address: str) -> Iterator[bool]:
        """Yields whether ``address`` may open one more; its slot is freed on leaving, always."""
        if self.open[address] >= self.limit:
            yield False
            return
        self.open[address] += 1
        try:
            yield True
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


def client_address(ws: WebSocket) -> str:
    """The peer's address; behind a trusted proxy uvicorn has already put the forwarded one here."""
    return ws.client.host if ws.client is not None else "unknown"


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One browser tab at one table: ``hello`` first, then commands; see docs/protocol.md."""
    address = client_address(ws)
    cap: ConnectionCap = ws.app.state.connection_cap
    with cap.hold(address) as allowed:
        await ws.accept()
        if not allowed:
            await _refuse_crowded(ws, address, table_id, cap.limit)
            return
        await _serve(ws, table_id, address)


async def _refuse_crowded(ws: WebSocket, address: str, table_id: str, limit: int) -> None:
    code = "too_many_connections"
    metrics.record_error(code)
    log.warning(
        "connection refused",
        extra={"client": address, "table_id": table_id, "code": code, "connections": limit},
    )
    text = f"at most {limit} open connections per address; close another tab first"
    await send_quietly(ws, Error(code=code, message=text).to_json())
    await send_quietly(ws, None, close_code=TOO_MANY_CONNECTIONS_CLOSE, reason=code)


async def _serve(ws: WebSocket, table_id: str, address: str) -> None:
    service = ws.app.state.service
    try:
        await service.get(table_id)
    except ServiceError as exc:
        await send_quietly(ws, Error(code=exc.code, message=exc.message).to_json())
        await send_quietly(ws, None, close_code=UNKNOWN_TABLE_CLOSE, reason=exc.code)
        return
    state = ws.app.state
    connection = Connection(ws, table_id, service, state.hub, state.settings, state.chat)
    connection.client = address
    await connection.run()
