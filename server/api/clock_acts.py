"""Table acts on the clock (docs/clocks.md): pause by agreement, resume, "away until", nudge
and the vote to hand a silent seat to a bot. Each needs the seat token of a person at the
table; ``server.timekeeping.acts`` decides, these routes only carry the request."""

from __future__ import annotations

from fastapi import APIRouter, Request

from server.timekeeping.acts import ClockActs

from .deps import Service, Token
from .models import AnswerPause, AwayUntil, ProposePause, TableSummary
from .tables import ERRORS, full_summary

router = APIRouter(prefix="/api/tables", tags=["clock"], responses=ERRORS)  # type: ignore[arg-type]


def _acts(request: Request) -> ClockActs:
    acts: ClockActs = request.app.state.clock_acts
    return acts


@router.post("/{table_id}/pause")
async def propose_pause(
    table_id: str, body: ProposePause, request: Request, service: Service, token: Token
) -> TableSummary:
    """Propose a pause, optionally until a date; it starts once every person agrees."""
    data = await _acts(request).propose_pause(table_id, token, body.until)
    return await full_summary(request, service, data)


@router.post("/{table_id}/pause/agree")
async def agree_pause(
    table_id: str, body: AnswerPause, request: Request, service: Service, token: Token
) -> TableSummary:
    """Agree to the open pause proposal (by its id)."""
    data = await _acts(request).agree_pause(table_id, token, body.proposal)
    return await full_summary(request, service, data)


@router.post("/{table_id}/pause/decline")
async def decline_pause(
    table_id: str, body: AnswerPause, request: Request, service: Service, token: Token
) -> TableSummary:
    """Decline the open pause proposal (the proposer: withdraw it); it ends."""
    data = await _acts(request).decline_pause(table_id, token, body.proposal)
    return await full_summary(request, service, data)


@router.post("/{table_id}/resume")
async def resume(table_id: str, request: Request, service: Service, token: Token) -> TableSummary:
    """End the pause now (any person at the table)."""
    data = await _acts(request).resume(table_id, token)
    return await full_summary(request, service, data)


@router.post("/{table_id}/seats/{seat}/away")
async def set_away(
    table_id: str, seat: int, body: AwayUntil, request: Request, service: Service, token: Token
) -> TableSummary:
    """Show your seat as away until a date (null: back); over-days tables."""
    data = await _acts(request).set_away(table_id, token, seat, body.until)
    return await full_summary(request, service, data)


@router.post("/{table_id}/seats/{seat}/nudge")
async def nudge(
    table_id: str, seat: int, request: Request, service: Service, token: Token
) -> TableSummary:
    """Remind a silent player of an untimed table that it is their move."""
    data = await _acts(request).nudge(table_id, token, seat)
    return await full_summary(request, service, data)


@router.post("/{table_id}/seats/{seat}/vote")
async def vote_hand_over(
    table_id: str, seat: int, request: Request, service: Service, token: Token
) -> TableSummary:
    """Vote to hand a seat silent for a day (untimed tables) to a bot until its player is back."""
    data = await _acts(request).vote_hand_over(table_id, token, seat)
    return await full_summary(request, service, data)
