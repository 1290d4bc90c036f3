"""The table page's "Notifications" card in real Chromium against a real server: a player
sets their own e-mail address, which waits until the link mailed to it (an SMTP server on
127.0.0.1) is opened and confirmed, and then says so without a reload; they remove it again;
the creator sets the table's webhook; refusals show in the page's language, and nobody else
sees either. Screenshots at 1280 and 390 px go to tests/web/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.notify.conftest import Mailbox, running_mailbox
from tests.notify.test_email_confirm import link_token

from .conftest import ARTIFACTS, ConsoleErrors, ServerThread, live_app

pytestmark = pytest.mark.browser
VIEWPORTS = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    with running_mailbox() as box:
        yield box


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[ServerThread]:
    # E-mail on: the confirmation links go to the mailbox (no notice is sent here: the players
    # are on the page, and the outbox is idle).
    with live_app(
        tmp_path_factory.mktemp("notify-db"), smtp_host="127.0.0.1", smtp_port=mailbox.port,
        smtp_tls="none", notify_sweep=300,
    ) as live:  # fmt: skip
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


def shoot_card(page: Any, name: str) -> None:
    """The card at the top of the screen, as a player scrolled to it sees it (on a phone the
    planning sheet keeps the screen's lower part)."""
    page.locator("#notify").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(ARTIFACTS / name))


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["1280", "390"])
def test_a_player_sets_their_address_and_the_creator_the_webhook_seen_by_nobody_else(
    new_page: Any,
    server: ServerThread,
    mailbox: Mailbox,
    console_errors: ConsoleErrors,
    viewport: dict[str, int],
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
    mails = len(mailbox.mails)
    page.fill("#notify-email", "anna@example.org")
    page.click("#notify-email-save")
    page.locator("#notify-status", has_text="We sent a link to anna@example.org").wait_for()
    state = page.locator("#notify-email-state")
    assert "Waiting for confirmation" in state.inner_text()
    assert page.locator("#notify-email-resend").is_visible()
    shoot_card(page, f"notify-waiting-{width}.png")
    # The link, opened in another tab, asks first; its button confirms.
    token = link_token(mailbox.wait_for(mails + 1)[mails][1])
    link = new_page(viewport=viewport)
    link.goto(f"{server.url}/email/confirm/{token}")
    assert "anna@example.org" in link.locator("#confirm-text").inner_text()
    link.screenshot(path=str(ARTIFACTS / f"notify-confirm-ask-{width}.png"), full_page=True)
    link.click("#confirm-button")
    link.locator("#confirm-text", has_text="Confirmed").wait_for()
    link.screenshot(path=str(ARTIFACTS / f"notify-confirm-done-{width}.png"), full_page=True)
    # Back on the table page (the browser tells it so), the card says so without a reload.
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    state.filter(has_text="Confirmed").wait_for()
    assert page.locator("#notify-email-resend").count() == 0
    shoot_card(page, f"notify-confirmed-{width}.png")
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


@pytest.mark.parametrize("lang", ["de", "en", "hu", "nl"])
def test_the_confirmation_page_reads_well_in_every_language(
    new_page: Any,
    server: ServerThread,
    mailbox: Mailbox,
    console_errors: ConsoleErrors,
    lang: str,
) -> None:
    from .test_accessibility import AXE, RUN_AXE, WCAG

    table_id, _anna, bela = table(server)
    mails = len(mailbox.mails)
    answer = httpx.post(
        f"{server.url}/api/tables/{table_id}/seats/1/email",
        json={"email": f"bela.{lang}@example.org"},
        headers={"Authorization": f"Bearer {bela}"},
    )
    assert answer.status_code == 200, answer.text
    token = link_token(mailbox.wait_for(mails + 1)[mails][1])
    page = new_page(viewport=VIEWPORTS[1])
    found = []
    for state, path in (("ask", token), ("unknown", "not-a-link")):
        page.goto(f"{server.url}/email/confirm/{path}?lang={lang}")
        for viewport in VIEWPORTS:
            page.set_viewport_size(viewport)
            if not page.evaluate("typeof axe !== 'undefined'"):
                page.evaluate(AXE)
            found += [f"{state} at {viewport['width']}: {v}" for v in page.evaluate(RUN_AXE, WCAG)]
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (state, viewport)
        page.screenshot(path=str(ARTIFACTS / f"confirm-{state}-{lang}-390.png"))
    page.goto(f"{server.url}/email/confirm/{token}?lang={lang}")
    page.click("#confirm-button")
    page.wait_for_selector("#confirm-table")
    assert f"bela.{lang}@example.org" in page.inner_text("#confirm-text")
    assert found == [], "\n".join(found)
    # The made-up link's page is a 404 on purpose.
    console_errors[:] = [
        e for e in console_errors if "not-a-link" not in e and "status of 404" not in e
    ]
