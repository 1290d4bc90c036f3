"""Lobby routes: create, list, join, start, hand a seat to a bot and take it back, read a
finished record. Who may do what is decided in ``server.tables.seats`` (docs/seats.md)."""

from __future__ import annotations

import math
import time

from fastapi import APIRouter, Request

from server.tables import TableData, TableService
from server.tables import clock as table_clock

from .deps import AppSettings, Service, Token
from .models import (
    AddTime,
    AssignBot,
    ClockSettings,
    CreateTable,
    ErrorBody,
    JoinTable,
    MySeat,
    MyTable,
    MyTables,
    MyTablesAsked,
    SeatLink,
    SeatSummary,
    Suggestions,
    TableList,
    TableRecord,
    TableSummary,
)

ERRORS = {code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 422, 429)}
router = APIRouter(prefix="/api/tables", tags=["tables"], responses=ERRORS)  # type: ignore[arg-type]


def summary(
    data: TableData,
    connected: frozenset[int],
    handover_after: float,
    away: dict[int, float | None] | None = None,
) -> TableSummary:
    """The public face of a table: never a token, never the seed before the end."""
    away = away or {}
    return TableSummary(
        id=data.id,
        game=data.game,
        title=data.title,
        status=data.status,  # type: ignore[arg-type]
        version=data.version,
        seed_sha256=data.seed_sha256,
        options=data.options,
        public=data.public,
        handover_after=handover_after,
        seats=[
            SeatSummary(
                seat=s.seat,
                name=s.name,
                bot=s.bot,
                connected=s.seat in connected,
                stand_in=s.stand_in,
                away_seconds=shown_away(away.get(s.seat)) if s.bot is None else None,
            )
            for s in data.seats
        ],
        clock=table_clock.public(data),
        server_time=time.time(),
        rematch=data.rematch,
        learning=data.learning,
    )


def shown_away(away: float | None) -> float | None:
    """Tenths of a second, rounded down: a seat shown away for ``handover_after`` seconds
    may be handed over (rounded to nearest, 1.96 s read 2.0 and the hand-over was refused)."""
    if away is None:
        return None
    return 1e9 if math.isinf(away) else math.floor(away * 10) / 10


async def full_summary(request: Request, service: TableService, data: TableData) -> TableSummary:
    """``summary`` with how long each absent player has been away (one more query)."""
    away = await service.away(data.id)
    connected = request.app.state.hub.connected(data.id)
    answer = summary(data, connected, service.settings.handover_after, away)
    settings = service.settings
    answer.clock_rules = {
        "nudge_after": settings.nudge_after,
        "nudge_every": settings.nudge_every,
        "vote_after": settings.vote_after,
    }
    return answer


def seat_link(
    settings: AppSettings, service: TableService, table_id: str, seat: int, token: str
) -> SeatLink:
    invite = service.invite_code(table_id)
    return SeatLink(
        table_id=table_id,
        seat=seat,
        token=token,
        link=f"{settings.public_url}/t/{table_id}#seat={token}",
        invite=invite,
        invite_link=invite_link(settings, table_id, invite),
    )


def invite_link(settings: AppSettings, table_id: str, invite: str) -> str:
    # In the fragment, like the seat token: browsers never send it, nor leak it as a referrer.
    return f"{settings.public_url}/t/{table_id}#invite={invite}"


@router.post("", status_code=201)
async def create_table(
    body: CreateTable, request: Request, service: Service, settings: AppSettings
) -> SeatLink:
    """Create a table; the creator gets seat 0, its secret link, and the invite link.

    Refused (``server.tables.limits``) with ``too_many_tables`` (429) beyond
    GUILDHALL_CREATE_RATE a minute per address, ``too_many_unjoined_tables`` (429) beyond
    GUILDHALL_UNJOINED_PER_ADDRESS live tables of the address nobody else joined, and
    ``server_full`` (503) beyond GUILDHALL_UNJOINED_TABLES such tables in all.
    """
    data, token = await service.create_table(
        body.game,
        body.seats,
        body.options.model_dump(exclude_defaults=True),
        list(body.bots),
        body.name,
        public=body.public,
        clock=body.clock.config() if body.clock is not None else None,
        address=request.client.host if request.client is not None else "unknown",
        learning=body.learning,
    )
    return seat_link(settings, service, data.id, 0, token)


@router.get("")
async def list_tables(request: Request, service: Service) -> TableList:
    """Open and playing public tables, newest first (private ones are never listed)."""
    hub = request.app.state.hub
    after = service.settings.handover_after
    tables = await service.list_live()
    return TableList(tables=[summary(t, hub.connected(t.id), after) for t in tables])


