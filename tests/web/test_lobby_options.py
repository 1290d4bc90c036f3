"""The lobby's table options say what the chosen game does: ordered planning in each game's
own order (Norenberc: the last in play order first; Strasbourg: the starting player, then
clockwise), and the Norenberc-only promo is offered for Norenberc alone, never shown greyed
for another game without a reason. The page is the real lobby with ``/api/games`` routed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, ServerThread
from .fake_table import pages_app

pytestmark = pytest.mark.browser
GAMES = [
    {"name": "norenberc", "title": "Norenberc", "min_seats": 2, "max_seats": 5},
    {"name": "strasbourg", "title": "Strasbourg", "min_seats": 3, "max_seats": 5},
]


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def lobby(new_page: Any, server: ServerThread, lang: str) -> Any:
    page = new_page(viewport={"width": 390, "height": 844})
    page.route(re.compile(r".*/api/games$"), lambda route: route.fulfill(json={"games": GAMES}))
    page.route(re.compile(r".*/api/tables$"), lambda route: route.fulfill(json={"tables": []}))
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("#game option[value=strasbourg]", state="attached")
    return page


def ordered_label(page: Any) -> str:
    return str(page.inner_text("label:has(input[name=planning][value=ordered])")).strip()


def test_the_lobby_says_each_games_own_planning_order_and_offers_the_promo_only_for_norenberc(
    new_page: Any, pages_server: ServerThread
) -> None:
    page = lobby(new_page, pages_server, "en")
    assert page.input_value("#game") == "norenberc"
    assert ordered_label(page) == "Plan one after another, in reverse play order"
    assert page.is_visible("#promo") and page.is_enabled("#promo")
    page.check("#promo")
    page.select_option("#game", "strasbourg")
    assert ordered_label(page) == "Plan one after another, from the starting player clockwise"
    assert not page.is_visible("#promo") and not page.is_checked("#promo")
    page.screenshot(path=str(ARTIFACTS / "lobby-strasbourg-390.png"), full_page=True)
    page.select_option("#game", "norenberc")
    assert ordered_label(page) == "Plan one after another, in reverse play order"
    assert page.is_visible("#promo")


@pytest.mark.parametrize("lang", ["de", "hu", "nl"])
def test_every_language_says_the_two_orders_apart(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    page = lobby(new_page, pages_server, lang)
    norenberc = ordered_label(page)
    page.select_option("#game", "strasbourg")
    assert ordered_label(page) != norenberc


def test_bots_are_offered_by_how_hard_they_play_with_a_line_on_each(
    new_page: Any, pages_server: ServerThread
) -> None:
    page = lobby(new_page, pages_server, "en")
    options = page.eval_on_selector_all(
        "#seat-kind-1 option", "els => els.map(e => [e.value, e.textContent])"
    )
    # The API's kinds stay what they are; only what a player reads changes.
    assert options == [
        ["human", "Human"],
        ["random", "Bot (easy)"],
        ["greedy", "Bot (medium)"],
        ["mcts", "Bot (hard)"],
    ]
    lines = page.locator("#bot-levels li").all_inner_texts()
    assert [line.split(":")[0] for line in lines] == ["Easy", "Medium", "Hard"]
    form = page.inner_text("#create-card").lower()
    assert not re.search(r"\b(greedy|mcts|strong)\b|\(random\)", form), form
