"""The phone's bottom sheet at 390 x 844: the question and the places it concerns on one screen.

The sheet's rows are dense and its height follows the question: it may grow up to what the
window leaves under the banner and the question's first places on the board, so a hire's
"Pay with" choices (up to six here; four or fewer in nineteen hires of twenty) and every
open chapel corner of Strasbourg fit without scrolling inside it while the guest windows
and the chapel sites stay in view above it. A player who scrolled the page away from the
places is left alone: redraws of the same question (a patch from the table, picks in the
sheet, the sheet growing) ask for no scroll, and what the player looks at stays in place.
Screenshots: ``artifacts/sheet-*.png``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_board_play import PHONE, acting_table, strasbourg_choosing
from .test_citizen_prompts import of_type, table_choosing
from .test_table_client import open_table, pages_server
from .test_whole_games import PLACES

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

Legal = list[dict[str, Any]]

# The sheet's box and whether it scrolls inside itself; the banner's bottom; the boxes of
# the elements ``selector`` names (viewport coordinates).
LAYOUT = """(selector) => {
  const sheet = document.getElementById("prompt");
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { id: el.id, top: r.top, bottom: r.bottom };
  };
  return {
    sheet: box(sheet), scrolls: sheet.scrollHeight > sheet.clientHeight + 1,
    banner: document.getElementById("banner").getBoundingClientRect().bottom,
    height: window.innerHeight, places: [...document.querySelectorAll(selector)].map(box),
  };
}"""


def payments_by_window(legal: Legal) -> dict[int, list[Any]]:
    by: dict[int, list[Any]] = {}
    for c in of_type(legal, "hire"):
        if c["payment"] not in by.setdefault(c["window"], []):
            by[c["window"]].append(c["payment"])
    return by


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"sheet-{name}.png"))


def all_in_view(page: Any, places: str, choices: str) -> dict[str, Any]:
    """The sheet shows every one of ``choices`` (and Confirm) without scrolling, inside the
    window, and every board place of ``places`` lies between the banner and the sheet."""
    seen = page.evaluate(LAYOUT, places)
    assert not seen["scrolls"], seen["sheet"]
    assert seen["sheet"]["bottom"] <= seen["height"] + 1
    assert seen["places"], places
    for place in seen["places"]:
        assert seen["banner"] - 1 <= place["top"] and place["bottom"] <= seen["sheet"]["top"] + 1, (
            place,
            seen["sheet"],
        )
    inside = page.evaluate(LAYOUT, f"{choices}, #confirm")
    for choice in inside["places"]:
        assert seen["sheet"]["top"] <= choice["top"] and choice["bottom"] <= seen["height"], choice
    return dict(seen)


def test_pay_with_fits_the_sheet_with_the_guest_windows_above_it(open_table: Any) -> None:
    fake = acting_table(
        lambda legal: max(map(len, payments_by_window(legal).values()), default=0) >= 4, "sheet-pay"
    )
    by = payments_by_window(fake.game.legal(fake.state, 0))
    window = max(by, key=lambda w: len(by[w]))
    page = open_table(fake, viewport=PHONE)
    page.click('[data-focus="kind-hire"]')
    # The window is tapped on the board, above the sheet.
    guild = fake.game.view(fake.state, 0)["action"]["guild"]
    page.click(f"#board-win-{guild}-{window}")
    assert page.locator('[data-focus^="pay-"]').count() == len(by[window]) >= 4
    shot(page, "pay-with-390")
    all_in_view(page, ".window.can", '[data-focus^="pay-"]')
    page.click('[data-focus="pay-0"]')
    shot(page, "pay-with-picked-390")
    seen = page.evaluate(LAYOUT, '[data-focus^="front-"], #confirm')
    for choice in seen["places"]:
        assert seen["sheet"]["top"] <= choice["top"] and choice["bottom"] <= seen["height"], choice


def test_every_chapel_corner_fits_the_sheet_with_the_city_above_it(open_table: Any) -> None:
    fake, legal = strasbourg_choosing("chapel")
    page = open_table(fake, viewport=PHONE)
    chapels = of_type(legal, "chapel")
    assert page.locator("#prompt-card .opt").count() == len(chapels) >= 2
    all_in_view(page, "button.sb-chapel.can", "#prompt-card .opt")
    shot(page, "chapel-390")


# Records every scroll the page's scripts ask for (window.scrollBy / scrollTo, an element's
# scrollIntoView), so a test tells the page's own scrolls from the player's and the browser's.
WATCH_SCROLLS = """
window.pageScrolls = [];
for (const name of ["scrollBy", "scrollTo", "scroll"]) {
  const own = window[name].bind(window);
  window[name] = (...args) => { window.pageScrolls.push(name); own(...args); };
}
const into = Element.prototype.scrollIntoView;
Element.prototype.scrollIntoView = function (...args) {
  window.pageScrolls.push("scrollIntoView " + this.id);
  into.apply(this, args);
};
"""

# What the player is looking at: the nearest element with an id under a point of the board
# above the sheet (the page draws its board anew, ids stay), and where it stands in the window.
LOOKED_AT = """() => {
  const el = document.elementFromPoint(195, 200).closest("[id]");
  return { id: el.id, top: el.getBoundingClientRect().top };
}"""
STILL_THERE = "(id) => document.getElementById(id).getBoundingClientRect().top"


def settled_scroll(page: Any) -> float:
    """scrollY once it has stopped moving (a wheel scroll runs over a few frames)."""
    last = None
    for _ in range(40):
        y = page.evaluate("window.scrollY")
        if y == last:
            return float(y)
        last = y
        page.wait_for_timeout(50)
    raise AssertionError("the page kept scrolling")


def left_alone(page: Any, looked: dict[str, Any], step: str) -> None:
    """The page asked for no scroll since the player's own, and what the player looks at
    stands where it stood (the browser's scroll anchoring may move scrollY when a card above
    it changes height, keeping it in place)."""
    settled_scroll(page)
    assert page.evaluate("window.pageScrolls") == [], step
    assert abs(page.evaluate(STILL_THERE, looked["id"]) - looked["top"]) <= 2, (looked, step)


def test_a_player_who_scrolled_the_board_away_is_left_alone(
    new_page: Any, pages_server: Any
) -> None:
    fake = acting_table(lambda legal: len(payments_by_window(legal)) >= 2, "sheet-scrolled")
    page = new_page(viewport=PHONE, fresh=True)  # an init script stays on a page
    page.add_init_script(WATCH_SCROLLS)
    fake.serve(page, 0)
    page.goto(f"{pages_server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#sheet-handle")
    brought = settled_scroll(page)
    # The sheet brought the guest windows up: the page's own scroll, before the player's.
    assert brought > 0 and page.evaluate("window.pageScrolls").count("scrollBy") >= 1
    for wheel in (700, -10_000):  # down to the seats and the log, then back to the top
        # The player's own scroll, on the board (above the sheet).
        page.mouse.move(195, 200)
        page.mouse.wheel(0, wheel)
        assert abs(settled_scroll(page) - brought) > 100
        page.evaluate("window.pageScrolls = []")
        looked = page.evaluate(LOOKED_AT)
        # Redraws of the same question: a patch from the table (a seat taken by a person: its
        # card changes), then picks in the sheet, the second of which makes the sheet taller
        # ("Pay with" appears), and Cancel.
        name = f"Bea {wheel}"
        fake.names[1] = name
        fake.version += 1
        fake.broadcast()
        page.wait_for_selector(f"#player-1:has-text('{name}')")
        left_alone(page, looked, "patch")
        page.click('[data-focus="kind-hire"]')
        left_alone(page, looked, "kind")
        page.locator('[data-focus^="win-"]').first.click()
        assert page.locator('[data-focus^="pay-"]').count() >= 1
        left_alone(page, looked, "window")
        page.click("#cancel")
        left_alone(page, looked, "cancel")
    shot(page, "scrolled-away-390")


def test_a_bailiffs_partner_tiles_come_above_the_sheet_whichever_tile_is_tapped_first(
    open_table: Any, new_page: Any
) -> None:
    """Tapping a tile the bailiff may swap keeps it focused and leaves only its partners to
    tap: the page brings them up between the banner and the sheet. The redraw once focused
    the tapped tile again in a way that scrolled it back into view, which left partners far
    down the board under the sheet (one tile in three on this table)."""
    table = table_choosing("bailiff", lambda legal: sum(c["type"] == "bailiff" for c in legal) >= 2)
    page = open_table(copy.deepcopy(table), viewport=PHONE)
    first = page.evaluate(PLACES)
    tappable = [p["id"] for p in first["places"] if p["bottom"] <= first["sheet"]]
    new_page.release(page)
    below = 0  # partners that lay under the sheet before the tap
    for tile in tappable:
        page = open_table(copy.deepcopy(table), viewport=PHONE)
        before = {p["id"]: p["top"] for p in page.evaluate(PLACES)["places"]}
        page.click("#" + tile)
        page.wait_for_selector(f"#{tile}.picked")
        seen = page.evaluate(PLACES)
        partners = seen["places"]
        assert partners and tile not in [p["id"] for p in partners]
        below += before[partners[0]["id"]] >= first["sheet"]
        assert seen["banner"] - 1 <= partners[0]["top"], (tile, seen)
        assert partners[0]["bottom"] <= seen["sheet"] + 1, (tile, seen)
        assert page.evaluate("document.activeElement.id") == tile
        new_page.release(page)
    assert len(tappable) >= 4 and below >= 1, (tappable, below)
