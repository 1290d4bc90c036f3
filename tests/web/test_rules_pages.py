"""How to play: the /rules/{game} pages and their data against docs/rules/, the single source,
for every game this build hosts (``tests/support/games.py``).

A clause added to docs/rules/<game>.md and missing from the pages of any language fails here,
and so does a clause the pages teach that the rules text no longer has. What a game's own page
says and draws, each game's tests say (``tests/games/<game>/``).
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from server.api.howto import RULES_DIR, how_to_play, rules_games, words
from server.resources import ROOT
from tests.support import games
from tests.support.rules_pages import LANGUAGES, client, rules_text_clauses

__all__ = ["client"]  # a fixture, used by name below


def test_every_game_with_rules_text_has_pages_and_no_other() -> None:
    assert rules_games() == sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md"))
    assert rules_games() == games.shipped()


@pytest.mark.parametrize("game", games.shipped())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_hold_exactly_the_clauses_of_the_rules_text(game: str, lang: str) -> None:
    wanted = rules_text_clauses(game)
    assert len(wanted) > 40 and len(set(wanted)) == len(wanted)
    howto = how_to_play(game, lang)
    shown = [c.id for s in howto.sections for c in s.clauses]
    assert sorted(shown) == sorted(wanted)
    assert all(c.text.strip() for s in howto.sections for c in s.clauses)


@pytest.mark.parametrize("game", games.shipped())
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


@pytest.mark.parametrize("game", games.shipped())
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
    for game in games.shipped():
        assert f'href="/rules/{game}"' in res.text


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
