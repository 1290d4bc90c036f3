"""What the table shows is whole: nothing overlaps, nothing is cut off, nothing is wider than
its card, on a phone (390 px) and at a desktop width (1280 px).

Each state is reached by seeded random play of the real engine behind a routed websocket
(``FakeTable``) and measured by its rendered boxes: the stack prompt's line and buttons, the
top bar's last language, the desktop prompt card's inner room, the final score table of five
players, the names of the edifices built in the Strasbourg city. Screenshots:
``artifacts/layout-*.png``.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
View = dict[str, Any]

# Boxes of the elements a selector finds: [left, top, right, bottom] in CSS pixels.
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
})"""


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


@functools.cache
def table_at(game: str, seats: int, name: str, reached: Callable[[View], bool]) -> FakeTable:
    """A table of ``seats`` (the browser and bots) played at random until ``reached``."""
    fake = FakeTable(
        seats=seats, seed=f"layout-{name}", names=["Ada"] + [None] * (seats - 1), game=game
    )
    fake.run_bots()
    rng = random.Random(name)
    for _ in range(3000):
        if reached(fake.game.view(fake.state, 0)):
            return fake
        fake.play(0, rng.choice(fake.game.legal(fake.state, 0)))
    raise AssertionError(f"{name} not reached")


def splitting(v: View) -> bool:
    return v["phase"] == "planning" and any(c["type"] == "stack" for c in v["legal"])


def over(v: View) -> bool:
    over: bool = v["phase"] == "over"
    return over


def acting(v: View) -> bool:
    return v["phase"] == "action" and bool(v["legal"]) and not v["action"]["choice"]


def open_at(
    new_page: Any, server: ServerThread, fake: FakeTable, size: dict[str, int], lang: str
) -> Any:
    page = new_page(viewport=size)
    fake.serve(page, 0)
    page.goto(f"{server.url}/t/fake?lang={lang}#seat=tok0")
    page.wait_for_selector("#conn[data-state=online]")
    return page


def box(page: Any, selector: str) -> list[float]:
    boxes = page.evaluate(BOXES, selector)
    assert len(boxes) == 1, (selector, boxes)
    return list(boxes[0])