@router.post("/mine")
async def my_tables(body: MyTablesAsked, request: Request, service: Service) -> MyTables:
    """The tables of the seat links one browser keeps: for each, what its token may know
    (round, whose turn, your move and its deadline, the result, the rematch, the newest chat
    message someone else wrote)."""
    asked = [(entry.table_id, entry.token) for entry in body.seats]
    answers = await service.list_mine(asked)
    seats = [(a["table_id"], a["seat"]) for a in answers if "error" not in a]
    newest = await request.app.state.chat.newest_for(seats)
    for answer in answers:
        if "error" not in answer:
            answer["chat"] = newest[(answer["table_id"], answer["seat"])]
    return MyTables(
        tables=[MyTable.model_validate(answer) for answer in answers], server_time=time.time()
    )


@router.get("/{table_id}")
async def get_table(table_id: str, request: Request, service: Service) -> TableSummary:
    """One table's public summary."""
    return await full_summary(request, service, await service.get_stored(table_id))


@router.get("/{table_id}/me")
async def my_seat(table_id: str, service: Service, settings: AppSettings, token: Token) -> MySeat:
    """The seat this token owns, whether it plays it now, and the invite to share."""
    access = await service.authenticate(table_id, token)
    invite = service.invite_code(table_id)
    return MySeat(
        table_id=table_id,
        seat=access.seat,
        plays=access.plays,
        creator=access.is_creator,
        invite=invite,
        invite_link=invite_link(settings, table_id, invite),
    )


@router.post("/{table_id}/join", status_code=201)
async def join_table(
    table_id: str, body: JoinTable, service: Service, settings: AppSettings
) -> SeatLink:
    """Take a seat under ``name`` (the invite is needed unless the table is public)."""
    seat, token = await service.join(table_id, body.name, body.seat, body.invite)
    return seat_link(settings, service, table_id, seat, token)


@router.post("/{table_id}/start")
async def start_table(
    table_id: str, request: Request, service: Service, token: Token
) -> TableSummary:
    """Deal the game (seat 0's token; every seat must have a person or a bot)."""
    return await full_summary(request, service, await service.start(table_id, token))


@router.post("/{table_id}/seats/{seat}/bot")
async def assign_bot(
    table_id: str, seat: int, body: AssignBot, request: Request, service: Service, token: Token
) -> TableSummary:
    """Let a bot play ``seat``: the seat's own token, or the creator's once its player has
    been away ``handover_after`` seconds (or for a seat no person owns)."""
    data = await service.assign_bot(table_id, token, seat, body.kind)
    return await full_summary(request, service, data)


@router.post("/{table_id}/seats/{seat}/reclaim")
async def reclaim_seat(
    table_id: str, seat: int, request: Request, service: Service, token: Token
) -> TableSummary:
    """Take your seat back from the bot standing in for you (your own seat token)."""
    data = await service.reclaim(table_id, token, seat)
    return await full_summary(request, service, data)


@router.post("/{table_id}/seats/{seat}/suggest")
async def suggest(table_id: str, seat: int, service: Service, token: Token) -> Suggestions:
    """A learning table's "what would the bot do?": the strong bot's three best commands for
    your seat, from your seat's own view, while the game waits for you (your seat token).
    ``not_a_learning_table`` (409) on a table created without the option."""
    return Suggestions.model_validate(await service.suggest(table_id, token, seat))


@router.post("/{table_id}/rematch")
async def rematch(table_id: str, service: Service, settings: AppSettings, token: Token) -> SeatLink:
    """Your seat at the rematch of this finished game (your seat token of it): the first
    ask makes the rematch, every later one joins it; the link is yours alone."""
    new_id, seat, new_token = await service.rematch(table_id, token)
    return seat_link(settings, service, new_id, seat, new_token)


@router.get("/{table_id}/record")
async def table_record(table_id: str, service: Service) -> TableRecord:
    """A finished game's record, seed included, for ``guildhall verify``."""
    return TableRecord.model_validate(await service.record(table_id))


@router.post("/{table_id}/clock")
async def set_clock(
    table_id: str, body: ClockSettings, request: Request, service: Service, token: Token
) -> TableSummary:
    """Change the clock before the start (the creator's token)."""
    data = await service.set_clock(table_id, token, body.config())
    return await full_summary(request, service, data)


@router.post("/{table_id}/seats/{seat}/time")
async def add_time(
    table_id: str, seat: int, body: AddTime, request: Request, service: Service, token: Token
) -> TableSummary:
    """Give ``seat`` more time (the creator's token); the table's log says so."""
    keeper = request.app.state.clocks
    data = await keeper.add_time(table_id, token, seat, body.seconds)
    return await full_summary(request, service, data)
