"""Choices made on the board, and the phone's bottom sheet.

Each state is reached by the real engine (seeded random play until seat 0 must answer),
then the page is opened on it and the choice is made by tapping the marked place on the
board: goods in the called guild's store (buy) and one's own goods (sell), the thief's
victim's seat card, the bailiff's two tiles, the chief judge's and the duchess's house,
Strasbourg's own stacks. Exactly the listed command is sent on Confirm, the prompt's
buttons stay (and agree), and the board places are out of the tab order. At 390 px the
prompt is a bottom sheet that never covers the places it asks about, folds to a handle,
and the page never scrolls sideways. Screenshots: ``artifacts/board-*.png``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS
from .fake_table import FakeTable
from .test_citizen_prompts import of_type, table_choosing
from .test_promo_prompts import table_waiting_on
from .test_strasbourg_page import StrasbourgFake
from .test_table_client import IDLE, commands_sent, open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

Legal = list[dict[str, Any]]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Where the sheet begins, and every unpicked board place's box (viewport coordinates).
SHEET_AND_PLACES = """() => {
  const sheet = document.getElementById("prompt").getBoundingClientRect();
  const places = [...document.querySelectorAll("#layout .board-pick")].map((el) => {
    const r = el.getBoundingClientRect();
    return { id: el.id, top: r.top, bottom: r.bottom };
  });
  const banner = document.getElementById("banner").getBoundingClientRect().bottom;
  const fixed = getComputedStyle(document.getElementById("prompt")).position;
  return { sheet: sheet.top, banner, places, fixed };
}"""
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"


def acting_table(want: Callable[[Legal], bool], seed: str) -> FakeTable:
    """A Norenberc table where seat 0 acts now and ``want(legal)`` holds; bots frozen."""
    for n in range(300):
        fake = FakeTable(seed=f"{seed}-{n}")
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            seat = min(fake.game.to_act(fake.state))
            legal = fake.game.legal(fake.state, seat)
            if seat == 0 and want(legal):
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake
            fake.state, events = fake.game.apply(fake.state, seat, rng.choice(legal))
            fake.events.extend(events)
    raise AssertionError(f"no seeded game gave seat 0 the wanted choice ({seed})")


def sent(fake: FakeTable) -> Legal:
    return [m["cmd"] for m in commands_sent(fake)]


def confirm(page: Any) -> None:
    page.click("#confirm")
    page.wait_for_function(IDLE)


def out_of_tab_order(page: Any) -> None:
    tabbable = page.eval_on_selector_all(
        "#layout .board-pick", "els => els.filter((e) => e.tabIndex >= 0).map((e) => e.id)"
    )
    assert tabbable == []


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"board-{name}.png"))


def places_clear_of_sheet(page: Any) -> dict[str, Any]:
    """At phone width: the prompt is a fixed sheet and the first place lies above it."""
    seen = page.evaluate(SHEET_AND_PLACES)
    assert seen["fixed"] == "fixed"
    assert seen["places"], "no place is marked on the board"
    first = min(seen["places"], key=lambda p: p["top"])
    assert seen["banner"] - 1 <= first["top"] and first["bottom"] <= seen["sheet"] + 1, seen
    assert page.evaluate(SIDEWAYS) <= 0
    return dict(seen)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_goods_are_bought_by_tapping_the_store(open_table: Any, viewport: dict[str, int]) -> None:
    fake = acting_table(
        lambda legal: any(sum(c["goods"].values()) >= 2 for c in of_type(legal, "buy")),
        "board-buy",
    )
    buys = of_type(fake.game.legal(fake.state, 0), "buy")
    page = open_table(fake, viewport=viewport)
    target = max(buys, key=lambda c: (sum(c["goods"].values()), sorted(c["goods"].items())))
    out_of_tab_order(page)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    for good, n in sorted(target["goods"].items()):
        for _ in range(n):
            page.click(f"#board-buy-{good}")
    # The prompt's steppers show the same basket: the board and the buttons are one draft.
    for good, n in target["goods"].items():
        assert page.inner_text(f"#buy-count-{good}") == str(n)
    assert page.inner_text("#draft-summary").startswith("Buy ")
    shot(page, f"buy-{viewport['width']}")
    assert sent(fake) == []
    confirm(page)
    assert sent(fake) == [target]


def test_selling_is_counted_by_tapping_ones_own_goods(open_table: Any) -> None:
    fake = acting_table(lambda legal: len(of_type(legal, "sell")) >= 2, "board-sell")
    sells = sorted(of_type(fake.game.legal(fake.state, 0), "sell"), key=lambda c: c["count"])
    page = open_table(fake, viewport=DESKTOP)
    good = page.get_attribute("#player-0 .good-pick", "id").removeprefix("board-sell-")
    page.click(f"#board-sell-{good}")
    assert page.get_attribute('[data-focus="sell-1"]', "aria-pressed") == "true"
    page.click(f"#board-sell-{good}")
    assert page.get_attribute(f'[data-focus="sell-{sells[1]["count"]}"]', "aria-pressed") == "true"
    confirm(page)
    assert sent(fake) == [sells[1]]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_thiefs_victim_is_picked_on_their_seat_card(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = table_choosing(
        "steal", lambda legal: len({c["victim"] for c in of_type(legal, "steal")}) >= 2
    )
    steals = of_type(fake.game.legal(fake.state, 0), "steal")
    victims = sorted({c["victim"] for c in steals})
    page = open_table(fake, viewport=viewport)
    marked = page.eval_on_selector_all("#players .player.can", "els => els.map((e) => e.id)")
    assert marked == [f"player-{v}" for v in victims] or sorted(marked) == sorted(
        f"player-{v}" for v in victims
    )
    if viewport is PHONE:
        places_clear_of_sheet(page)
    victim = victims[-1]
    page.click(f"#board-victim-{victim}")
    assert page.get_attribute(f'[data-focus="victim-{victim}"]', "aria-pressed") == "true"
    theirs = [c for c in steals if c["victim"] == victim]
    page.click('[data-focus="steal-0"]')
    shot(page, f"thief-{viewport['width']}")
    confirm(page)
    assert sent(fake) == [theirs[0]]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_bailiffs_two_tiles_are_tapped_on_the_board(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = table_choosing("bailiff", lambda legal: len(of_type(legal, "bailiff")) >= 3)
    swaps = of_type(fake.game.legal(fake.state, 0), "bailiff")
    page = open_table(fake, viewport=viewport)
    every = {tile for c in swaps for tile in c["tiles"]}
    marked = page.eval_on_selector_all(
        "#board .tile-pick", "els => els.map((e) => e.id.slice('board-tile-'.length))"
    )
    assert sorted(marked) == sorted(every)
    out_of_tab_order(page)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    # A swap with the tile the page brought into view first (on a phone, above the sheet).
    top = min(page.evaluate(SHEET_AND_PLACES)["places"], key=lambda p: p["top"])["id"]
    chosen = next(
        c
        for c in reversed(swaps)
        if "board-tile-" + c["tiles"][0] == top or "board-tile-" + c["tiles"][1] == top
    )
    first, second = sorted(chosen["tiles"], key=lambda t: "board-tile-" + t != top)
    page.click(f"#board-tile-{first}")
    # After the first tile, only the tiles a listed swap pairs it with stay marked.
    partners = {t for c in swaps if first in c["tiles"] for t in c["tiles"]}
    marked = page.eval_on_selector_all(
        "#board .tile-pick", "els => els.map((e) => e.id.slice('board-tile-'.length))"
    )
    assert sorted(marked) == sorted(partners)
    assert page.locator("#confirm").is_disabled()
    page.click(f"#board-tile-{second}")
    assert page.inner_text("#draft-summary").startswith("Swap ")
    i = swaps.index(chosen)
    assert page.get_attribute(f'[data-focus="swap-{i}"]', "aria-pressed") == "true"
    shot(page, f"bailiff-{viewport['width']}")
    confirm(page)
    assert sent(fake) == [chosen]


def test_the_chief_judge_is_placed_by_tapping_a_house(open_table: Any) -> None:
    fake = table_choosing("judge_house", lambda legal: len(of_type(legal, "judge_house")) >= 2)
    houses = of_type(fake.game.legal(fake.state, 0), "judge_house")
    page = open_table(fake, viewport=DESKTOP)
    marked = page.eval_on_selector_all("#board .house.can", "els => els.map((e) => e.id)")
    assert sorted(marked) == sorted(f"house-{c['guild']}" for c in houses)
    chosen = houses[-1]
    page.click(f"#board-house-{chosen['guild']}")
    assert page.get_attribute(f'[data-focus="judge-{chosen["guild"]}"]', "aria-pressed") == "true"
    shot(page, "judge-1280")
    confirm(page)
    assert sent(fake) == [chosen]


def test_the_duchess_moves_the_crest_to_a_tapped_house(open_table: Any) -> None:
    fake = table_waiting_on("duchess")
    fake.run_bots = lambda: None  # type: ignore[method-assign]
    moves = of_type(fake.game.legal(fake.state, 0), "duchess")
    page = open_table(fake, viewport=DESKTOP)
    assert page.locator("#board .house.can").count() == len(moves)
    chosen = moves[0]
    page.click(f"#board-house-{chosen['guild']}")
    confirm(page)
    assert sent(fake) == [chosen]


def influence_table() -> StrasbourgFake:
    """Strasbourg: seat 0 (Ada) must reveal a stack now; the bots move no more."""
    for n in range(100):
        fake = StrasbourgFake(["Ada", None, None], f"board-stack-{n}", {})
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            legal = fake.game.legal(fake.state, 0)
            if len(of_type(legal, "reveal")) >= 2:
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake
            fake.play(0, rng.choice([c for c in legal if c["type"] != "wait"]))
    raise AssertionError("no seeded game gave Ada two stacks to reveal")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_strasbourg_stack_is_revealed_by_tapping_it(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = influence_table()
    reveals = of_type(fake.game.legal(fake.state, 0), "reveal")
    page = open_table(fake, viewport=viewport)
    marked = page.eval_on_selector_all("#player-0 .sb-stack.can", "els => els.map((e) => e.id)")
    assert sorted(marked) == sorted(f"board-stack-{c['stack']}" for c in reveals)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    chosen = reveals[-1]
    page.click(f"#board-stack-{chosen['stack']}")
    assert page.get_attribute(f"#reveal-{chosen['stack']}", "aria-pressed") == "true"
    shot(page, f"stack-{viewport['width']}")
    confirm(page)
    assert sent(fake) == [chosen]


def test_the_phone_sheet_folds_to_a_handle_and_opens_for_a_new_question(open_table: Any) -> None:
    fake = acting_table(lambda legal: bool(of_type(legal, "hire")), "board-sheet")
    page = open_table(fake, viewport=PHONE)
    handle = page.locator("#sheet-handle")
    assert handle.get_attribute("aria-expanded") == "true"
    opened = page.evaluate("document.getElementById('prompt').offsetHeight")
    handle.click()
    assert handle.get_attribute("aria-expanded") == "false"
    folded = page.evaluate("document.getElementById('prompt').offsetHeight")
    assert folded < 60 < opened
    assert page.locator("#prompt-card").is_hidden()
    shot(page, "sheet-folded-390")
    # A pick redraws the page; the sheet stays folded for the same question.
    page.click('[data-focus="kind-hire"]') if page.locator(
        '[data-focus="kind-hire"]'
    ).is_visible() else None
    handle.click()
    assert page.locator("#prompt-card").is_visible()
    # The board's own places (guest windows) are above the sheet.
    places_clear_of_sheet(page)
    # A wide window keeps the prompt in the page, without a handle.
    page.set_viewport_size(DESKTOP)
    page.wait_for_function(
        "getComputedStyle(document.getElementById('prompt')).position === 'static'"
    )
    assert page.locator("#sheet-handle").is_hidden()
    assert not page.locator("#prompt-card").is_hidden()


def test_the_page_lets_a_phone_zoom(open_table: Any) -> None:
    fake = FakeTable(seed="zoom")
    page = open_table(fake, viewport=PHONE)
    meta = page.get_attribute('meta[name="viewport"]', "content")
    assert "user-scalable=no" not in meta.replace(" ", "")
    assert "maximum-scale" not in meta
