"""The table chat's one HTTP route: a finished table's chat, to download beside its record.
The chat itself is spoken over the table's websocket (docs/protocol.md, "Table chat")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request

from server.chat import ChatService

from .deps import bearer_token

router = APIRouter(prefix="/api/tables", tags=["chat"])


@router.get("/{table_id}/chat")
async def table_chat(
    table_id: str, request: Request, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """``{table_id, game, messages}``: every chat message of a finished table the asker may
    read (a seat token, optional, opens a private table's players' room), oldest first."""
    chat: ChatService = request.app.state.chat
    token = bearer_token(authorization) if authorization else None
    return await chat.transcript(table_id, token)
