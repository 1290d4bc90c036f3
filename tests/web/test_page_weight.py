"""What a table page costs to load, in bytes on the wire, in real Chromium against a real
server: under 60 KB on a cold load and under 10 KB on a warm one (the websocket's snapshot
aside), because every static file is compressed and, under its versioned URL, kept a year.

The figures are printed (``-s``) for docs/ui.md; the budgets are the ones the page promises.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support import games

from .conftest import ServerThread, live_app

pytestmark = pytest.mark.browser
COLD_BUDGET = 60_000
WARM_BUDGET = 10_000
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with live_app(tmp_path_factory.mktemp("weight-db"), bot_delay=0.0) as live:
        yield live


class Wire:
    """Bytes each HTTP response took on the wire (headers included), read from the DevTools
    protocol; websocket frames are not HTTP responses and are not counted."""

    def __init__(self, page: Any) -> None:
        self.urls: dict[str, str] = {}
        self.bytes: dict[str, int] = {}
        self.session = session = page.context.new_cdp_session(page)
        session.on("Network.requestWillBeSent", self._sent)
        session.on("Network.loadingFinished", self._finished)
        session.send("Network.enable")

    def _sent(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        self.bytes[event["requestId"]] = int(event["encodedDataLength"])

    def total(self) -> int:
        return sum(self.bytes.values())

    def lines(self) -> list[str]:
        return [f"{self.bytes.get(rid, 0):>7} B  {url}" for rid, url in self.urls.items()]


def open_table(page: Any, url: str) -> Wire:
    wire = Wire(page)
    page.goto(url)
    page.locator("#board").wait_for()
    page.wait_for_load_state("networkidle")
    wire.session.detach()  # what comes after (the next visit) is not this load's
    return wire


@pytest.mark.parametrize("game", games.shipped())
def test_a_table_page_is_light_cold_and_lighter_warm(
    new_page: Any, server: ServerThread, game: str
) -> None:
    manifest = games.manifest(game)
    seats = min(max(3, manifest.min_seats), manifest.max_seats)
    made = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": game,
            "seats": seats,
            "name": "Anna",
            "bots": [None, *["random"] * (seats - 1)],
        },
    ).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{server.url}/api/tables/{made['table_id']}/start", headers=headers)
    url = f"{server.url}/t/{made['table_id']}#seat={made['token']}"
    page = new_page(viewport=PHONE, fresh=True)  # weighed cold: nothing cached yet

    cold = open_table(page, url)
    # A second visit in the same browser, as a player coming back to the table: a new
    # navigation (not a reload, which revalidates on purpose) uses what the first kept.
    page.goto("about:blank")
    warm = open_table(page, url)

    print(f"\n{game} cold load: {cold.total()} B", *cold.lines(), sep="\n  ")
    print(f"{game} warm load: {warm.total()} B", *warm.lines(), sep="\n  ")
    assert cold.total() < COLD_BUDGET, cold.lines()
    assert warm.total() < WARM_BUDGET, warm.lines()
    # The other games' scripts and dictionaries stay at home.
    for other in set(games.shipped()) - {game}:
        assert not [u for u in cold.urls.values() if f"/{other}" in u]
    # Nothing versioned went over the wire again on the warm load (no request, not even a
    # revalidation): only the page and the API did.
    refetched = [
        line
        for rid, line in zip(warm.urls, warm.lines(), strict=True)
        if ("/static/" in warm.urls[rid] or "/strings/" in warm.urls[rid]) and warm.bytes.get(rid)
    ]
    assert refetched == []
