"""Health, the list of games, and process metrics."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from server import metrics
from server.engine import get_game
from server.engine.registry import KNOWN_GAMES

from .models import GameInfo, GameList

router = APIRouter()


@router.get("/healthz", tags=["health"])
async def healthz() -> dict[str, str]:
    """Liveness: answers while the process serves requests."""
    return {"status": "ok"}


@router.get("/api/games", tags=["games"])
async def list_games() -> GameList:
    """Every game this server hosts, with its seat range and default options."""
    games = []
    for name in KNOWN_GAMES:
        try:
            game = get_game(name)
        except Exception:  # a game still being written must not take the list down
            continue
        games.append(
            GameInfo(
                name=game.name,
                title=game.title,
                min_seats=game.min_seats,
                max_seats=game.max_seats,
                options=game.default_options(),
            )
        )
    return GameList(games=games)


@router.get("/metrics", tags=["health"])
async def metrics_text() -> Response:
    """Process metrics in the Prometheus text format, with the CPU spent on views and patches."""
    return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)
