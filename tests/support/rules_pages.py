"""The rules pages (``/rules/{game}``, ``/api/rules/{game}``) served in-process, for the rules
page tests (``tests/web/test_rules_pages.py`` across the games, each game's own in
``tests/games/<game>/``)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from server.api import pages
from server.resources import ROOT

LANGUAGES = sorted(pages.languages())
# A clause of docs/rules/ is a list item opening with its id in bold: "- **N-5.3a** …".
CLAUSE = re.compile(r"^\s*- \*\*([NS]-[A-Z0-9]+\.[0-9]+[a-z]?)\*\*", re.MULTILINE)


def rules_text_clauses(game: str) -> list[str]:
    """The clause ids of docs/rules/<game>.md, in order."""
    return CLAUSE.findall((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    """A client of an app serving the pages' routes only."""
    app = FastAPI()
    app.include_router(pages.router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


def lobby_block(lobby: str, game: str) -> str:
    """What the lobby page says about ``game`` (its ``data-about`` block)."""
    return lobby.split(f'data-about="{game}"')[1].split("</div>")[0]


def assert_lobby_says_what_the_game_is(lobby: str, game: str, players: str, rounds: str) -> None:
    """The block holds the game's two lines, its player count and rounds, and the link to its
    rules page."""
    block = lobby_block(lobby, game)
    assert len(re.findall(r"<p>[^<]{40,}</p>", block)) == 2  # the two lines
    assert f"{players} players" in block and rounds in block
    assert f'<a href="/rules/{game}">How to play</a>' in block
