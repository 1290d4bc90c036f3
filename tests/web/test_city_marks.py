"""Strasbourg's city: chapel marks leave every space's letter and price readable, and chapel
corners are named the way a player reads the city.

A chapel site sits on the corner where four spaces meet, which is where one space's price
(bottom right) and another's letter (top left) stand: no mark, open or built, may overlap
either, at 390 px and at 1280 px. A corner is named in every language by the two rows and
two columns that meet there, as the board's edges number them, and by the guilds whose
spaces touch it, in the prompt's options, on the marks, on Confirm and in the log.
Screenshots: ``artifacts/city-*.png`` (the grid at twice the pixels, to be looked at
closely) and ``artifacts/city-chapel-<lang>-390.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from server.api import pages

from .conftest import ARTIFACTS
from .test_board_play import DESKTOP, PHONE, strasbourg_choosing
from .test_table_client import open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

LOCALES = {"en": "en-GB", "hu": "hu-HU", "nl": "nl-NL", "de": "de-DE"}

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


def corner_words(lang: str, board: dict[str, Any], site: list[int]) -> tuple[str, list[str]]:
    """The rows-and-columns part of a corner's name in ``lang``, and the names of the guilds
    whose spaces meet there (which the name lists, in any order)."""
    strings = pages.languages()[lang]
    r, c = site
    rows = strings["sb.corner"].format(r1=r, r2=r + 1, c1=c, c2=c + 1)
    letters = {board["grid"][y][x] for y in (r, r + 1) for x in (c, c + 1)}
    guilds = [
        strings[f"sb.guild.{g}"] for g, info in board["guilds"].items() if info["letter"] in letters
    ]
    return rows, guilds


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_chapel_corners_are_named_by_rows_columns_and_guilds(open_table: Any, lang: str) -> None:
    fake, legal = strasbourg_choosing("chapel")
    board = fake.game.view(fake.state, 0)["board"]
    chapels = [c for c in legal if c["type"] == "chapel"]
    page = open_table(fake, viewport=PHONE, locale=LOCALES[lang])
    for cmd in chapels:
        i = legal.index(cmd)
        rows, guilds = corner_words(lang, board, board["chapel_sites"][cmd["site"]])
        for where in (f"#choice-{i}", f"#chapel-{cmd['site']}"):
            text = (
                page.inner_text(where)
                if where.startswith("#choice")
                else page.get_attribute(where, "aria-label")
            )
            assert rows in text and guilds and all(g in text for g in guilds), (where, text)
            # Not the cell it hangs from in (row,column) form, nor a corner's side of it.
            assert not re.search(r"\(\d,\d\)", text), text
    shot_as = str(ARTIFACTS / f"city-chapel-{lang}-390.png")
    last = chapels[-1]
    page.click(f"#chapel-{last['site']}")
    rows, guilds = corner_words(lang, board, board["chapel_sites"][last["site"]])
    assert rows in page.inner_text("#draft-summary")
    page.screenshot(path=shot_as)
    page.click("#confirm")
    # The log line itself, not the end of "sending": the acknowledgement may come first.
    built = page.locator("#log li.log-ChapelBuilt")
    built.first.wait_for()
    assert built.count() == 1
    assert rows in built.inner_text() and all(g in built.inner_text() for g in guilds)


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_space_is_named_by_its_guild_row_and_column(open_table: Any, lang: str) -> None:
    """A member's place (the prompt's options, the city's buttons, Confirm and the log line)
    is named by the guild whose space it is and the row and column the board's edges number,
    never as a bare '(row,column)'."""
    strings = pages.languages()[lang]
    fake, legal = strasbourg_choosing("build")
    board = fake.game.view(fake.state, 0)["board"]
    letters = {info["letter"]: g for g, info in board["guilds"].items()}

    def words(cell: list[int]) -> tuple[str, str]:
        guild = letters.get(board["grid"][cell[0]][cell[1]])
        name = strings[f"sb.guild.{guild}"] if guild else strings["sb.building_space"]
        return name, strings["sb.cell"].format(r=cell[0], c=cell[1])

    page = open_table(fake, viewport=PHONE, locale=LOCALES[lang])
    builds = [c for c in legal if c["type"] == "build"]
    for cmd in builds:
        guild, cell = words(cmd["cell"])
        r, c = cmd["cell"]
        option = page.inner_text(f"#choice-{legal.index(cmd)}")
        label = page.get_attribute(f"#cell-{r}-{c}", "aria-label") or ""
        for text in (option, label):
            assert guild in text and cell in text, text
            assert not re.search(r"\(\d,\d\)", text), text
    last = builds[-1]
    guild, cell = words(last["cell"])
    page.click(f"#cell-{last['cell'][0]}-{last['cell'][1]}")
    assert cell in page.inner_text("#draft-summary")
    placed_lines = page.locator("#log li.log-MemberPlaced")
    before = placed_lines.count()
    page.click("#confirm")
    page.wait_for_function(
        "n => document.querySelectorAll('#log li.log-MemberPlaced').length > n", arg=before
    )
    placed = placed_lines.last.inner_text()
    assert guild in placed and cell in placed, placed
    page.screenshot(path=str(ARTIFACTS / f"city-build-{lang}-390.png"))
