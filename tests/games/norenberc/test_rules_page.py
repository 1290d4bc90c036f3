"""Norenberc's how-to-play page (/rules/norenberc) and its data: what it says in a language,
what it draws, what the lobby says of the game, and a language file that drops a clause (the
pages of every game: tests/web/test_rules_pages.py)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from server.api.howto import RULES_DIR, how_to_play, words
from tests.support.rules_pages import assert_lobby_says_what_the_game_is, client, rules_text_clauses

__all__ = ["client"]  # a fixture, used by name below


def test_a_language_file_that_drops_a_clause_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "norenberc"
    folder.mkdir()
    (folder / "layout.json").write_text((RULES_DIR / "norenberc" / "layout.json").read_text())
    english = (RULES_DIR / "norenberc" / "en.json").read_text(encoding="utf-8")
    (folder / "en.json").write_text(re.sub(r'\n    "N-4\.6": .*', "", english), encoding="utf-8")
    monkeypatch.setattr("server.api.howto.RULES_DIR", tmp_path)
    how_to_play.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"N-4\.6"):
            how_to_play("norenberc", "en")
    finally:
        how_to_play.cache_clear()


async def test_the_page_is_in_the_language_the_browser_asks_for(
    client: httpx.AsyncClient,
) -> None:
    hu = await client.get("/rules/norenberc", headers={"Accept-Language": "hu-HU,hu;q=0.9"})
    assert "Így játszd: Norenberc" in hu.text and "2–5 játékos" in hu.text


async def test_the_rules_as_data_for_the_table_panel(client: httpx.AsyncClient) -> None:
    res = await client.get("/api/rules/norenberc?lang=hu")
    data = res.json()
    assert data["game"] == "norenberc" and data["lang"] == "hu" and data["title"] == "Norenberc"
    assert data["words"]["open"] == "Játékszabály" and data["words"] == words("hu")
    clauses = {c["id"]: c for s in data["sections"] for c in s["clauses"]}
    assert set(clauses) == set(rules_text_clauses("norenberc"))
    assert clauses["N-C.2"]["reconstructed"] and not clauses["N-4.6"]["reconstructed"]
    assert (await client.get("/api/rules/chess")).status_code == 404


async def test_the_lobby_says_what_the_game_is(client: httpx.AsyncClient) -> None:
    res = await client.get("/?lang=en")
    assert_lobby_says_what_the_game_is(res.text, "norenberc", "2–5", "4 rounds")


async def test_the_norenberc_page_draws_a_guild_house_as_the_table_does(
    client: httpx.AsyncClient,
) -> None:
    page = (await client.get("/rules/norenberc?lang=nl")).text
    figure = page.split('<figure class="rules-house"')[1].split("</figure>")[0]
    assert '<article class="house gh-1" aria-hidden="true">' in figure
    windows = re.findall(r'<li class="window"><span class="wcost">([^<]+)</span>', figure)
    assert windows == ["1 eigen", "1 eigen + 1 willekeurig", *windows[2:]] and len(windows) == 4
    assert figure.count('class="tile craftsman') >= 6 and 'class="tile citizen' in figure
    assert 'class="tile empty' in figure  # window 1 starts empty (N-2.9)
    assert "Een gildehuis aan het begin van het spel" in figure
