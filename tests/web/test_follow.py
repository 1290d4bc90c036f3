"""What just happened (web/static/js/follow.js): the places another player's move changed
glow where they are, for HIGHLIGHT_MS (Escape ends it; under reduced motion a still outline),
and at the player's turn a digest lists the others' log lines since the player's own last
move, which the live region speaks with the turn. Screenshots: ``artifacts/follow-*.png``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from server.api import pages
from server.engine import Event, log_entry

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app

pytestmark = pytest.mark.browser
AUTOPLAY = (Path(__file__).parent / "autoplay.js").read_text()
IDLE = "!document.querySelector('.sending')"
HIGHLIGHT_MS = 4000  # follow.js
NAMES = ["Ada", "Bot (easy) 2", "Bot (easy) 3"]


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def open_page(new_page: Any, server: ServerThread, fake: FakeTable, **options: Any) -> Any:
    page = new_page(fresh=True, **options)  # a fake clock stays on a page
    page.clock.install()
    fake.serve(page, 0)
    page.goto(f"{server.url}/t/fake#seat=tok0")
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector("#players .player")
    return page


def play_until_a_bot_moves_goods(page: Any, fake: FakeTable) -> list[Event]:
    """Ada plays through her prompts until the bots' moves after hers include goods that
    changed hands; returns the events of that last round trip."""
    for _ in range(60):
        before = len(fake.events)
        assert page.evaluate(AUTOPLAY, ["sell", "buy", "hire"])
        page.wait_for_function(IDLE)
        new = fake.events[before:]
        moved = [e for e in new if e["type"] in ("GoodsSold", "GoodsBought")]
        if any(e["params"]["seat"] != 0 for e in moved) and fake.game.legal(fake.state, 0):
            return new
    raise AssertionError("no bot sold or bought in 60 decisions")


@pytest.mark.parametrize("width", [1280, 390])
def test_others_changes_glow_where_they_happen_and_the_digest_tells_them(
    new_page: Any, pages_server: ServerThread, width: int
) -> None:
    fake = FakeTable(seed="follow")
    viewport = {"width": width, "height": 900 if width > 400 else 844}
    page = open_page(
        new_page, pages_server, fake, viewport=viewport, reduced_motion="no-preference"
    )
    events = play_until_a_bot_moves_goods(page, fake)
    page.wait_for_selector(".changed")
    # Without reduced motion the glow moves (the still outline is the next test's).
    assert page.evaluate("getComputedStyle(document.querySelector('.changed')).animationName") == (
        "changed"
    )
    for e in events:
        if e["type"] in ("GoodsSold", "GoodsBought") and e["params"]["seat"] != 0:
            seat = e["params"]["seat"]
            assert "changed" in (page.get_attribute(f"[data-watch=goods-{seat}]", "class") or "")
    # The digest: the others' lines since Ada's own last one, the latest six.
    log = [log_entry(ev) for ev in fake.events if ev["to"] is None or 0 in ev["to"]]
    mine = max(i for i, entry in enumerate(log) if entry["params"].get("seat") == 0)
    others = [entry for entry in log[mine + 1 :] if entry["params"].get("seat") not in (None, 0)]
    items = page.locator("#digest-card li").all_text_contents()
    assert len(items) == min(6, len(others)) > 0
    for item, entry in zip(items, others[-6:], strict=True):
        assert NAMES[entry["params"]["seat"]] in item
    assert "Since your last move:" in (page.text_content("#announce") or "")
    page.screenshot(path=str(ARTIFACTS / f"follow-changed-{width}.png"), full_page=True)
    # The glow ends by itself.
    page.clock.run_for(HIGHLIGHT_MS + 100)
    page.wait_for_function("!document.querySelector('.changed')")


def test_escape_ends_the_glow_and_reduced_motion_holds_it_still(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = FakeTable(seed="follow")
    page = open_page(new_page, pages_server, fake, reduced_motion="reduce")
    play_until_a_bot_moves_goods(page, fake)
    page.wait_for_selector(".changed")
    style = page.evaluate(
        "(() => { const s = getComputedStyle(document.querySelector('.changed'));"
        " return [s.animationName, s.outlineStyle]; })()"
    )
    assert style == ["none", "solid"]
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('.changed')")


def test_nothing_glows_on_the_first_view_or_for_the_players_own_move(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = FakeTable(seats=2, seed="follow-own", names=["Ada", "Bea"])  # nobody else moves
    page = open_page(new_page, pages_server, fake)
    assert page.locator(".changed").count() == 0
    assert page.evaluate(AUTOPLAY, ["sell", "buy", "hire"])
    page.wait_for_function(IDLE)
    assert page.locator(".changed").count() == 0
    assert page.locator("#digest-card").count() == 0


def digest_with_an_agent() -> FakeTable:
    """A Norenberc table at Ada's turn whose digest (the others' latest six lines) holds a
    bot's hire of a craftsman with an agent and the agent it brought; the bots move no more."""
    for n in range(100):
        fake = FakeTable(seed=f"digest-agent-{n}")
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            seat = min(fake.game.to_act(fake.state))
            legal = fake.game.legal(fake.state, seat)
            if seat == 0:
                log = [log_entry(e) for e in fake.events if e["to"] is None or 0 in e["to"]]
                own = [i for i, e in enumerate(log) if e["params"].get("seat") == 0]
                last = log[own[-1] + 1 :][-6:] if own else []
                types = {(e["type"], e["params"].get("variant")) for e in last}
                hired = [
                    e for e in last if e["type"] == "GuestHired" and e["params"]["tile"]["agent"]
                ]
                if ("AgentGained", "symbol") in types and hired:
                    fake.run_bots = lambda: None  # type: ignore[method-assign]
                    return fake
            fake.state, events = fake.game.apply(fake.state, seat, rng.choice(legal))
            fake.events.extend(events)
    raise AssertionError("no seeded game put a hired agent in Ada's digest")


@pytest.mark.parametrize("lang", ["en", "hu", "nl", "de"])
def test_the_digest_says_an_agent_in_words(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    fake = digest_with_an_agent()
    strings = pages.languages()[lang]
    locale = {"en": "en-GB", "hu": "hu-HU", "nl": "nl-NL", "de": "de-DE"}[lang]
    page = open_page(
        new_page, pages_server, fake, viewport={"width": 390, "height": 844}, locale=locale
    )
    page.wait_for_selector("#digest-card li")
    items = page.locator("#digest-card li").all_inner_texts()
    gained = strings["log.AgentGained.symbol"].split("{seat:seat}", 1)[1].strip()
    assert any(gained in item for item in items), items
    hired = next(
        e
        for e in reversed(fake.events)
        if e["type"] == "GuestHired" and e["params"]["tile"]["agent"]
    )["params"]["tile"]
    guild = strings[f"guild.{hired['guild']}"]
    craftsman = strings["craftsman.label_agent"].format(guild=guild, v=hired["value"])
    assert any(craftsman in item for item in items), (craftsman, items)
    # In words only: neither the symbol nor the symbol's name stands in a sentence.
    for item in items:
        assert "♟" not in item and "(agent symbol)" not in item, item
    # The page draws the card anew whenever a lazily loaded part arrives, so an element
    # screenshot can lose its element mid-way: the locator finds the new card on a retry.
    for attempt in range(3):
        try:
            page.locator("#digest-card").screenshot(
                path=str(ARTIFACTS / f"follow-digest-agent-{lang}-390.png")
            )
            break
        except PlaywrightError as error:
            if "not attached" not in str(error) or attempt == 2:
                raise
