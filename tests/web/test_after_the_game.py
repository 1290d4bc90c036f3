"""The whole game after the game: the log keeps every entry, with a header where each round
begins; the replay shows every seat's holdings and jumps to a round or a step; the page
shows the seed's SHA-256 from the first move and, at the end, the record and how to check
it, in every language (one page each, of one game played once). Screenshots:
``artifacts/after-*.png``.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from server.api import pages
from server.api.replay import Replayed, replay_game

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_strasbourg_page import SCORE_ROWS

pytestmark = pytest.mark.browser
LOCALES = {"en": "en-GB", "hu": "hu-HU", "nl": "nl-NL", "de": "de-DE"}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def finished(game: str, seed: str) -> FakeTable:
    fake = FakeTable(seats=3, seed=seed, game=game)
    fake.run_bots()
    rng = random.Random(seed)
    while fake.game.result(fake.state) is None:
        fake.play(0, rng.choice(fake.game.legal(fake.state, 0)))
    return fake


@functools.cache
def finished_norenberc() -> FakeTable:
    """The Norenberc game this module looks at, played once (each page serves it anew)."""
    return finished("norenberc", "after-noren")


def open_finished(
    new_page: Any,
    server: ServerThread,
    fake: FakeTable,
    width: int,
    record: dict[str, Any] | None = None,
) -> Any:
    """The finished table's page; its replay route replays ``record`` (the fake's own when
    None)."""
    page = new_page(viewport={"width": width, "height": 900})
    fake.serve(page, 0)
    replayed: list[Replayed] = []

    def answer(route: Any) -> None:
        replayed[:] = replayed or [replay_game(record or fake.record())]
        route.fulfill(json=replayed[0].answer(int(route.request.url.rsplit("/", 1)[1])))

    page.route(re.compile(r".*/api/tables/fake/replay/\d+$"), answer)
    page.goto(f"{server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#score-table")
    return page


@pytest.mark.parametrize("width", [1280, 390])
def test_after_a_norenberc_game_everything_can_be_looked_at(
    new_page: Any, pages_server: ServerThread, width: int
) -> None:
    fake = finished_norenberc()
    page = open_finished(new_page, pages_server, fake, width)
    doc = fake.doc(0)
    # Every entry, with a header per round.
    assert page.locator("#log li:not(.log-head)").count() == len(doc["log"]) > 200
    heads = page.locator("#log li.log-head").all_text_contents()
    assert heads == ["Round 1", "Round 2", "Round 3", "Round 4"]
    # The seed's hash, the record and the command that checks it.
    assert page.text_content("#seed-hash") == doc["table"]["seed_sha256"]
    assert page.get_attribute("#record-download", "href") == "/api/tables/fake/record"
    assert page.text_content("#verify-command") == "guildhall verify guildhall-fake.json"
    # The replay shows every seat's talers, and jumps to a round and to a step.
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")
    for seat in range(3):
        assert page.inner_text(f"#player-{seat} .talers").isdigit()
    replayed = replay_game(fake.record())
    third = replayed.rounds[2]["step"]
    page.select_option("#replay-round", str(third))
    page.wait_for_selector(f"#replay-step:has-text('Step {third} of')")
    assert "Round 3" in page.inner_text("#board .summary")
    page.fill("#replay-goto", "7")
    page.click("#replay-go")
    page.wait_for_selector("#replay-step:has-text('Step 7 of')")
    assert page.input_value("#replay-round") == "0"
    plans = replayed.answer(7)["seat_views"]
    for seat, own in enumerate(plans):
        if own["my_plan"]:
            assert page.locator(f"#player-{seat} .plan").count() == 1
    page.screenshot(path=str(ARTIFACTS / f"after-norenberc-{width}.png"), full_page=True)


def test_the_replay_says_which_of_a_persons_moves_a_bot_made(
    new_page: Any, pages_server: ServerThread
) -> None:
    """The record's ``by``: Ada's move the clock's bot made, and one a bot standing in for
    her made, say so in the replay; her own moves and the bot seats' moves say nothing more."""
    fake = finished_norenberc()
    record = fake.record()
    seats = [entry["seat"] for entry in record["commands"]]
    ada = [k for k, seat in enumerate(seats) if seat == 0]
    bot_seat = next(k for k, seat in enumerate(seats) if seat != 0)
    marks = {ada[0]: "clock", ada[1]: "bot", bot_seat: "bot"}
    commands = [
        {**entry, "by": marks[k]} if k in marks else entry
        for k, entry in enumerate(record["commands"])
    ]
    page = open_finished(new_page, pages_server, fake, 390, {**record, "commands": commands})
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")

    def shown(command: int) -> str:
        """What the replay says of the record's command ``command`` (shown at step + 1)."""
        page.fill("#replay-goto", str(command + 1))
        page.click("#replay-go")
        page.wait_for_selector(f"#replay-step:has-text('Step {command + 1} of')")
        return str(page.inner_text("#replay-command"))

    assert shown(ada[0]).endswith("(played by the clock's bot: time ran out)")
    page.screenshot(path=str(ARTIFACTS / "after-replay-by-clock-390.png"))
    assert shown(ada[1]).endswith("(played by a bot standing in)")
    assert "played by" not in shown(ada[2])
    assert "played by" not in shown(bot_seat)


