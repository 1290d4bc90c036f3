"""How to play: the /rules/{game} pages and their data against docs/rules/, the single source.

A clause added to docs/rules/<game>.md and missing from the pages of any language fails here,
and so does a clause the pages teach that the rules text no longer has.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from server.api import pages
from server.api.howto import RULES_DIR, how_to_play, rules_games, words
from server.resources import ROOT

LANGUAGES = sorted(pages.languages())
# A clause of docs/rules/ is a list item opening with its id in bold: "- **N-5.3a** …".
CLAUSE = re.compile(r"^\s*- \*\*([NS]-[A-Z0-9]+\.[0-9]+[a-z]?)\*\*", re.MULTILINE)


def rules_text_clauses(game: str) -> list[str]:
    return CLAUSE.findall((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    app.include_router(pages.router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


def test_every_game_with_rules_text_has_pages_and_no_other() -> None:
    assert rules_games() == sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md"))
    assert rules_games() == ["norenberc", "strasbourg"]


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_hold_exactly_the_clauses_of_the_rules_text(game: str, lang: str) -> None:
    wanted = rules_text_clauses(game)
    assert len(wanted) > 40 and len(set(wanted)) == len(wanted)
    howto = how_to_play(game, lang)
    shown = [c.id for s in howto.sections for c in s.clauses]
    assert sorted(shown) == sorted(wanted)
    assert all(c.text.strip() for s in howto.sections for c in s.clauses)


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


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
async def test_every_clause_is_an_anchor_on_the_page_in_every_language(
    client: httpx.AsyncClient, game: str
) -> None:
    wanted = set(rules_text_clauses(game))
    for lang in LANGUAGES:
        res = await client.get(f"/rules/{game}?lang={lang}")
        assert res.status_code == 200
        assert f'<html lang="{lang}">' in res.text
        anchors = set(re.findall(r'<li class="clause[^"]*" id="([^"]+)"', res.text))
        assert anchors == wanted, (lang, sorted(anchors ^ wanted))
        for clause in wanted:
            assert f'href="#{clause}"' in res.text


async def test_the_page_is_in_the_chosen_language(client: httpx.AsyncClient) -> None:
    de = await client.get("/rules/strasbourg?lang=de")
    assert "So wird Strasbourg gespielt" in de.text and "Rathaus 6" in de.text
    assert de.cookies.get("gh_lang") == "de"
    client.cookies.clear()  # else the cookie just set would choose German again
    hu = await client.get("/rules/norenberc", headers={"Accept-Language": "hu-HU,hu;q=0.9"})
    assert "Így játszd: Norenberc" in hu.text and "2–5 játékos" in hu.text


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
async def test_the_reconstructed_clauses_are_marked_as_such(
    client: httpx.AsyncClient, game: str
) -> None:
    res = await client.get(f"/rules/{game}?lang=nl")
    marked = set(re.findall(r'<li class="clause reconstructed" id="([^"]+)"', res.text))
    # The rules text says which parts are reconstructed: "(R)" headings, "reconstruct" clauses.
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    expected = set()
    for part in text.split("\n## ")[1:]:
        heading, _, body = part.partition("\n")
        for match in re.finditer(r"- \*\*([^*]+)\*\*(.*(?:\n  .*)*)", body):
            if "(R" in heading or "(R)" in match.group(2) or "econstruct" in match.group(2):
                expected.add(match.group(1))
    assert marked == expected
    assert res.text.count("Gereconstrueerd") == len(marked) + 1  # each mark and the note


async def test_an_unknown_game_gets_a_not_found_page_naming_the_games(
    client: httpx.AsyncClient,
) -> None:
    res = await client.get("/rules/chess?lang=en")
    assert res.status_code == 404
    assert res.headers["content-type"].startswith("text/html")
    assert "There are no rules for that game here" in res.text
    assert 'href="/rules/norenberc"' in res.text and 'href="/rules/strasbourg"' in res.text


async def test_the_rules_as_data_for_the_table_panel(client: httpx.AsyncClient) -> None:
    res = await client.get("/api/rules/norenberc?lang=hu")
    data = res.json()
    assert data["game"] == "norenberc" and data["lang"] == "hu" and data["title"] == "Norenberc"
    assert data["words"]["open"] == "Játékszabály" and data["words"] == words("hu")
    clauses = {c["id"]: c for s in data["sections"] for c in s["clauses"]}
    assert set(clauses) == set(rules_text_clauses("norenberc"))
    assert clauses["N-C.2"]["reconstructed"] and not clauses["N-4.6"]["reconstructed"]
    assert (await client.get("/api/rules/chess")).status_code == 404


async def test_the_lobby_says_what_each_game_is(client: httpx.AsyncClient) -> None:
    res = await client.get("/?lang=en")
    for game, players, rounds in (("norenberc", "2–5", "4 rounds"), ("strasbourg", "3–5", "5")):
        block = res.text.split(f'data-about="{game}"')[1].split("</div>")[0]
        assert len(re.findall(r"<p>[^<]{40,}</p>", block)) == 2  # the two lines
        assert f"{players} players" in block and rounds in block
        assert f'<a href="/rules/{game}">How to play</a>' in block


def test_every_language_has_the_rules_words_of_english() -> None:
    for lang in LANGUAGES:
        assert set(words(lang)) == set(words("en")), lang


def test_a_rules_word_with_other_placeholders_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "en.json").write_text((RULES_DIR / "en.json").read_text(encoding="utf-8"))
    german = (RULES_DIR / "de.json").read_text(encoding="utf-8")
    (tmp_path / "de.json").write_text(german.replace("{game}", "{spiel}"), encoding="utf-8")
    monkeypatch.setattr("server.api.howto.RULES_DIR", tmp_path)
    words.cache_clear()
    try:
        with pytest.raises(ValueError, match="title"):
            words("de")
    finally:
        words.cache_clear()


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
    norenberc = (await client.get("/rules/norenberc")).text
    assert "sb-city" not in norenberc and "strasbourg.css" not in norenberc


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
