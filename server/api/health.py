"""Health, the list of games, and process metrics."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from server import metrics
from server.engine import get_manifest
from server.engine.registry import KNOWN_GAMES

from .models import GameInfo, GameList

router = APIRouter()


@router.get("/healthz", tags=["health"])
async def healthz() -> dict[str, str]:
    """Liveness: answers while the process serves requests."""
    return {"status": "ok"}


def game_list() -> GameList:
    """Every game this build hosts, each by its manifest (``server.engine.manifest``)."""
    games = []
    for name in KNOWN_GAMES:  # the games this build hosts (not a test's or a load test's)
        try:
            manifest = get_manifest(name)
        except Exception:  # a game still being written must not take the list down
            continue
        games.append(GameInfo.model_validate(manifest.public()))
    return GameList(games=games)


@router.get("/api/games", tags=["games"])
async def list_games() -> GameList:
    """Every game this server hosts: its manifest (seat range, default options, the options'
    schema the lobby draws, page module, dictionary prefixes, score categories)."""
    return game_list()


@router.get("/metrics", tags=["health"])
async def metrics_text() -> Response:
    """Process metrics in the Prometheus text format, with the CPU spent on views and patches."""
    return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)