SHEET_ROOM = "getComputedStyle(document.documentElement).getPropertyValue('--sheet').trim()"


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["en", "de", "hu", "nl"])
def test_on_a_phone_the_stack_prompt_says_its_line_beside_its_buttons_not_under_them(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    fake = table_at("strasbourg", 3, "split", splitting)
    page = open_at(new_page, pages_server, fake, PHONE, lang)
    page.wait_for_selector("#sb-make-stack")
    line, make, rest = (
        box(page, s) for s in ("#draft-summary", "#sb-make-stack", "#sb-rest-stack")
    )
    assert not overlap(line, make) and not overlap(line, rest) and not overlap(make, rest)
    # The line reads as a line: wider than a word (it was one word a line, 40 px across).
    assert line[2] - line[0] >= 120, line
    sheet = box(page, "#prompt")
    assert sheet[3] == PHONE["height"], sheet  # the sheet stands on the window's bottom
    for b in (line, make, rest):
        assert sheet[0] <= b[0] and b[2] <= sheet[2], (b, sheet)
    page.screenshot(path=str(ARTIFACTS / f"layout-split-{lang}-390.png"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_on_a_phone_all_five_task_cards_stand_above_confirm(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    fake = table_at("strasbourg", 3, "tasks", lambda v: v["phase"] == "tasks" and bool(v["legal"]))
    page = open_at(new_page, pages_server, fake, PHONE, lang)
    page.wait_for_selector(".sb-task-pick")
    tasks = page.evaluate(BOXES, ".sb-task-pick")
    assert len(tasks) == 5
    row = box(page, "#prompt .confirm-row")
    assert all(task[3] <= row[1] for task in tasks), (tasks, row)  # none under Confirm
    assert page.evaluate(
        "(e => e.scrollHeight <= e.clientHeight)(document.getElementById('prompt'))"
    )
    page.screenshot(path=str(ARTIFACTS / f"layout-tasks-{lang}-390.png"))


def test_on_a_phone_the_top_bar_fits_with_room_for_the_tables_name(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = table_at("strasbourg", 3, "split", splitting)
    page = open_at(new_page, pages_server, fake, PHONE, "en")
    last = page.evaluate(BOXES, ".langs a")[-1]
    assert last[2] <= PHONE["width"] - 6, last  # "NL" stood against the window's edge
    name = box(page, "#table-name")
    assert name[2] - name[0] >= 60, name  # the table's name had no room at all
    assert page.evaluate("document.querySelector('.brand').textContent.trim()") == "Guildhall"


def test_at_a_desktop_width_the_prompt_card_keeps_its_inner_room(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = table_at("norenberc", 3, "action", acting)
    page = open_at(new_page, pages_server, fake, DESKTOP, "en")
    page.wait_for_selector("#prompt-card.mine h2")
    card, heading, confirm = (box(page, s) for s in ("#prompt-card", "#prompt-card h2", "#confirm"))
    assert heading[0] - card[0] >= 12 and card[2] - confirm[2] >= 12, (card, heading, confirm)
    below = page.evaluate(BOXES, "#board")[0]
    assert below[1] - card[3] >= 8, (card, below)  # the board does not touch the card either


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
def test_on_a_phone_the_final_scores_of_five_players_fit_their_card(
    new_page: Any, pages_server: ServerThread, game: str, lang: str
) -> None:
    fake = table_at(game, 5, f"over-{game}", over)
    page = open_at(new_page, pages_server, fake, PHONE, lang)
    page.wait_for_selector("#score-table")
    scroller = "document.querySelector('#scores .table-scroll')"
    assert page.evaluate(f"{scroller}.scrollWidth - {scroller}.clientWidth") <= 0
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    card = box(page, "#scores")
    for cell in page.evaluate(BOXES, "#score-table th, #score-table td"):
        assert card[0] <= cell[0] and cell[2] <= card[2], (cell, card)
    page.evaluate("document.getElementById('scores').scrollIntoView()")
    page.screenshot(path=str(ARTIFACTS / f"layout-scores-{game}-{lang}-390.png"))


def test_on_a_phone_every_edifice_in_the_city_can_be_told_apart(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = table_at("strasbourg", 5, "over-strasbourg", over)
    built = fake.game.view(fake.state, 0)["city"]["edifices"]
    assert len(built) >= 2
    page = open_at(new_page, pages_server, fake, PHONE, "en")
    page.wait_for_selector(".sb-edifice")
    city = "document.querySelector('.sb-city')"
    assert page.evaluate(f"{city}.scrollWidth - {city}.clientWidth") <= 0
    # What each space shows fits the space (it was the name cut to "Ba…") ...
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.sb-edifice')].map((e) =>
            [e.closest('.sb-cell').id, e.innerText.trim(), e.scrollWidth - e.clientWidth])"""
    )
    assert len(shown) == len(built) and all(cut <= 0 for *_, cut in shown), shown
    marks = {cell: mark for cell, mark, _ in shown}
    assert len(set(marks.values())) == len(marks), marks
    # ... and the legend under the city names each one by that mark, with its space.
    legend = page.evaluate(
        "() => [...document.querySelectorAll('.sb-ed-legend')].map((e) => e.innerText)"
    )
    names = {e["key"]: e["name"] for e in built}
    for edifice in built:
        r, c = edifice["cell"]
        line = next(text for text in legend if text.startswith(marks[f"cell-{r}-{c}"] + " "))
        assert line.endswith(f"{names[edifice['key']]} row {r}, column {c}"), line
    page.evaluate(f"{city}.scrollIntoView()")
    page.screenshot(path=str(ARTIFACTS / "layout-city-390.png"))


def test_on_a_phone_a_sheet_without_a_question_is_named_by_its_note(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = FakeTable(seats=3, seed="layout-note", names=["Ada", "Bea", None], game="strasbourg")
    fake.run_bots()
    page = open_at(new_page, pages_server, fake, PHONE, "en")
    assert page.get_attribute("#sheet-handle", "title") == "Hide the choice"
    page.locator("#prompt-card input[type=checkbox]").first.check()
    page.click("#confirm")
    page.wait_for_selector("#sb-waiting")  # Bea still chooses: a note, no choice
    note = page.inner_text("#sb-waiting")
    assert page.inner_text("#sheet-handle .sheet-title") == note
    assert page.get_attribute("#sheet-handle", "title") == "Hide the note"
    page.click("#sheet-handle")
    assert page.get_attribute("#sheet-handle", "title") == "Show the note"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_at_the_end_no_room_is_kept_where_the_prompt_was(
    new_page: Any, pages_server: ServerThread, size: dict[str, int]
) -> None:
    fake = copy.deepcopy(table_at("norenberc", 3, "action", acting))
    page = open_at(new_page, pages_server, fake, size, "en")
    page.wait_for_selector("#prompt-card.mine h2")
    assert page.evaluate("document.getElementById('prompt').offsetHeight") > 100
    if size is PHONE:  # the sheet's room under the page, so its last row can come up
        assert page.evaluate(SHEET_ROOM).endswith("px")
    rng = random.Random("end")
    while fake.game.result(fake.state) is None:  # Ada's other device plays to the end
        fake.play(0, rng.choice(fake.game.legal(fake.state, 0)))
    fake.broadcast()
    page.wait_for_selector("#score-table")
    assert page.evaluate("document.getElementById('prompt').offsetHeight") == 0
    assert page.evaluate(SHEET_ROOM) == ""  # on a phone too: no sheet, no room kept for it


def test_on_a_phone_the_called_guilds_name_comes_up_with_its_places(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = table_at("norenberc", 3, "action", acting)
    guild = fake.game.view(fake.state, 0)["action"]["guild"]
    page = open_at(new_page, pages_server, fake, PHONE, "en")
    page.wait_for_selector("#prompt-card.mine")
    banner, name, sheet = (box(page, s) for s in ("#banner", f"#house-{guild} header", "#prompt"))
    assert banner[3] <= name[1], (banner, name)  # it went under the sticky banner
    for place in page.evaluate(BOXES, f"#house-{guild} .board-pick"):
        assert banner[3] <= place[1] and place[3] <= sheet[1], (place, sheet)
    page.screenshot(path=str(ARTIFACTS / "layout-called-guild-390.png"))


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_on_a_phone_each_round_card_names_its_guilds_whole_beside_their_steps(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    fake = table_at("strasbourg", 3, "split", splitting)
    page = open_at(new_page, pages_server, fake, PHONE, lang)
    page.wait_for_selector(".sb-rc-guilds li")
    rows = page.evaluate(
        """() => [...document.querySelectorAll('.sb-rc-guilds li')].map((li) => {
            const tag = li.querySelector('.sb-gtag');
            return [li.innerText, li.getClientRects().length && li.getBoundingClientRect().height,
                    tag.getBoundingClientRect().height, tag.scrollWidth - tag.clientWidth];
        })"""
    )
    for text, row, tag, cut in rows:
        assert cut <= 0 and row <= tag + 2, (text, row, tag)  # one line, the name whole
