"""The table page's clocks in real Chromium against a real server: a running clock counting
down, a timeout covered by a bot (and logged), the hand-over after the second one, and the
player taking the seat back. Screenshots at 1366 and 390 px go to tests/web/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, ServerThread, live_app

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
CLOCK = {"mode": "live", "plan": 5, "action": 5, "bank": 0, "increment": 0}


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with live_app(
        tmp_path_factory.mktemp("clock-db"),
        # A second per bot move: once a stand-in and the bot play each other, the game must not
        # end before the player has pressed "take my seat back" on a loaded machine.
        bot_delay=1.0,
        clock_bot="random",
        clock_sweep=0.5,
    ) as server:
        yield server


def started_table(server: ServerThread) -> dict[str, Any]:
    made: dict[str, Any] = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "norenberc",
            "seats": 2,
            "name": "Anna",
            "bots": [None, "random"],
            "clock": CLOCK,
        },
    ).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{server.url}/api/tables/{made['table_id']}/start", headers=headers)
    return made


@pytest.mark.slow  # real clocks: it waits out a plan deadline
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1366", "390"])
def test_a_running_clock_a_covered_timeout_and_taking_the_seat_back(
    new_page: Any, clock_server: ServerThread, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    made = started_table(clock_server)
    page = new_page(viewport=viewport)
    page.goto(f"{clock_server.url}/t/{made['table_id']}#seat={made['token']}")
    chip = page.locator(".clock-chip[data-seat='0'] .clock-time")
    chip.wait_for(timeout=10_000)
    first = chip.text_content()
    assert first is not None and first.startswith("0:0")
    page.wait_for_function(
        "t => document.querySelector(\".clock-chip[data-seat='0'] .clock-time\").textContent !== t",
        arg=first,
        timeout=5_000,
    )  # it counts down by itself, between two documents
    page.screenshot(path=str(ARTIFACTS / f"clocks-running-{width}.png"), full_page=True)
    # Anna does nothing: a bot plays her plan, and the log says so.
    page.locator("#log li", has_text="Time ran out: a bot played for Anna").wait_for(timeout=20_000)
    # Her own card says so, from the real server's clock (its seat's timeouts in a row).
    note = page.locator("#player-0 #timeout-note")
    note.wait_for(timeout=5_000)
    assert note.inner_text().startswith("Time ran out: a bot played for you.")
    page.screenshot(path=str(ARTIFACTS / f"clocks-covered-{width}.png"), full_page=True)
    # Her next decision runs out too: a stand-in plays until she takes the seat back.
    back = page.locator("#reclaim-seat").first
    back.wait_for(timeout=30_000)
    # The button comes with the seat_lost that closes her seat's connection; the log's line
    # with the document her page then reads as a spectator's, a moment later.
    page.locator("#log li", has_text="until they take the seat back").first.wait_for(timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / f"clocks-handed-over-{width}.png"), full_page=True)
    back.click()
    page.locator("#reclaim-seat").first.wait_for(state="detached", timeout=10_000)
    page.locator("#log li", has_text="Anna took their seat back").wait_for(timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / f"clocks-taken-back-{width}.png"), full_page=True)
