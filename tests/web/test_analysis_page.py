"""The post-game analysis on a finished table's page (analysis.js), in real Chromium at 390
and 1280 px and in every language, for a game of each game: the graph (one line per seat,
rounds marked; a click jumps the replay), its data table, the biggest swings and the
person's costliest decisions in plain words. The figures are the analysis module's own, of
the game the page shows (small counts). Screenshots: ``artifacts/analysis-*.png``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from server.analysis import Params, analyse_step, replay_record, summarise
from server.analysis.compute import steps_of
from server.api import pages
from server.api.replay import Replayed, replay_game

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_accessibility import violations_at_every_width
from .test_after_the_game import finished

pytestmark = pytest.mark.browser
LOCALES = {"en": "en-GB", "hu": "hu-HU", "nl": "nl-NL", "de": "de-DE"}
SMALL = Params(playouts=2, samples=1, candidates=2)


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


@functools.cache
def analysed(game: str) -> tuple[FakeTable, dict[str, Any]]:
    """A finished game of ``game`` (Ada at seat 0, random bots) and its analysis."""
    fake = finished(game, f"analysis-{game}")
    record = {
        **fake.record(),
        "names": fake.names,
        "bots": [None if name else "random" for name in fake.names],
    }
    replayed = replay_record(record)
    positions = {k: analyse_step(record, replayed, k, SMALL) for k in range(steps_of(record))}
    return fake, {"status": "done", **summarise(record, positions)}


def open_analysis(new_page: Any, server: ServerThread, game: str, width: int, lang: str) -> Any:
    fake, figures = analysed(game)
    fake.analysis = figures
    page = new_page(viewport={"width": width, "height": 900}, locale=LOCALES[lang])
    fake.serve(page, 0)
    replayed: list[Replayed] = []

    def answer(route: Any) -> None:
        replayed[:] = replayed or [replay_game(fake.record())]
        route.fulfill(json=replayed[0].answer(int(route.request.url.rsplit("/", 1)[1])))

    page.route(re.compile(r".*/api/tables/fake/replay/\d+$"), answer)
    page.goto(f"{server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#analysis-graph")
    return page


SEEN = """() => {
  const el = document.getElementById("analysis");
  const graph = document.getElementById("analysis-graph").getBoundingClientRect();
  return {
    title: document.getElementById("analysis-title").textContent,
    lines: [...el.querySelectorAll("polyline.analysis-line")].map((l) => l.getAttribute("class")),
    rounds: el.querySelectorAll("text.analysis-round-label").length,
    rows: el.querySelectorAll("#analysis-table tbody tr").length,
    bands: [...el.querySelectorAll("polygon.analysis-band")].map((b) => b.getAttribute("class")),
    bandNote: (el.querySelector(".analysis-band-note") || {}).textContent,
    sure: [...el.querySelectorAll("#analysis-table .analysis-sure")].map((td) => td.textContent),
    cells: [...el.querySelectorAll("#analysis-table tbody tr:first-child td")].map(
      (td) => td.textContent,
    ),
    swings: [...el.querySelectorAll("#analysis-swings li")].map((li) => li.textContent),
    decisions: [...el.querySelectorAll(".analysis-person li")].map((li) => li.textContent),
    heads: [...el.querySelectorAll(".analysis-person h3")].map((h) => h.textContent),
    graphWidth: graph.width,
    sideways: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_analysis_shows_graph_table_and_lists(
    new_page: Any, pages_server: ServerThread, game: str, width: int, lang: str
) -> None:
    _fake, figures = analysed(game)
    strings = pages.languages()[lang]
    page = open_analysis(new_page, pages_server, game, width, lang)
    seen = page.evaluate(SEEN)
    assert seen["title"] == strings["analysis.title"]
    # One line per seat (no gaps: every position is done), in the seats' classes.
    assert sorted(seen["lines"]) == [f"analysis-line p{s}" for s in range(figures["seats"])]
    assert seen["rounds"] == len(set(figures["rounds"])) >= 2
    assert seen["rows"] == figures["steps"]
    # How sure: a band around each line, the count of play-outs in words under the graph, a
    # chance give or take its noise, and each step's estimate called rough (2 play-outs);
    # the last step is the result itself.
    assert sorted(seen["bands"]) == [f"analysis-band p{s}" for s in range(figures["seats"])]
    assert strings["analysis.band_note"].split("{n}")[0] in seen["bandNote"]
    assert "2" in seen["bandNote"]
    assert all("±" in cell for cell in seen["cells"][1:-1]), seen["cells"]
    rough = strings["analysis.rough"].replace("{n}", "2")
    assert seen["sure"][:-1] == [rough] * (figures["steps"] - 1)
    assert seen["sure"][-1] == strings["analysis.exact"]
    assert len(seen["swings"]) == len(figures["swings"]) >= 1
    assert seen["heads"] == [strings["analysis.decisions"].replace("{name}", "Ada")]
    assert len(seen["decisions"]) == len(figures["costliest"]["0"])
    for text in seen["decisions"]:
        assert "Ada" in text and "{" not in text
    assert seen["graphWidth"] <= width and seen["sideways"] <= 0, seen
    shot = ARTIFACTS / f"analysis-{game}-{lang}-{width}.png"
    page.locator("#analysis").screenshot(path=str(shot))


def test_a_click_on_the_graph_and_a_listed_decision_jump_the_replay(
    new_page: Any, pages_server: ServerThread
) -> None:
    _fake, figures = analysed("norenberc")
    page = open_analysis(new_page, pages_server, "norenberc", 1280, "en")
    graph = page.locator("#analysis-graph")
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    middle = (figures["steps"] - 1) / 2
    page.wait_for_selector("#replay-step")
    shown = page.text_content("#replay-step") or ""
    step = int(re.findall(r"\d+", shown)[0])
    assert abs(step - middle) <= 1, shown  # the step under the pointer, to a pixel
    costly = figures["costliest"]["0"][0]
    page.locator(".analysis-person li button").first.click()
    page.wait_for_function(
        f"document.getElementById('replay-step').textContent.includes('{costly['step']}')"
    )


def test_while_the_server_analyses_the_page_shows_progress_and_a_partial_graph(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake, figures = analysed("norenberc")
    half = figures["steps"] // 2
    running = {
        **figures,
        "status": "running",
        "done": figures["steps"] - half,
        "chances": [None] * half + figures["chances"][half:],  # last positions first
        "costliest": {"0": []},
        "swings": [],
    }
    fake.analysis = running
    page = new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    fake.serve(page, 0)
    page.goto(f"{pages_server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#analysis-graph")
    progress = page.text_content("#analysis-progress") or ""
    assert f"{running['done']} of {figures['steps']}" in progress
    assert page.locator("#analysis-table tbody tr").count() == running["done"]
    assert page.locator("polyline.analysis-line").count() == figures["seats"]
    assert "None of Ada" in (page.text_content(".analysis-person") or "")
    fake.analysis = {**figures, "status": "done"}  # the next poll finds it done
    page.wait_for_selector("#analysis-swings", timeout=15000)
    assert page.locator("#analysis-progress").count() == 0


def test_the_analysis_with_its_table_open_has_no_serious_accessibility_finding(
    new_page: Any, pages_server: ServerThread
) -> None:
    """axe (as in test_accessibility.py) on the analysis with its data table open, at every
    width: the bands, the margins and the "how sure" column included."""
    page = open_analysis(new_page, pages_server, "strasbourg", 390, "de")
    page.locator(".analysis-figures summary").first.click()
    found = violations_at_every_width(page, "analysis-de", False)
    assert not found, found
    page.set_viewport_size({"width": 390, "height": 900})
    shot = ARTIFACTS / "analysis-table-de-390.png"
    page.locator("#analysis-table").screenshot(path=str(shot))
