"""Round-end and council summaries (web/static/js/summary.js and the games' builders).

A seeded game is played up to the command that ends a Norenberc round (or starts a
Strasbourg council phase); the page is opened there, another device plays that command, and
the page must open the summary by itself, hold the player's next prompt behind it, close it
on request or after its timeout, and open it again from its line in the log. What the panel
says is compared with what the engine did. Screenshots:
``artifacts/summary-<game>-<lang>-<width>.png``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from server.engine import Event

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_accessibility import AXE, RUN_AXE, WCAG

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "hu": "hu-HU", "nl": "nl-NL", "de": "de-DE"}
WAIT_MS = 25000  # summary.js WAIT_MS


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def table_before(game: str, trigger: str, seed: str) -> tuple[FakeTable, int, dict[str, Any]]:
    """A fake table (seat 0 a person, the rest bots) one command before the first event of
    type ``trigger``, and that command with its seat."""
    fake = FakeTable(seats=3, seed=seed, game=game)
    definition, rng = fake.game, random.Random(seed)
    for _ in range(5000):
        seat = min(definition.to_act(fake.state))
        cmd = rng.choice(definition.legal(fake.state, seat))
        state, events = definition.apply(fake.state, seat, cmd)
        if any(e["type"] == trigger for e in events):
            return fake, seat, cmd
        fake.state = state
        fake.events.extend(events)
        fake.commands.append({"seat": seat, "cmd": cmd})
        fake.version += 1
    raise AssertionError(f"no {trigger} in {seed}")


def others_play(fake: FakeTable, seat: int, cmd: dict[str, Any]) -> list[Event]:
    """``cmd`` played for ``seat`` from elsewhere (bots move on); every page gets its patch."""
    before = len(fake.events)
    fake.play(seat, cmd)
    fake.broadcast()
    return fake.events[before:]


def open_page(new_page: Any, server: ServerThread, fake: FakeTable, **options: Any) -> Any:
    clock = options.pop("clock", False)
    page = new_page(fresh=clock, **options)  # a fake clock stays on a page
    if clock:
        page.clock.install()
    fake.serve(page, 0)
    page.goto(f"{server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector("#players .player")
    return page


def text(locator: Any) -> str:
    """A locator's text as the DOM holds it (a badge's mark and name on one line)."""
    return str(locator.text_content() or "")


def favourites(events: list[Event]) -> dict[int, dict[str, Any]]:
    return {e["params"]["guild"]: e["params"] for e in events if e["type"] == "FavouriteChosen"}


def test_a_round_end_opens_its_summary_holds_the_prompt_and_comes_back_from_the_log(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake, seat, cmd = table_before("norenberc", "RoundEnded", "summary-round")
    page = open_page(new_page, pages_server, fake, viewport=DESKTOP)
    assert page.locator("#summary").is_hidden()  # nothing opens for what was there before
    events = others_play(fake, seat, cmd)
    page.wait_for_selector("#summary:not([hidden])")
    assert text(page.locator("#summary-title")) == "Round 1: the round end"
    assert "Round 1: the round end" in text(page.locator("#announce"))
    # One card per guild in play, saying who became favourite and by how many goods.
    guilds = [g["guild"] for g in fake.game.view(fake.state, 0)["guilds"]]
    assert page.locator(".sum-guild").count() == len(guilds)
    names = ["Ada", "Bot (easy) 2", "Bot (easy) 3"]
    for guild, p in favourites(events).items():
        card = page.locator(f"#sum-guild-{guild}")
        assert names[p["seat"]] in text(card.locator(".sum-fav"))
        why = text(card.locator(".sum-why"))
        for count in p["counts"]:
            assert f"{names[count['seat']]}: {count['n']}" in why
    for e in events:
        if e["type"] == "MasterLeft":
            assert "the master leaves" in text(page.locator(f"#sum-guild-{e['params']['guild']}"))
        if e["type"] == "IncomePaid":
            income = text(page.locator(".sum-income"))
            for a in e["params"]["talers"]:
                assert f"{names[a['seat']]}: {a['n']}" in income
    # The next prompt (planning round 2) waits behind the panel.
    assert fake.game.legal(fake.state, 0)
    assert page.locator("#summary-continue").is_visible()
    assert page.locator(".guild-cards").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "summary-hold-norenberc-en-1280.png"), full_page=True)
    page.click("#summary-continue")
    assert page.locator("#summary").is_hidden()
    page.wait_for_selector(".guild-cards .opt")
    # From its line in the log it opens again, without holding the prompt.
    page.click("#log button[data-summary=round-1]")
    page.wait_for_selector("#summary:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "summary-title"
    assert page.locator(".guild-cards .opt").count() > 0
    page.click("#summary-close")
    assert page.locator("#summary").is_hidden()


def test_a_page_opened_after_a_round_end_offers_it_from_the_log_only(
    new_page: Any, pages_server: ServerThread
) -> None:
    """The summary modules come with the first summary a log holds; one already there when
    the page opens is not news: it stays in the log, as on a reload."""
    fake, seat, cmd = table_before("norenberc", "RoundEnded", "summary-later")
    fake.play(seat, cmd)
    page = open_page(new_page, pages_server, fake, viewport=DESKTOP)
    page.wait_for_selector("#log button[data-summary=round-1]")
    assert page.locator("#summary").is_hidden()
    assert page.locator("#summary-continue").count() == 0
    page.click("#log button[data-summary=round-1]")
    page.wait_for_selector("#summary:not([hidden])")


def test_a_summary_closes_by_itself_unless_the_player_is_reading_it(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake, seat, cmd = table_before("norenberc", "RoundEnded", "summary-timeout")
    page = open_page(new_page, pages_server, fake, viewport=PHONE, clock=True)
    others_play(fake, seat, cmd)
    page.wait_for_selector("#summary:not([hidden])")
    page.clock.run_for(WAIT_MS - 1000)
    assert page.locator("#summary").is_visible()
    page.clock.run_for(2000)
    page.wait_for_selector("#summary", state="hidden")
    page.wait_for_selector(".guild-cards .opt")
    # Opened again and read (focus inside): it stays.
    page.click("#log button[data-summary=round-1]")
    page.clock.run_for(WAIT_MS * 2)
    assert page.locator("#summary").is_visible()


# Every language at the phone's width, where a longer word breaks the panel first; the
# desktop width of every language is in the soak tier.
@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("width", [pytest.param(1280, marks=pytest.mark.soak), 390])
def test_the_round_summary_in_every_language(
    new_page: Any, pages_server: ServerThread, lang: str, width: int
) -> None:
    fake, seat, cmd = table_before("norenberc", "RoundEnded", "summary-round")
    viewport = DESKTOP if width == 1280 else PHONE
    page = open_page(new_page, pages_server, fake, viewport=viewport, locale=LOCALES[lang])
    others_play(fake, seat, cmd)
    page.wait_for_selector("#summary:not([hidden])")
    shown = text(page.locator("#summary"))
    assert "summary." not in shown and "{" not in shown
    box = page.locator("#summary").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.add_script_tag(content=AXE)
    assert page.evaluate(RUN_AXE, WCAG) == []  # the open panel and the card holding the prompt
    page.locator("#summary").screenshot(
        path=str(ARTIFACTS / f"summary-norenberc-{lang}-{width}.png")
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_a_council_phase_opens_its_summary(
    new_page: Any, pages_server: ServerThread, width: int
) -> None:
    fake, seat, cmd = table_before("strasbourg", "CouncilScored", "summary-council")
    fake.names = ["Ada", None, None]
    viewport = DESKTOP if width == 1280 else PHONE
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    events = others_play(fake, seat, cmd)
    page.wait_for_selector("#summary:not([hidden])")
    assert text(page.locator("#summary-title")) == "Council after round 1"
    names = ["Ada", "Bot (easy) 2", "Bot (easy) 3"]
    council = fake.game.view(fake.state, 0)["council"]
    seats = page.locator(".sb-sum-seats li")
    assert seats.count() == len(council) == 8
    for key, holder in council.items():
        if holder is not None:
            assert any(names[holder] in text(seats.nth(i)) for i in range(8)), key
    for e in events:
        if e["type"] == "CouncilScored":
            line = text(page.locator(f"#sb-sum-points-{e['params']['seat']}"))
            n = e["params"]["count"]
            assert (f"scored {n} points" if n != 1 else "scored 1 point") in line
        if e["type"] == "PrivilegeGained":
            assert "privilege" in text(page.locator(f"#sb-sum-points-{e['params']['seat']}"))
    if fake.game.legal(fake.state, 0):
        assert page.locator("#summary-continue").is_visible()
    page.locator("#summary").screenshot(path=str(ARTIFACTS / f"summary-strasbourg-en-{width}.png"))
    page.click("#summary-close")
    page.click("#log button[data-summary=council-1]")
    page.wait_for_selector("#summary:not([hidden])")
