"""Strasbourg's how-to-play page (/rules/strasbourg): what it says in a language, the city it
draws, and what the lobby says of the game (the pages of every game:
tests/web/test_rules_pages.py)."""

from __future__ import annotations

import re

import httpx

from server.api import pages
from server.api.howto import rules_games
from tests.support.rules_pages import assert_lobby_says_what_the_game_is, client

__all__ = ["client"]  # a fixture, used by name below


async def test_the_page_is_in_the_chosen_language(client: httpx.AsyncClient) -> None:
    de = await client.get("/rules/strasbourg?lang=de")
    assert "So wird Strasbourg gespielt" in de.text and "Rathaus 6" in de.text
    assert de.cookies.get("gh_lang") == "de"


async def test_the_lobby_says_what_the_game_is(client: httpx.AsyncClient) -> None:
    res = await client.get("/?lang=en")
    assert_lobby_says_what_the_game_is(res.text, "strasbourg", "3–5", "5")


async def test_the_strasbourg_page_draws_the_city_as_the_table_does(
    client: httpx.AsyncClient,
) -> None:
    page = (await client.get("/rules/strasbourg?lang=de")).text
    assert f'href="/static/{pages.ASSET_VERSION}/css/strasbourg.css"' in page
    figure = page.split('<figure class="sb-city card rules-city"')[1].split("</figure>")[0]
    cells = re.findall(r'<div class="sb-cell ([^"]+)">', figure)
    assert len(cells) == 9 * 6
    assert sum("sb-space" in c for c in cells) == 7  # S-2.1
    assert sum("sb-site-br" in c for c in cells) == figure.count("✝") - 1 == 8  # S-2.3
    assert '<span class="sb-letter">Sm</span><span class="sb-price">4</span>' in figure
    assert "Schmiede" in figure  # the legend in the page's language
    # The other games' pages draw no city.
    for other in rules_games():
        if other != "strasbourg":
            text = (await client.get(f"/rules/{other}")).text
            assert "sb-city" not in text and "strasbourg.css" not in text
