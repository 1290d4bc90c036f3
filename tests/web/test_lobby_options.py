"""The lobby draws each game's table options from its manifest (``/api/games``), naming no
game itself: ordered planning in each game's own order (Norenberc: the last in play order
first; Strasbourg: the starting player, then clockwise), and an option only one game has
(Norenberc's promo) shown for that game alone, never greyed for another without a reason.
The page is the real lobby with ``/api/games`` routed to the real manifests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from server.api.health import game_list
from server.api.pages import page_strings

from .conftest import ARTIFACTS, ServerThread
from .fake_table import pages_app

pytestmark = pytest.mark.browser
GAMES: list[dict[str, Any]] = game_list().model_dump(by_alias=True, mode="json")["games"]
BY_NAME = {g["name"]: g for g in GAMES}


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def lobby(new_page: Any, server: ServerThread, lang: str, width: int = 390) -> Any:
    page = new_page(viewport={"width": width, "height": 844 if width < 600 else 800})
    page.route(re.compile(r".*/api/games$"), lambda route: route.fulfill(json={"games": GAMES}))
    page.route(re.compile(r".*/api/tables$"), lambda route: route.fulfill(json={"tables": []}))
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector(f"#game option[value={GAMES[-1]['name']}]", state="attached")
    return page


def shown_options(page: Any) -> dict[str, list[str]]:
    """What the form offers now: each option's key with its label and its choices' texts."""
    return dict(
        page.eval_on_selector_all(
            "#create-form [data-option]",
            """els => els.filter(e => e.offsetParent !== null).map(e => [
                 e.dataset.option,
                 [(e.querySelector('legend') || e.closest('label')).textContent.trim(),
                  ...[...e.querySelectorAll('input[type=radio]')].map(
                     r => r.closest('label').textContent.trim())]])""",
        )
    )


def expected_options(game: dict[str, Any], lang: str) -> dict[str, list[str]]:
    strings = page_strings(lang)
    return {
        o["key"]: [strings[o["label"]], *(strings[c["label"]] for c in o.get("choices") or [])]
        for o in game["schema"]
    }


@pytest.mark.parametrize("lang", ["en", "de", "hu", "nl"])
def test_the_lobby_offers_each_game_the_options_of_its_manifest(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    page = lobby(new_page, pages_server, lang)
    assert page.input_value("#game") == GAMES[0]["name"]
    for game in [*GAMES, GAMES[0]]:
        page.select_option("#game", game["name"])
        assert shown_options(page) == expected_options(game, lang), game["name"]
    # Texts that differ between games (whose order planning follows) differ in every language.
    for key in {o["key"] for g in GAMES for o in g["schema"]}:
        offering = [g for g in GAMES if key in expected_options(g, lang)]
        texts = {tuple(expected_options(g, lang)[key]) for g in offering}
        keys = {json.dumps(next(o for o in g["schema"] if o["key"] == key)) for g in offering}
        assert len(texts) == len(keys), (lang, key)


def test_an_option_one_game_lacks_is_hidden_and_off_for_it_and_sent_as_set(
    new_page: Any, pages_server: ServerThread
) -> None:
    page = lobby(new_page, pages_server, "en")
    flags = {(g["name"], o["key"]) for g in GAMES for o in g["schema"] if o["type"] == "bool"}
    assert flags, "no game offers a yes/no option"
    sent: list[dict[str, Any]] = []

    def create(route: Any) -> None:
        if route.request.method != "POST":
            route.fulfill(json={"tables": []})
            return
        sent.append(route.request.post_data_json)
        route.fulfill(status=201, json={"table_id": "t1", "token": "k", "seat": 0, "invite": "i"})

    page.route(re.compile(r".*/api/tables$"), create)
    page.route(re.compile(r".*/api/tables/mine$"), lambda route: route.fulfill(json={"tables": []}))
    page.route(
        re.compile(r".*/api/tables/t1$"),
        lambda route: route.fulfill(json={"seats": [], "status": "open", "clock": None}),
    )
    page.fill("#player-name", "Ann")
    for name, key in sorted(flags):
        page.select_option("#game", name)
        page.check(f"#option-{key}")
        others = [g["name"] for g in GAMES if key not in {o["key"] for o in g["schema"]}]
        for other in others:
            page.select_option("#game", other)
            assert page.locator(f"#option-{key}").count() == 0
            page.screenshot(path=str(ARTIFACTS / f"lobby-{other}-390.png"), full_page=True)
        page.select_option("#game", name)
        assert not page.is_checked(f"#option-{key}"), "a box is ticked by the player each time"
        page.check(f"#option-{key}")
        page.click("#create-button")
        page.wait_for_selector("#created-card:not([hidden])")
        page.click("#another")
        assert sent[-1]["game"] == name and sent[-1]["options"][key] is True
        ordered = BY_NAME[name]["schema"][0]
        assert sent[-1]["options"][ordered["key"]] == ordered["default"]


@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_form_of_every_game_looks_right(
    new_page: Any, pages_server: ServerThread, width: int
) -> None:
    page = lobby(new_page, pages_server, "en", width)
    for game in GAMES:
        page.select_option("#game", game["name"])
        for el in page.query_selector_all("#create-form [data-option]"):
            box = el.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, game["name"]
        page.screenshot(
            path=str(ARTIFACTS / f"lobby-options-{game['name']}-{width}.png"), full_page=True
        )


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
