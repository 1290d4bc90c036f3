"""The table page's "Notifications" card in real Chromium against a real server: a player
sets and removes their own e-mail address, the creator sets the table's webhook, refusals
show in the page's language, and nobody else sees either. Screenshots at 1280 and 390 px go
to tests/web/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, ConsoleErrors, ServerThread, live_app

pytestmark = pytest.mark.browser
VIEWPORTS = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    # E-mail on (nothing is sent here: the players are on the page, and the outbox is idle).
    with live_app(
        tmp_path_factory.mktemp("notify-db"), smtp_host="127.0.0.1", notify_sweep=300
    ) as live:
        yield live


def table(server: ServerThread) -> tuple[str, str, str]:
    """A started Norenberc table of Anna (the creator) and Bela: (id, Anna's token, Bela's)."""
    made = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "norenberc", "seats": 2, "name": "Anna", "clock": {"mode": "days"}},
    ).json()
    joined = httpx.post(
        f"{server.url}/api/tables/{made['table_id']}/join",
        json={"name": "Bela", "invite": made["invite"]},
    ).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{server.url}/api/tables/{made['table_id']}/start", headers=headers)
    return made["table_id"], made["token"], joined["token"]


def expected_refusals(errors: ConsoleErrors) -> None:
    """Forget the 400s this test provokes on purpose (and the console lines they make)."""
    errors[:] = [
        e
        for e in errors
        if not ("400" in e and ("/email" in e or "/webhook" in e or "console:" in e))
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280", "390"])
def test_a_player_sets_their_address_and_the_creator_the_webhook_seen_by_nobody_else(
    new_page: Any, server: ServerThread, console_errors: ConsoleErrors, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    table_id, anna, bela = table(server)
    page = new_page(viewport=viewport)
    page.goto(f"{server.url}/t/{table_id}#seat={anna}")
    card = page.locator("#notify")
    card.locator("summary", has_text="Notifications").click(timeout=10_000)  # folded at first
    card.locator("#notify-email").wait_for(timeout=10_000)
    # A refusal says why, in the page's words.
    page.fill("#notify-email", "not an address")
    page.click("#notify-email-save")
    page.locator("#notify-status", has_text="That is not an e-mail address.").wait_for()
    page.fill("#notify-email", "anna@example.org")
    page.click("#notify-email-save")
    page.locator("#notify-status", has_text="Saved.").wait_for()
    page.fill("#notify-webhook", "http://127.0.0.1:9/hook")
    page.click("#notify-webhook-save")
    page.locator("#notify-status", has_text="private network").wait_for()
    assert page.input_value("#notify-webhook") == "http://127.0.0.1:9/hook"  # kept to correct
    page.screenshot(path=str(ARTIFACTS / f"notify-creator-{width}.png"), full_page=True)
    expected_refusals(console_errors)
    # Kept across a reload; removed again with Remove.
    page.reload()
    page.locator("#notify summary").click(timeout=10_000)
    page.locator("#notify-email-remove").wait_for(timeout=10_000)
    assert page.input_value("#notify-email") == "anna@example.org"

    # Bela sees his own (empty) field and no webhook; a spectator sees no card at all.
    other = new_page(viewport=viewport)
    other.goto(f"{server.url}/t/{table_id}#seat={bela}")
    other.locator("#notify summary").click(timeout=10_000)
    other.locator("#notify-email").wait_for(timeout=10_000)
    assert other.input_value("#notify-email") == ""
    assert other.locator("#notify-webhook").count() == 0
    assert other.locator("#notify").inner_text().split("\n")[-1].endswith("address.")
    assert "anna@example.org" not in other.content()
    other.screenshot(path=str(ARTIFACTS / f"notify-player-{width}.png"), full_page=True)
    watcher = new_page(viewport=viewport)
    watcher.goto(f"{server.url}/t/{table_id}")
    watcher.locator("#layout").wait_for(timeout=10_000)
    watcher.wait_for_load_state("networkidle")
    assert watcher.locator("#notify").is_hidden()
    assert "anna@example.org" not in watcher.content()

    page.click("#notify-email-remove")
    page.locator("#notify-status", has_text="Removed.").wait_for()
    assert page.input_value("#notify-email") == ""
