"""The websocket route; the protocol lives in ``server.realtime`` and ``docs/protocol.md``."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from server.realtime.protocol import Error
from server.realtime.session import Connection
from server.tables import ServiceError

router = APIRouter()

UNKNOWN_TABLE_CLOSE = 4404


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One browser tab at one table: ``hello`` first, then commands; see docs/protocol.md."""
    await ws.accept()
    service = ws.app.state.service
    try:
        await service.get(table_id)
    except ServiceError as exc:
        await ws.send_text(Error(code=exc.code, message=exc.message).model_dump_json())
        await ws.close(code=UNKNOWN_TABLE_CLOSE)
        return
    connection = Connection(ws, table_id, service, ws.app.state.hub, ws.app.state.settings)
    await connection.run()
