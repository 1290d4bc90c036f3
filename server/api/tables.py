"""Lobby routes: create, list, join, start, hand a seat to a bot, read a finished record."""

from __future__ import annotations

import time
from collections import deque

from fastapi import APIRouter, Request

from server.tables import ServiceError, TableData

from .deps import AppSettings, Service, Token
from .models import (
    AssignBot,
    CreateTable,
    ErrorBody,
    JoinTable,
    SeatLink,
    SeatSummary,
    TableList,
    TableRecord,
    TableSummary,
)

ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 422, 429)}
CREATE_WINDOW = 60.0  # seconds over which GUILDHALL_CREATE_RATE counts


class CreationRate:
    """Tables created per client address in the last minute (a sliding window, per process).

    One address filling the database with tables nobody plays is the cheapest abuse there
    is; a group of friends creates a handful an evening.
    """

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.recent: dict[str, deque[float]] = {}

    def take(self, address: str, now: float | None = None) -> None:
        """Count one creation; ServiceError('too_many_tables', 429) beyond the rate."""
        now = time.monotonic() if now is None else now
        for key in [k for k, times in self.recent.items() if now - times[-1] > CREATE_WINDOW]:
            del self.recent[key]  # forget quiet addresses, so the map stays small
        times = self.recent.setdefault(address, deque())
        while times and now - times[0] > CREATE_WINDOW:
            times.popleft()
        if len(times) >= self.per_minute:
            wait = int(CREATE_WINDOW - (now - times[0])) + 1
            raise ServiceError(
                "too_many_tables",
                f"at most {self.per_minute} new tables a minute from one address; "
                f"try again in {wait} s",
                429,
            )
        times.append(now)


router = APIRouter(prefix="/api/tables", tags=["tables"], responses=ERRORS)  # type: ignore[arg-type]


def summary(data: TableData, connected: frozenset[int]) -> TableSummary:
    """The public face of a table: never a token, never the seed before the end."""
    return TableSummary(
        id=data.id,
        game=data.game,
        title=data.title,
        status=data.status,  # type: ignore[arg-type]
        version=data.version,
        seed_sha256=data.seed_sha256,
        options=data.options,
        seats=[
            SeatSummary(seat=s.seat, name=s.name, bot=s.bot, connected=s.seat in connected)
            for s in data.seats
        ],
    )


def seat_link(settings: AppSettings, table_id: str, seat: int, token: str) -> SeatLink:
    link = f"{settings.public_url}/t/{table_id}#seat={token}"
    return SeatLink(table_id=table_id, seat=seat, token=token, link=link)


@router.post("", status_code=201)
async def create_table(
    body: CreateTable, request: Request, service: Service, settings: AppSettings
) -> SeatLink:
    """Create a table; the creator gets seat 0 and its secret link.

    Refused with ``too_many_tables`` (429) beyond GUILDHALL_CREATE_RATE a minute per address.
    """
    rate: CreationRate = request.app.state.creation_rate
    rate.take(request.client.host if request.client is not None else "unknown")
    data, token = await service.create_table(
        body.game,
        body.seats,
        body.options.model_dump(exclude_defaults=True),
        list(body.bots),
        body.name,
    )
    return seat_link(settings, data.id, 0, token)


@router.get("")
async def list_tables(request: Request, service: Service) -> TableList:
    """Open and playing tables, newest first."""
    hub = request.app.state.hub
    tables = await service.list_live()
    return TableList(tables=[summary(t, hub.connected(t.id)) for t in tables])


@router.get("/{table_id}")
async def get_table(table_id: str, request: Request, service: Service) -> TableSummary:
    """One table's public summary."""
    data = await service.get_stored(table_id)
    return summary(data, request.app.state.hub.connected(table_id))


@router.post("/{table_id}/join", status_code=201)
async def join_table(
    table_id: str, body: JoinTable, service: Service, settings: AppSettings
) -> SeatLink:
    """Take a free seat (or a bot's seat) under ``name``; returns its secret link."""
    seat, token = await service.join(table_id, body.name, body.seat)
    return seat_link(settings, table_id, seat, token)


@router.post("/{table_id}/start")
async def start_table(
    table_id: str, request: Request, service: Service, token: Token
) -> TableSummary:
    """Deal the game (seat 0's token; every seat must have a person or a bot)."""
    data = await service.start(table_id, token)
    return summary(data, request.app.state.hub.connected(table_id))


@router.post("/{table_id}/seats/{seat}/bot")
async def assign_bot(
    table_id: str, seat: int, body: AssignBot, request: Request, service: Service, token: Token
) -> TableSummary:
    """Hand ``seat`` to a bot so the game goes on (any seated player's token)."""
    data = await service.assign_bot(table_id, token, seat, body.kind)
    return summary(data, request.app.state.hub.connected(table_id))


@router.get("/{table_id}/record")
async def table_record(table_id: str, service: Service) -> TableRecord:
    """A finished game's record, seed included, for ``guildhall verify``."""
    return TableRecord.model_validate(await service.record(table_id))
