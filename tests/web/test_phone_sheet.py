"""The phone's bottom sheet at 390 x 844: the question and the places it concerns on one screen.

The sheet's rows are dense and its height follows the question: it may grow up to what the
window leaves under the banner and the question's first places on the board, so a hire's
"Pay with" choices (up to six here; four or fewer in nineteen hires of twenty) and every
open chapel corner of Strasbourg fit without scrolling inside it while the guest windows
and the chapel sites stay in view above it. Screenshots: ``artifacts/sheet-*.png``.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_board_play import PHONE, acting_table, strasbourg_choosing
from .test_citizen_prompts import of_type
from .test_table_client import open_table, pages_server

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
