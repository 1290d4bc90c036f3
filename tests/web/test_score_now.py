"""A score one can follow: each Norenberc seat's card shows "if the game ended now" (what
everyone can see) with its breakdown, one's own card adds what one's own talers add, seen by
nobody else; both games' final score tables link each category to its rule.

Real engine views through ``FakeTable``; the rules from the real ``/api/rules/{game}``.
Screenshots ``score-now-<width>.png`` and ``score-end-<game>-<width>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.engine import get_game
from server.games.norenberc.data import components
from tests.support.playout import Seeded, play

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_accessibility import AXE, RUN_AXE, WCAG

pytestmark = pytest.mark.browser
WIDTHS = {"1280": {"width": 1280, "height": 800}, "390": {"width": 390, "height": 844}}
NORENBERC = get_game("norenberc")


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def open_table(new_page: Any, server: ServerThread, fake: FakeTable, width: str) -> Any:
    page = new_page(viewport=WIDTHS[width])
    fake.serve(page, 0)
    page.goto(f"{server.url}/t/fake?lang=en#seat=tok0")
    page.wait_for_selector("#conn[data-state=online]")
    return page


def tax_collector(nth: int) -> str:
    comps = components()
    return [t for t in comps.citizens if comps.tiles[t]["citizen"] == "tax_collector"][nth]


def mid_game(seats: int = 5) -> FakeTable:
    """Five seats well into the game; seats 0 and 2 each own a tax collector and talers
    enough for it to count, so both have a hidden part and only seat 0's may show."""
    fake = FakeTable(seats=seats, seed="score-now")
    record = play(NORENBERC, seats, "score-now", fake.options, Seeded("score-now"), steps=140)
    state = record.final
    assert state is not None and state["phase"] != "over"
    for seat, nth, talers in ((0, 0, 37), (2, 1, 58)):
        for p in state["players"]:
            if tax_collector(nth) in p["citizens"]:
                p["citizens"].remove(tax_collector(nth))
        state["players"][seat]["citizens"].append(tax_collector(nth))
        state["players"][seat]["talers"] = talers
    fake.state = state
    return fake


def shoot_and_check(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    page.evaluate(AXE)
    assert page.evaluate(RUN_AXE, WCAG) == []


@pytest.mark.parametrize("width", ["390", "1280"])
def test_each_card_shows_the_score_if_the_game_ended_now(
    new_page: Any, pages_server: ServerThread, width: str
) -> None:
    fake = mid_game()
    page = open_table(new_page, pages_server, fake, width)
    now = NORENBERC.view(fake.state, 0)["score_now"]
    assert now["own"] == {"citizens": 3}  # seat 0's 37 talers, one tax collector
    for seat, parts in enumerate(now["seats"]):
        total = f"#score-now-{seat} .now-total"
        assert page.inner_text(total) == f"{sum(parts.values())} VP", seat
    # One's own hidden part on one's own card only, and nobody else's anywhere.
    assert page.inner_text("#score-now-0 summary .now-own").strip() == "+ 3 only you see"
    assert page.locator(".score-now:not(#score-now-0) .now-own").count() == 0
    assert page.locator("#score-now-0 .now-own").count() == 2  # the total, and citizens
    assert not page.locator("#score-now-0 .now-own-note").is_visible()  # breakdown closed
    # The breakdown opens with a tap (or Enter on the focused summary).
    page.click("#score-now-1 summary")
    for category, clause in NORENBERC.view(fake.state, 0)["score_rules"].items():
        line = page.locator(f"#score-now-1 li[data-category='{category}']")
        assert line.locator(".rule-link").get_attribute("data-rule") == clause
        if category in now["hidden"]:
            assert "decided at the end" in line.inner_text()
        else:
            assert line.locator(".now-vp").inner_text() == str(now["seats"][1].get(category, 0))
    page.focus("#score-now-0 summary")
    page.keyboard.press("Enter")
    page.wait_for_selector("#score-now-0[open] .now-own-note")
    own = page.locator("#score-now-0 li[data-category='citizens'] .now-own").inner_text().strip()
    assert own == "+ 3 from your talers (only you see this)"
    assert page.locator("#score-now-1 .now-own, #score-now-2 .now-own").count() == 0
    # Five cards fit a phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    page.locator("#players").scroll_into_view_if_needed()
    shoot_and_check(page, f"score-now-{width}")
    for seat in (0, 1):
        card = page.locator(f"#player-{seat}")
        card.screenshot(path=str(ARTIFACTS / f"score-now-card{seat}-{width}.png"))
    # A category's rule opens over the table; the breakdown stays open under it.
    page.click("#score-now-1 li[data-category='majorities'] .rule-link")
    page.wait_for_selector("#rules-panel:not([hidden]) .clause.picked")
    assert page.get_attribute("#rules-panel .clause.picked", "data-clause") == "N-9.2"
    page.keyboard.press("Escape")
    # A new document (a move elsewhere) redraws the cards: what was open stays open.
    fake.version += 1
    fake.broadcast()
    page.wait_for_timeout(50)
    assert page.locator("#score-now-1[open]").count() == 1


def test_another_seats_money_never_reaches_the_page(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = mid_game()
    page = open_table(new_page, pages_server, fake, "1280")
    before = page.inner_text("#players")
    fake.state["players"][2]["talers"] = 99  # seat 2's tax collector would count 9, not 5
    fake.version += 1
    fake.broadcast()
    page.wait_for_timeout(100)
    assert page.inner_text("#players") == before
    assert fake.doc(0)["game"]["score_now"] == NORENBERC.view(fake.state, 0)["score_now"]
    assert "own" not in fake.doc(None)["game"]["score_now"]


def finished(game: str) -> FakeTable:
    seats = 3
    fake = FakeTable(seats=seats, seed=f"score-end-{game}", game=game)
    record = play(fake.game, seats, f"score-end-{game}", fake.options, Seeded("end"))
    assert record.final is not None
    fake.state = record.final
    return fake


@pytest.mark.parametrize(
    ("game", "category", "clause"),
    [("norenberc", "majorities", "N-9.2"), ("strasbourg", "edifices", "S-7.3")],
)
@pytest.mark.parametrize("width", ["390", "1280"])
def test_the_final_score_table_links_each_category_to_its_rule(
    new_page: Any, pages_server: ServerThread, game: str, category: str, clause: str, width: str
) -> None:
    fake = finished(game)
    page = open_table(new_page, pages_server, fake, width)
    page.wait_for_selector("#score-table")
    rules = fake.game.view(fake.state, 0)["score_rules"]
    links = page.eval_on_selector_all(
        "#score-table tbody th .rule-link", "els => els.map(e => e.dataset.rule)"
    )
    assert links == [rules[c] for c in fake.game.view(fake.state, 0)["result"]["breakdown"][0]]
    assert rules[category] == clause
    assert page.locator(".score-now").count() == 0  # the game is over: the result says it all
    page.locator("#scores").scroll_into_view_if_needed()
    shoot_and_check(page, f"score-end-{game}-{width}")
    page.locator("#scores").screenshot(path=str(ARTIFACTS / f"score-table-{game}-{width}.png"))
    page.click(f"#score-table .rule-link[data-rule='{clause}']")
    page.wait_for_selector("#rules-panel:not([hidden]) .clause.picked")
    assert page.get_attribute("#rules-panel .clause.picked", "data-clause") == clause
