"""The table's states in every language, at 1280 and 390 px, as a player sees them.

Cheap stand-ins for the whole games of test_whole_games.py (which play in English): each
state is reached by seeded play of the real engine behind a routed websocket. Per game,
language and width: a choice on the board (Norenberc: the bailiff's first tile tapped;
Strasbourg: a stack tapped), a change another player made glowing with the digest, the
round's (council's) summary, the final scores, and the replay at round 3. Each page is
checked for untranslated keys and sideways scrolling. ``make test`` runs every language at
390 px, ``make soak`` at 1280 px as well. Screenshots:
``artifacts/states-<game>-<state>-<lang>-<width>.png`` (the viewport, as on the device).
"""

from __future__ import annotations

import copy
import functools
import re
from typing import Any

import pytest

from server.api.replay import replay_game

from .conftest import ARTIFACTS
from .fake_table import FakeTable
from .test_after_the_game import finished
from .test_board_play import influence_table
from .test_citizen_prompts import table_choosing
from .test_strasbourg_page import StrasbourgFake
from .test_summaries import others_play, table_before
from .test_table_client import AUTOPLAY, IDLE, open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

LOCALES = {"en": "en-GB", "hu": "hu-HU", "nl": "nl-NL", "de": "de-DE"}
VIEWPORTS = {1280: {"width": 1280, "height": 900}, 390: {"width": 390, "height": 844}}
RAW_KEY = re.compile(r"\b(sb|score|player|prompt|log|summary|sheet|board|guild_letter)\.[a-z_]+\b")


@functools.cache
def finished_game(game: str) -> FakeTable:
    return finished(game, f"states-{game}")


# The seeded searches run once; each page gets its own copy of the table they found.
@functools.cache
def choosing(game: str) -> FakeTable:
    if game == "norenberc":
        return table_choosing(
            "bailiff", lambda legal: sum(c["type"] == "bailiff" for c in legal) >= 2
        )
    return influence_table()


@functools.cache
def before_summary(game: str) -> tuple[FakeTable, int, dict[str, Any]]:
    trigger = "RoundEnded" if game == "norenberc" else "CouncilScored"
    return table_before(game, trigger, f"states-summary-{game}")


def shot(page: Any, game: str, state: str, lang: str, width: int) -> None:
    text = page.inner_text("#layout")
    assert not RAW_KEY.search(text), RAW_KEY.search(text)
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.screenshot(path=str(ARTIFACTS / f"states-{game}-{state}-{lang}-{width}.png"))


def board_choice(open_table: Any, game: str, lang: str, width: int) -> Any:
    fake = copy.deepcopy(choosing(game))
    page = open_table(fake, viewport=VIEWPORTS[width], locale=LOCALES[lang])
    page.wait_for_selector("#layout .board-pick")
    top = page.evaluate(
        """() => [...document.querySelectorAll("#layout .board-pick")]
          .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0].id"""
    )
    page.click("#" + top)
    assert page.locator("#layout .board-pick.picked").count() == 1
    shot(page, game, "board", lang, width)
    return page


def glow(open_table: Any, game: str, lang: str, width: int) -> Any:
    if game == "norenberc":
        fake = FakeTable(seed="states-glow")
        page = open_table(fake, viewport=VIEWPORTS[width], locale=LOCALES[lang])
        for _ in range(20):
            assert page.evaluate(AUTOPLAY, ["sell", "buy", "hire"])
            page.wait_for_function(IDLE)
            page.wait_for_selector(".banner.mine")
            if page.locator("#layout .changed").count() and page.locator("#digest-card").count():
                break
    else:
        fake = StrasbourgFake(["Ada", None, None], "states-glow", {})
        page = open_table(fake, viewport=VIEWPORTS[width], locale=LOCALES[lang])
        page.locator("#prompt-card input[type=checkbox]").first.check()
        page.click("#confirm")
        page.wait_for_selector("#sb-draw")
        for _ in range(8):  # draw, stop, split, seal: then the bots' planning shows
            if page.locator("#digest-card").count() and page.locator("#layout .changed").count():
                break
            for button in ("#sb-draw", "#sb-stop", "#sb-rest-stack", "#sb-seal"):
                if page.locator(button).count():
                    page.click(button)
                    break
            page.wait_for_function(IDLE)
    assert page.locator("#digest-card li").count() >= 1
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, game, "glow", lang, width)
    return page


def summary(open_table: Any, game: str, lang: str, width: int) -> Any:
    fake, seat, cmd = copy.deepcopy(before_summary(game))
    page = open_table(fake, viewport=VIEWPORTS[width], locale=LOCALES[lang])
    page.wait_for_selector("#players .player")
    others_play(fake, seat, cmd)
    page.wait_for_selector("#summary:not([hidden])")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, game, "summary", lang, width)
    return page


def after(new_page: Any, server: Any, game: str, lang: str, width: int) -> Any:
    page = new_page(viewport=VIEWPORTS[width], locale=LOCALES[lang])
    fake = finished_game(game)
    fake.serve(page, 0)
    replayed = replay_game(fake.record())
    page.route(
        re.compile(r".*/api/tables/fake/replay/\d+$"),
        lambda route: route.fulfill(json=replayed.answer(int(route.request.url.rsplit("/", 1)[1]))),
    )
    page.goto(f"{server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#score-table")
    page.evaluate("document.getElementById('scores').scrollIntoView()")
    shot(page, game, "final", lang, width)
    page.click("#replay-start")
    page.wait_for_selector("#replay-round")
    third = str(replayed.rounds[2]["step"])
    page.select_option("#replay-round", third)
    page.wait_for_selector(f"#replay-step >> text=/{third}/")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, game, "replay", lang, width)
    return page


# The phone is where a longer word breaks a line or pushes the page sideways: every language
# is checked there in ``make test``; the desktop width of every language in ``make soak``.
WIDTHS = [pytest.param(1280, marks=pytest.mark.soak), 390]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
def test_every_state_in_every_language(
    open_table: Any, new_page: Any, pages_server: Any, game: str, lang: str, width: int
) -> None:
    # One state after another on one page: each is done with it before the next loads.
    new_page.release(board_choice(open_table, game, lang, width))
    new_page.release(glow(open_table, game, lang, width))
    new_page.release(summary(open_table, game, lang, width))
    new_page.release(after(new_page, pages_server, game, lang, width))
