"""The pages under their real Content-Security-Policy in Chromium: the lobby creates a table
and both games' table pages draw their boards (styles set through the CSSOM) with no policy
violation and no console error. The other browser tests bypass the policy (Playwright's
wait_for_function needs eval), so this is the one that holds the pages to it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.conftest import ConsoleErrors, ServerThread

pytestmark = pytest.mark.browser
VIOLATIONS = (
    "window.__violations = [];"
    "document.addEventListener('securitypolicyviolation',"
    " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    from server.app import create_app
    from server.settings import Settings
    from server.store.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('csp-db') / 'guildhall.db'}"
    migrating = threading.Thread(target=upgrade, args=(url,))  # Alembic runs its own loop
    migrating.start()
    migrating.join()
    settings = Settings(database_url=url, secret_key="csp", bot_delay=0.0, rate_limit=1000.0)
    with ServerThread(create_app(settings)) as server:
        yield server


@pytest.fixture
def strict_page(browser: Any) -> Iterator[tuple[Any, ConsoleErrors]]:
    context = browser.new_context(bypass_csp=False)
    context.add_init_script(VIOLATIONS)
    errors = ConsoleErrors()
    page = errors.watch(context.new_page())
    yield page, errors
    context.close()


def started_table(server: ServerThread, game: str, bots: list[str | None]) -> tuple[str, str]:
    body = {"game": game, "seats": len(bots), "bots": bots, "name": "Ada"}
    created = httpx.post(server.url + "/api/tables", json=body).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    started = httpx.post(f"{server.url}/api/tables/{created['table_id']}/start", headers=auth)
    assert started.status_code == 200, started.text
    return created["table_id"], created["token"]


def test_the_lobby_runs_its_scripts_under_the_policy(
    live_server: ServerThread, strict_page: tuple[Any, ConsoleErrors]
) -> None:
    page, errors = strict_page
    res = page.goto(live_server.url + "/")
    assert "script-src 'self'" in res.headers["content-security-policy"]
    # lobby.js ran: it fills the game list and reads the strings from the data block.
    page.wait_for_selector("#game option", state="attached")
    assert page.inner_text("#create-button").strip() == "Create table"
    page.fill("#player-name", "Ada")
    page.click("#create-button")
    page.wait_for_selector("#created-card:not([hidden])")
    assert page.evaluate("window.__violations") == []
    assert errors == []


@pytest.mark.parametrize(
    ("game", "bots", "styled", "prop"),
    [
        ("norenberc", [None, "random"], ".houses", "--cols"),
        ("strasbourg", [None, "random", "random"], ".sb-axes", "--cols"),
    ],
)
def test_table_pages_draw_their_boards_under_the_policy(
    live_server: ServerThread,
    strict_page: tuple[Any, ConsoleErrors],
    game: str,
    bots: list[str | None],
    styled: str,
    prop: str,
) -> None:
    page, errors = strict_page
    table_id, token = started_table(live_server, game, bots)
    page.goto(f"{live_server.url}/t/{table_id}#seat={token}")
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector(styled)
    value = page.eval_on_selector(styled, f"e => e.style.getPropertyValue('{prop}')")
    assert value.strip().isdigit(), value
    assert page.evaluate("window.__violations") == []
    assert errors == []
