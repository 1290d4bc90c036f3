"""The rules at the table: the prompt's "rule" link, a refusal's, and the top bar's "How to
play" open the game's rules in a panel over the table at that clause, never navigating away.

The pages are the real shells with real engine views (``FakeTable``); the rules come from
the real ``/api/rules/{game}``. Screenshots ``rules-panel-<game>-<width>.png``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from server.api.howto import how_to_play

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_accessibility import AXE, RUN_AXE, WCAG

pytestmark = pytest.mark.browser
WIDTHS = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}


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


def clauses_of(game: str) -> set[str]:
    return {c.id for s in how_to_play(game, "en").sections for c in s.clauses}


def open_from(page: Any, selector: str) -> str:
    """Click ``selector`` (a rule link) and return the clause the panel marks."""
    url = page.url
    page.click(selector)
    page.wait_for_selector("#rules-panel:not([hidden]) .clause")
    assert page.url == url  # the table is still the page
    assert page.evaluate("document.activeElement.id") == "rules-panel"
    return str(page.get_attribute("#rules-panel .clause.picked", "data-clause"))


def shoot_and_check(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.evaluate(AXE)
    assert page.evaluate(RUN_AXE, WCAG) == []


@pytest.mark.parametrize("width", ["390", "1280"])
def test_the_prompt_links_its_rule_and_the_panel_opens_it_over_the_table(
    new_page: Any, pages_server: ServerThread, width: str
) -> None:
    fake = FakeTable(seed="rule-link")
    page = open_table(new_page, pages_server, fake, width)
    rule = fake.game.view(fake.state, 0)["rule"]
    assert rule == "N-4.1"
    link = f"#prompt-card .rule-link[data-rule='{rule}']"
    assert page.get_attribute(link, "href") == f"/rules/norenberc#{rule}"
    page.screenshot(path=str(ARTIFACTS / f"rules-prompt-norenberc-{width}.png"))
    assert open_from(page, link) == rule
    text = page.inner_text("#rules-panel .clause.picked")
    assert "at most one card per guild" in text
    assert page.inner_text("#rules-panel-title") == "How to play Norenberc"
    shoot_and_check(page, f"rules-panel-norenberc-{width}")
    page.keyboard.press("Escape")
    assert page.locator("#rules-panel").is_hidden()
    assert page.evaluate("document.activeElement.getAttribute('data-rule')") == rule


def test_a_refusal_names_its_rule_and_opens_it(new_page: Any, pages_server: ServerThread) -> None:
    fake = FakeTable(seed="rule-refused")
    page = open_table(new_page, pages_server, fake, "1280")
    page.locator(".guild-cards .opt").first.click()
    # Meanwhile the seat's plan was sealed elsewhere (another tab): the engine refuses this one.
    fake.state, _ = fake.game.apply(fake.state, 0, {"type": "plan", "guilds": [1]})
    page.click("#confirm")
    page.wait_for_selector(".notice.error .rule-link")
    assert page.get_attribute(".notice.error .rule-link", "data-rule") == "N-4.4"
    assert open_from(page, ".notice.error .rule-link") == "N-4.4"


@pytest.mark.parametrize("width", ["390", "1280"])
def test_how_to_play_opens_the_rules_from_the_start(
    new_page: Any, pages_server: ServerThread, width: str
) -> None:
    """The top bar's "?" on a desktop; on a phone, whose top bar has no room, the link that
    heads the side column. Either way the page never scrolls sideways."""
    fake = FakeTable(seed="rule-top", game="strasbourg")
    page = open_table(new_page, pages_server, fake, width)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width]["width"]
    page.click("#rules-open" if width == "1280" else ".rules-aside a")
    page.wait_for_selector("#rules-panel:not([hidden]) .clause")
    shown = set(
        page.eval_on_selector_all("#rules-panel .clause", "els => els.map(e => e.dataset.clause)")
    )
    assert shown == clauses_of("strasbourg")
    assert page.locator("#rules-panel .clause.picked").count() == 0
    page.click("#rules-panel-close")
    assert page.locator("#rules-panel").is_hidden()


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
def test_every_prompt_of_a_game_links_a_rule_that_exists(
    new_page: Any, pages_server: ServerThread, game: str
) -> None:
    """The prompts a seat meets over a game, each with a rule link to a clause of the rules."""
    fake = FakeTable(seed=f"rule-every-{game}", game=game)
    page = open_table(new_page, pages_server, fake, "1280")
    rules, rng, seen = clauses_of(game), random.Random(game), set()
    for step in range(30):
        legal = fake.game.legal(fake.state, 0)
        if not legal:
            break
        rule = fake.game.view(fake.state, 0)["rule"]
        # A summary that opened by itself holds the prompt behind its card: read, go on.
        page.wait_for_selector(f"#prompt-card .rule-link[data-rule='{rule}'], #summary-continue")
        if page.locator("#summary-continue").count():
            page.click("#summary-continue")
        page.wait_for_selector(f"#prompt-card .rule-link[data-rule='{rule}']")
        assert rule in rules
        seen.add(rule)
        if step == 12:
            page.screenshot(path=str(ARTIFACTS / f"rules-prompt-{game}-1280.png"))
        fake.play(0, rng.choice(legal))
        fake.broadcast()
    assert len(seen) >= 3
