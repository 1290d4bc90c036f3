"""Whole games played on the board, at 1280 px and at 390 px.

A real uvicorn serves ``create_app`` (SQLite, bots after a short delay). One person creates a
3-seat table in the lobby against two bots and plays the whole game by tapping the board
wherever the choice has a place (Norenberc: guest windows, goods in the store, one's own
goods, the thief's victim's card, the bailiff's tiles, the chief judge's house; Strasbourg:
city spaces, chapel and edifice sites, one's own stacks) and the prompt's buttons otherwise.
On the way: each summary that opens by itself is read and closed, a change another player
made glows on the board while the digest lists their lines; at 390 px every board choice's
first place lies between the banner and the bottom sheet (one taller than that room starts
just under the banner) and the page never scrolls sideways. A move that another seat's move
made moot (a bot asking to wait ends one's planning turn) is dropped and counted. After the
end: every summary is opened again from the log, the replay jumps to round 3, and the
downloaded record passes ``guildhall verify``. One game per game per width (four games,
about a minute each on one core). ``make test`` plays each game at 390 px, where
the bottom sheet and the scrolling are checked as well; the 1280 px games are in the soak tier
(``make soak``): a whole Norenberc game at a desktop width also runs in test_full_game.py,
Strasbourg's first round from the lobby in test_strasbourg_page.py (its whole game there in
the soak tier too), and the board choices at 1280 px in test_board_play.py.
Screenshots: ``artifacts/whole-*.png``.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from server.api.howto import how_to_play

from .conftest import ARTIFACTS, ServerThread, live_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]
AUTOPLAY = (Path(__file__).parent / "autoplay.js").read_text()
WIDTHS = {1280: {"width": 1280, "height": 900}, 390: {"width": 390, "height": 844}}
PER_WIDTH = [pytest.param(1280, marks=pytest.mark.soak), 390]
MAX_DECISIONS = 500
BOT_DELAY = 0.05  # seconds: the bots' moves arrive one by one, as at a real table

# The board's places the current question may take, topmost first, with the sheet's top.
PLACES = """() => {
  const sheet = document.getElementById("prompt");
  const fixed = getComputedStyle(sheet).position === "fixed";
  const places = [...document.querySelectorAll("#layout .board-pick:not(.picked)")].map((el) => {
    const r = el.getBoundingClientRect();
    return { id: el.id, cls: el.className, top: r.top, bottom: r.bottom };
  }).sort((a, b) => a.top - b.top);
  return { places, sheet: fixed ? sheet.getBoundingClientRect().top : innerHeight,
    banner: document.getElementById("banner").getBoundingClientRect().bottom,
    sideways: document.documentElement.scrollWidth - innerWidth };
}"""
# What sticks out of the window on the right, when something does.
WIDER = """() => [...document.querySelectorAll("body *")].filter((el) =>
  el.getBoundingClientRect().right > innerWidth + 1).slice(0, 8).map((el) =>
  el.tagName + "#" + el.id + "." + el.className + " "
  + Math.round(el.getBoundingClientRect().right))"""
MY_TURN = (
    "(document.querySelector('.banner.mine') && !document.querySelector('.sending')"
    " && document.querySelector('#prompt-card')) || document.getElementById('score-table')"
)
# Whether the page still asks me: another seat's move can end my turn while I read the
# prompt (a seat asking to wait makes planning one seat at a time).
# A summary that arrives meanwhile holds the prompt behind "Go to my move", which is no
# question (its module comes with the first summary, so it may open a moment after the log).
STILL_MINE = (
    "() => !!(document.querySelector('.banner.mine') && document.getElementById('prompt-card')"
    " && !document.getElementById('sb-waiting') && !document.getElementById('summary-continue'))"
)

# The rule the question names: its one "rule" link's clause (null: none, or several).
RULE_SHOWN = """() => { const links = document.querySelectorAll("#prompt-card .rule-link");
  return links.length === 1 ? links[0].dataset.rule : null; }"""
CLAUSES = {
    game: {c.id for s in how_to_play(game, "en").sections for c in s.clauses}
    for game in ("norenberc", "strasbourg")
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with live_app(tmp_path_factory.mktemp("whole-db"), bot_delay=BOT_DELAY) as live:
        yield live


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"whole-{name}.png"))


def create(page: Any, url: str, game: str) -> str:
    page.goto(url + "/")
    page.select_option("#game", game)
    page.fill("#player-name", "Ada")
    page.select_option("#seat-count", "3")
    page.select_option("#seat-kind-1", "greedy")
    page.select_option("#seat-kind-2", "random")
    page.click("#create-button")
    page.wait_for_selector("#created-card:not([hidden])")
    link = page.input_value("#invite-link")
    page.wait_for_selector("#joined-list li:has-text('Ada')")
    page.click("#start-button")
    page.wait_for_url(re.compile(r".*/t/[\w-]+#seat=.+"))
    page.wait_for_selector("#conn[data-state=online]")
    return str(link.split("#", 1)[0].rsplit("/", 1)[1])


class Person:
    """Plays one decision at a time: on the board where it can, else by the prompt."""

    def __init__(self, page: Any, width: int, game: str) -> None:
        self.page = page
        self.width = width
        self.game = game
        self.board = Counter[str]()
        self.summaries = 0
        self.glow_checked = False
        self.overtaken = 0  # moves another seat's move made moot before they were made
        self.rules = Counter[str]()  # the rules the questions named

    def check_rule(self) -> None:
        """The question names the rule it applies: one link to a clause of the game's rules
        (none only when another seat's move ended my turn meanwhile)."""
        rule = self.page.evaluate(RULE_SHOWN)
        if rule is None:
            assert not self.page.evaluate(STILL_MINE), self.prompt_html()
            return
        assert rule in CLAUSES[self.game], rule
        self.rules[rule] += 1

    def prompt_html(self) -> str:
        return str(self.page.evaluate("document.getElementById('prompt').outerHTML"))

    @contextlib.contextmanager
    def unless_overtaken(self) -> Iterator[None]:
        """One move. A step that cannot be taken because the page no longer asks me (another
        seat's move ended my turn meanwhile) drops the move: the game goes on and asks again.
        Any other step that cannot be taken fails, with what the prompt showed."""
        try:
            yield
        except PlaywrightTimeoutError as exc:
            if self.page.evaluate(STILL_MINE):
                raise AssertionError(f"{exc.message}\nthe prompt: {self.prompt_html()}") from None
            self.overtaken += 1

    def settle(self) -> None:
        self.page.wait_for_function(MY_TURN)

    def read_summary(self) -> None:
        """A summary that opened by itself holds the prompt: read it, then go on."""
        page = self.page
        if page.locator("#summary-continue").count():
            assert page.locator("#summary:not([hidden]) #summary-title").count() == 1
            if not self.summaries:
                shot(page, f"{self.game}-summary-{self.width}")
            self.summaries += 1
            page.click("#summary-continue")
            page.wait_for_selector("#summary", state="hidden")
            self.settle()

    def check_glow(self) -> None:
        """Once: the others' lines since my last move, and a place they changed, glowing."""
        page = self.page
        if self.glow_checked or not page.locator("#digest-card li").count():
            return
        if not page.locator("#layout .changed").count():
            return
        # Looked at as a player would, then the page scrolled back to where it had put the
        # question's places (the sheet leaves a player's own scroll alone).
        before = page.evaluate("scrollY")
        page.locator("#layout .changed").first.evaluate(
            "el => el.scrollIntoView({block: 'center'})"
        )
        shot(page, f"{self.game}-glow-{self.width}")
        page.evaluate("y => window.scrollTo(0, y)", before)
        self.glow_checked = True

    def places(self) -> list[dict[str, Any]]:
        """Where the page put the question's places (a tap's redraw scrolls before the
        click returns: a bailiff's partner tiles are read at once after the first)."""
        seen = self.page.evaluate(PLACES)
        assert seen["sideways"] <= 0, self.page.evaluate(WIDER)
        if seen["places"] and self.width == 390:
            first = seen["places"][0]
            # The first place the question asks about lies between the banner and the sheet; one
            # taller than the room there (a house card on the phone) starts just under the banner.
            top, bottom = seen["banner"], seen["sheet"]
            if first["bottom"] - first["top"] > bottom - top - 8:
                assert top - 1 <= first["top"] <= top + 9, seen
            else:
                assert top - 1 <= first["top"] and first["bottom"] <= bottom + 1, seen
        return list(seen["places"])

    def act(self) -> None:
        raise NotImplementedError

    def tap(self, place: dict[str, Any], kind: str) -> None:
        self.page.click("#" + place["id"])
        self.board[kind] += 1
        if sum(self.board.values()) == 1:
            shot(self.page, f"{self.game}-board-{self.width}")

    def finish(self) -> None:
        """The rest of the draft by the prompt's buttons, then Confirm."""
        page = self.page
        if page.locator("#confirm:not([disabled])").count():
            page.click("#confirm")
        elif page.evaluate(AUTOPLAY, ["hire", "buy", "sell"]) is None:
            # Nothing to confirm: only when the page no longer asks me.
            assert not page.evaluate(STILL_MINE), self.prompt_html()
            self.overtaken += 1


class NorenbercPerson(Person):
    def act(self) -> None:
        self.read_summary()
        self.check_rule()
        # Where the page put the question's places, before the glow is looked at elsewhere.
        places = self.places()
        self.check_glow()
        with self.unless_overtaken():
            self.move(places)

    def move(self, places: list[dict[str, Any]]) -> None:
        by = {
            kind: [p for p in places if p["id"].startswith(prefix)]
            for kind, prefix in [
                ("window", "board-win-"),
                ("buy", "board-buy-"),
                ("sell", "board-sell-"),
                ("victim", "board-victim-"),
                ("tile", "board-tile-"),
                ("house", "board-house-"),
            ]
        }
        page = self.page
        turn = self.board.total()
        if by["tile"]:
            self.tap(by["tile"][0], "tile")
            partner = self.places()[0]
            self.tap(partner, "tile")
        elif by["victim"]:
            self.tap(by["victim"][0], "victim")
        elif by["house"]:
            self.tap(by["house"][0], "house")
        elif by["window"] and turn % 3 != 1:
            self.tap(by["window"][0], "window")
        elif by["buy"]:
            self.tap(by["buy"][0], "buy")
        elif by["sell"]:
            self.tap(by["sell"][0], "sell")
        elif by["window"]:
            self.tap(by["window"][0], "window")
        elif page.locator("#retract").count():
            return self.wait_for_others()
        self.finish()

    def wait_for_others(self) -> None:
        # A sealed plan that may be taken back is no question to answer: the others plan.
        self.page.wait_for_function("!document.getElementById('retract')")


# What the Strasbourg prompt asks, read in one go (the page redraws between two reads): a
# summary holding it, another seat's turn, the tasks, drawing, splitting, sealing, a place on
# the board still to pick, a whole draft to confirm, the prompt's options; null for anything
# else (the test waits, then fails with the prompt's HTML).
QUESTION = """() => {
  if (document.getElementById("score-table")) return "over";
  if (document.getElementById("summary-continue")) return "summary";
  if (document.querySelector(".sending")) return null;
  const card = document.getElementById("prompt-card");
  const mine = document.querySelector(".banner.mine") && card && !card.querySelector("#sb-waiting");
  if (!mine) return "others";
  if (card.querySelector("input[type=checkbox]")) return "tasks";
  if (card.querySelector("#sb-draw, #sb-stop")) return "draw";
  if (card.querySelector("#sb-make-stack")) return "split";
  if (card.querySelector("#sb-seal")) return "seal";
  if (document.querySelector("#layout .board-pick:not(.picked)")) return "board";
  if (card.querySelector("#confirm:not([disabled])")) return "confirm";
  if (card.querySelector(".options .opt")) return "options";
  return null;
}"""


class StrasbourgPerson(Person):
    DRAW_UP_TO = 4
    ready = 0  # questions whose places were all picked already, Confirm on

    def question(self) -> str:
        try:
            self.page.wait_for_function(f"({QUESTION})() !== null", timeout=10_000)
        except PlaywrightTimeoutError:
            raise AssertionError(
                "a prompt this test does not know: " + self.prompt_html()
            ) from None
        return str(self.page.evaluate(QUESTION) or "")

    def act(self) -> None:
        self.read_summary()
        self.check_rule()
        self.check_glow()
        question = self.question()
        if question in ("over", "summary", "others"):
            # The end, a summary or another seat's turn came meanwhile: the loop settles again.
            self.overtaken += question == "others"
            return
        with self.unless_overtaken():
            self.move(question)

    def move(self, question: str) -> None:
        page = self.page
        card = page.locator("#prompt-card")
        if question == "tasks":
            card.locator("input[type=checkbox]").first.check()
            page.click("#confirm")
        elif question == "draw":
            drawn = card.locator(".sb-hand .sb-card").count()
            if page.locator("#sb-draw").count() and (
                drawn < self.DRAW_UP_TO or not page.locator("#sb-stop").count()
            ):
                page.click("#sb-draw")
            else:
                page.click("#sb-stop")
        elif question == "split":
            cards = card.locator("button.sb-card.pickable")
            if cards.count() > 2:
                cards.nth(0).click()
                cards.nth(1).click()
                page.click("#sb-make-stack")
            else:
                page.click("#sb-rest-stack")
        elif question == "seal":
            page.click("#sb-seal")
        elif question == "board":
            first = self.places()[0]
            kind = (
                "stack"
                if first["id"].startswith("board-stack-")
                else "chapel"
                if first["id"].startswith("chapel-")
                else "edifice"
                if "Edifice" in (page.get_attribute("#" + first["id"], "title") or "")
                else "space"
            )
            self.tap(first, kind)
            assert page.locator("#layout .board-pick.picked").count() == 1
            page.click("#confirm")
        elif question == "confirm":
            # Every place is picked already and Confirm is on: the draft is whole.
            self.ready += 1
            page.click("#confirm")
        else:
            page.locator("#prompt-card .options .opt").first.click()
            page.click("#confirm")


def play_whole_game(page: Any, person: Person) -> None:
    for _ in range(MAX_DECISIONS):
        person.settle()
        if page.locator("#score-table").count():
            return
        person.act()
        page.wait_for_function("!document.querySelector('.sending')")
    raise AssertionError("the game did not end")


def after_the_game(page: Any, url: str, table_id: str, game: str, width: int, tmp: Path) -> None:
    page.mouse.move(0, 0)  # no hover tooltip left open from the last tap
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0, page.evaluate(
        WIDER
    )
    shot(page, f"{game}-final-{width}")
    # Every summary again, from its log line.
    buttons = page.locator("#log button.log-summary")
    rounds = 4 if game == "norenberc" else 5
    assert buttons.count() == rounds
    for i in range(rounds):
        page.locator("#log button.log-summary").nth(i).click()
        page.wait_for_selector("#summary:not([hidden]) #summary-title")
        page.click("#summary-close")
        page.wait_for_selector("#summary", state="hidden")
    # The replay, at round 3.
    page.click("#replay-start")
    page.wait_for_selector("#replay-round")
    third = page.locator("#replay-round option").nth(2).get_attribute("value")
    page.select_option("#replay-round", third)
    page.wait_for_selector(f"#replay-step:has-text('Step {third} of')")
    summary = page.inner_text("#board .summary")
    assert ("Round 3" in summary) if game == "norenberc" else ("Round 3 of 5" in summary), summary
    shot(page, f"{game}-replay-{width}")
    page.click("#replay-stop")
    # The record, as the page offers it, checks out with guildhall verify.
    with page.expect_download() as download:
        page.click("#record-download")
    path = tmp / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == f"guildhall-{table_id}.json"
    record = json.loads(path.read_text())
    assert record == httpx.get(f"{url}/api/tables/{table_id}/record").json()
    command = page.inner_text("#verify-command").split()
    assert command[:2] == ["guildhall", "verify"] and command[2] == path.name
    ran = subprocess.run(
        [sys.executable, "-m", "server.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "result matches" in ran.stdout


@pytest.mark.parametrize("width", PER_WIDTH)
def test_a_whole_norenberc_game_on_the_board(
    new_page: Any, server: ServerThread, width: int, tmp_path: Path
) -> None:
    page = new_page(viewport=WIDTHS[width], accept_downloads=True)
    table_id = create(page, server.url, "norenberc")
    person = NorenbercPerson(page, width, "norenberc")
    play_whole_game(page, person)
    assert person.board["window"] > 0 and person.board.total() >= 4, person.board
    assert person.summaries >= 1 and person.glow_checked
    assert {"N-4.1", "N-5.1"} <= set(person.rules), person.rules
    after_the_game(page, server.url, table_id, "norenberc", width, tmp_path)
    print("norenberc", width, dict(person.board), "summaries", person.summaries, end=" ")
    print("overtaken", person.overtaken)


@pytest.mark.parametrize("width", PER_WIDTH)
def test_a_whole_strasbourg_game_on_the_board(
    new_page: Any, server: ServerThread, width: int, tmp_path: Path
) -> None:
    page = new_page(viewport=WIDTHS[width], accept_downloads=True)
    table_id = create(page, server.url, "strasbourg")
    person = StrasbourgPerson(page, width, "strasbourg")
    play_whole_game(page, person)
    assert person.board["stack"] > 0 and person.board["space"] > 0, person.board
    assert person.summaries >= 1 and person.glow_checked
    assert {"S-3.4", "S-4.1", "S-4.4", "S-5.1"} <= set(person.rules), person.rules
    after_the_game(page, server.url, table_id, "strasbourg", width, tmp_path)
    print("strasbourg", width, dict(person.board), "summaries", person.summaries, end=" ")
    print("overtaken", person.overtaken, "ready", person.ready)
