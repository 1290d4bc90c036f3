"""Strasbourg's city: chapel marks leave every space's letter and price readable, and chapel
corners are named the way a player reads the city.

A chapel site sits on the corner where four spaces meet, which is where one space's price
(bottom right) and another's letter (top left) stand: no mark, open or built, may overlap
either, at 390 px and at 1280 px. Screenshots: ``artifacts/city-*.png`` (the grid at twice
the pixels, to be looked at closely).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_board_play import DESKTOP, PHONE, strasbourg_choosing
from .test_table_client import open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

# Every chapel mark on the city and every letter and price that one of them overlaps.
OVERLAPS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const marks = [...document.querySelectorAll("#sb-grid + .sb-chapels .sb-chapel")];
  const texts = [...document.querySelectorAll("#sb-grid .sb-letter, #sb-grid .sb-price")];
  const hits = [];
  marks.forEach((m) => {
    const a = box(m);
    texts.forEach((t) => {
      const b = box(t);
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5) {
        hits.push(`${m.className} ${m.dataset.watch} over ${t.className} of ${t.parentElement.id}`);
      }
    });
  });
  const shown = marks.filter((m) => m.classList.contains("can") || m.classList.contains("built"));
  return { marks: shown.length, open: marks.filter((m) => m.classList.contains("can")).length,
    built: marks.filter((m) => m.classList.contains("built")).length, texts: texts.length, hits };
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_chapel_marks_leave_letters_and_prices_readable(
    open_table: Any, viewport: dict[str, int]
) -> None:
    # Ada builds a chapel: the open corners are marked. Two of them stand built already (set
    # on the state: a chapel step later in the game would cost a longer play-out).
    fake, legal = strasbourg_choosing("chapel")
    fake.state["chapels"] = [c["site"] for c in legal if c["type"] == "chapel"][:2]
    still_open = [c for c in fake.game.legal(fake.state, 0) if c["type"] == "chapel"]
    page = open_table(fake, viewport=viewport, device_scale_factor=2)
    found = page.evaluate(OVERLAPS)
    assert found["open"] == len(still_open) >= 2 and found["built"] == 2, found
    assert found["texts"] > 40 and found["hits"] == [], found
    page.locator("#sb-grid").screenshot(path=str(ARTIFACTS / f"city-{viewport['width']}.png"))
