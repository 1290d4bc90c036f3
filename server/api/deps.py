"""What the routes take from the app: the service, and the seat token from the header."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from server.settings import Settings
from server.tables import ServiceError, TableService


def get_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str:
    """The token of ``Authorization: Bearer <token>``. Raises ServiceError('no_token', 401)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError("no_token", "send the seat token as 'Authorization: Bearer <token>'")
    return token.strip()


Service = Annotated[TableService, Depends(get_service)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Token = Annotated[str, Depends(bearer_token)]