def test_after_a_strasbourg_game_the_replay_shows_every_screen(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = finished("strasbourg", "after-stras")
    page = open_finished(new_page, pages_server, fake, 1280)
    heads = page.locator("#log li.log-head").all_text_contents()
    assert heads == [f"Round {n}" for n in range(1, 6)]
    rows = page.locator("#score-table tbody th").all_inner_texts()
    assert rows == SCORE_ROWS
    result = fake.game.result(fake.state)
    assert result is not None
    shown = page.locator("#score-table tr.total td").all_inner_texts()
    assert [int(s.split()[0]) for s in shown] == result["scores"]
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")
    replayed = replay_game(fake.record())
    page.select_option("#replay-round", str(replayed.rounds[1]["step"]))
    page.wait_for_selector(f"#replay-step:has-text('Step {replayed.rounds[1]['step']} of')")
    assert page.locator(".sb-hidden").count() == 0  # nobody's coins, goods or tasks hidden
    coins = [
        own["me"]["coins"] for own in replayed.answer(replayed.rounds[1]["step"])["seat_views"]
    ]
    for seat, n in enumerate(coins):
        assert page.inner_text(f"#player-{seat} dl").split("Coins")[1].split()[0] == str(n)
    page.screenshot(path=str(ARTIFACTS / "after-strasbourg-1280.png"), full_page=True)


@functools.cache
def finished_strasbourg() -> FakeTable:
    return finished("strasbourg", "after-stras-end")


@pytest.mark.parametrize("seat", [0, None], ids=["player", "spectator"])
def test_after_a_strasbourg_game_the_table_shows_every_screen(
    new_page: Any, pages_server: ServerThread, seat: int | None
) -> None:
    """At the end nothing is behind a screen: every seat's coins, goods, privileges and tasks
    show on the table itself (not only in the replay), to the players and to a spectator."""
    fake = finished_strasbourg()
    page = new_page(viewport={"width": 1280, "height": 900})
    fake.serve(page, seat)
    page.goto(f"{pages_server.url}/t/fake" + ("#seat=tok0" if seat == 0 else ""))
    page.wait_for_selector("#score-table")
    assert page.locator(".sb-hidden").count() == 0
    for s, player in enumerate(fake.state["players"]):
        card = page.inner_text(f"#player-{s} dl")
        assert card.split("Coins")[1].split()[0] == str(player["coins"])
        assert card.split("Privileges")[1].split()[0] == str(player["privileges"])
        assert page.locator(f"#player-{s} .sb-tasks li").count() == len(player["tasks"])
    page.screenshot(path=str(ARTIFACTS / f"after-strasbourg-screens-{seat}.png"), full_page=True)


# The fair-play card's parts, and whether any of them is wider than the card.
FAIR_PLAY = """() => {
  const card = document.getElementById("fairness");
  const edge = card.getBoundingClientRect().right + 1;
  const text = (id) => document.getElementById(id).textContent;
  const wide = [...card.querySelectorAll("*")]
    .filter((el) => el.getBoundingClientRect().right > edge)
    .map((el) => el.id || el.tagName);
  // The lines the command's text is laid out on: one, on a phone, in every language.
  const range = document.createRange();
  range.selectNodeContents(document.getElementById("verify-command"));
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  return {
    lines,
    title: text("fairness-title"), download: text("record-download"),
    command: text("verify-command"), text: card.innerText, wide,
    sideways: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_record_and_how_to_check_it_in_every_language(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    fake = finished_norenberc()
    strings = pages.languages()[lang]
    page = new_page(viewport=PHONE, locale=LOCALES[lang])
    fake.serve(page, 0)
    page.goto(f"{pages_server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#record-download")
    seen = page.evaluate(FAIR_PLAY)
    assert seen["title"] == strings["fair.title"]
    assert seen["download"] == strings["fair.download"]
    assert seen["command"] == "guildhall verify guildhall-fake.json"
    for key in ("fair.seed", "fair.revealed", "fair.verify"):
        assert strings[key] in seen["text"], key
    assert page.get_attribute("#record-download", "download") == "guildhall-fake.json"
    assert seen["wide"] == [] and seen["sideways"] <= 0, seen
    assert seen["lines"] == 1, seen
    page.locator("#fairness").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"after-record-{lang}-390.png"))
