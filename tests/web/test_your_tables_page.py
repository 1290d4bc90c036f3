"""The lobby's "your tables" and the rematch, in real Chromium against a real server: the seat
links a browser opened are listed with the round and "your move" (with the time left), a
finished game with its result; at the end of a game one player asks for a rematch, the other
joins it from the "join the rematch" button, and both play the new table. Screenshots at
1280 and 390 px: ``artifacts/lobby-mine-*.png``, ``artifacts/rematch-*.png``."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.engine import get_game
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings
from server.store.db import make_engine, make_sessionmaker
from server.tables import TableService
from tests.support.threads import in_a_thread

from .conftest import ARTIFACTS, ServerThread, live_app

pytestmark = pytest.mark.browser
SECRET = "web-test"  # live_app's key: tokens made here must be good there
DAYS = {"mode": "days", "per_decision": 86400}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Path]]:
    folder = tmp_path_factory.mktemp("mine-db")
    with live_app(folder, bot_delay=0.1, secret_key=SECRET) as live:
        yield live, folder


async def _play_to_the_end(database_url: str, seed: str) -> tuple[str, str, str]:
    """A Norenberc game of Ada, Bea and a greedy bot, played to its end by another service on
    the server's database (a second process's worth): random legal moves for every seat.

    Its bots are due an hour from each move, so the server's own clock keeper leaves them to
    this service. Returns (table id, Ada's token, Bea's token)."""
    settings = Settings(database_url=database_url, secret_key=SECRET, bot_delay=3600.0)
    engine = make_engine(database_url)
    service = TableService(settings, make_sessionmaker(engine), MemoryFanOut())
    game, rng = get_game("norenberc"), random.Random(seed)
    try:
        data, ada = await service.create_table("norenberc", 3, {}, [None, None, "greedy"], "Ada")
        _, bea = await service.join(data.id, "Bea", invite=service.invite_code(data.id))
        await service.start(data.id, ada)
        for _ in range(3000):
            data = await service.get_stored(data.id)
            if data.status == "finished":
                return data.id, ada, bea
            state = data.state
            assert state is not None
            seat = rng.choice(sorted(game.to_act(state)))
            legal = game.legal(state, seat)
            forward = [cmd for cmd in legal if cmd["type"] not in ("retract", "wait")]
            await service.submit(data.id, seat, rng.choice(forward or legal))
        raise AssertionError("the game did not end in 3000 moves")
    finally:
        await service.close()
        await engine.dispose()


def finished_game(folder: Path, seed: str) -> tuple[str, str, str]:
    """``_play_to_the_end`` in a thread of its own (Playwright runs a loop in this one)."""
    url = f"sqlite+aiosqlite:///{folder / 'guildhall.db'}"
    return in_a_thread(lambda: asyncio.run(_play_to_the_end(url, seed)))


def playing_table(live: ServerThread) -> tuple[str, str]:
    """A Norenberc table of Ada and Bea with a day per move, dealt: both must plan now."""
    made = httpx.post(
        f"{live.url}/api/tables",
        json={"game": "norenberc", "seats": 2, "name": "Ada", "clock": DAYS},
    ).json()
    join = {"name": "Bea", "invite": made["invite"]}
    httpx.post(f"{live.url}/api/tables/{made['table_id']}/join", json=join)
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{live.url}/api/tables/{made['table_id']}/start", headers=headers)
    return made["table_id"], made["token"]


def open_seat(page: Any, live: ServerThread, table_id: str, token: str) -> None:
    """Open a seat link as a player would (the page remembers it in this browser)."""
    page.goto(f"{live.url}/t/{table_id}#seat={token}")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('gh_tables') || '[]').length")


@pytest.mark.parametrize("width", [1280, 390])
def test_your_tables_show_your_move_and_a_rematch_seats_both_players(
    new_page: Any, server: tuple[ServerThread, Path], width: int
) -> None:
    live, folder = server
    viewport = {"width": width, "height": 900 if width > 400 else 844}
    old_id, ada, bea = finished_game(folder, f"mine-{width}")
    playing_id, ada_playing = playing_table(live)
    ada_page = new_page(viewport=viewport)
    open_seat(ada_page, live, playing_id, ada_playing)
    ada_page.wait_for_selector("#layout:not([hidden])")
    open_seat(ada_page, live, old_id, ada)
    ada_page.wait_for_selector("#rematch-button")

    # The lobby lists both links: the table where Ada must plan first, with its day ticking.
    ada_page.goto(live.url + "/")
    mine = ada_page.locator("#mine-list .mine-item")
    ada_page.locator("#mine-list .mine-item.your-move").wait_for()
    assert mine.count() == 2
    first = mine.nth(0)
    assert first.get_attribute("data-table") == playing_id
    text = first.inner_text()
    assert "Norenberc" in text and "Ada, Bea" in text
    assert "Round 1" in text and "Your move" in text
    left = first.locator(".mine-left").inner_text()
    assert left.endswith(" left") and left[0].isdigit(), left  # "23:59:58 left"
    done = mine.nth(1)
    done.locator(".mine-status", has_text="Finished").wait_for()
    assert "Ada, Bea, Bot (medium) 3" in done.inner_text()
    assert done.locator("button", has_text="Rematch").count() == 1
    _no_sideways_scroll(ada_page)
    ada_page.screenshot(path=str(ARTIFACTS / f"lobby-mine-{width}.png"), full_page=True)

    # Bea is at the finished table; Ada asks for the rematch from hers.
    bea_page = new_page(viewport=viewport)
    open_seat(bea_page, live, old_id, bea)
    bea_page.wait_for_selector("#rematch-button")
    open_seat(ada_page, live, old_id, ada)
    ada_page.click("#rematch-button")
    ada_page.wait_for_url(lambda url: f"/t/{old_id}" not in url)
    new_id = ada_page.url.split("/t/")[1].split("#")[0]
    ada_page.wait_for_selector("#waiting-room:not([hidden])")
    ada_page.screenshot(path=str(ARTIFACTS / f"rematch-waiting-{width}.png"), full_page=True)
    # Bea's page learns of it by itself and offers to join.
    join = bea_page.locator("#rematch-button", has_text="Join the rematch")
    join.wait_for()
    assert "A rematch is waiting for you." in bea_page.inner_text("#rematch")
    bea_page.screenshot(path=str(ARTIFACTS / f"rematch-offer-{width}.png"), full_page=True)
    join.click()
    bea_page.wait_for_url(f"**/t/{new_id}#seat=*")
    # Everyone came: the rematch is dealt; each page plays its own seat of it.
    for page in (ada_page, bea_page):
        page.wait_for_selector("#layout:not([hidden])")
    tokens = [page.url.split("#seat=")[1] for page in (ada_page, bea_page)]
    assert tokens[0] != tokens[1] and not {ada, bea} & set(tokens)
    seats = [_seat_of(live, new_id, token) for token in tokens]
    assert seats == [0, 1]
    summary = httpx.get(f"{live.url}/api/tables/{new_id}").json()
    assert summary["status"] == "playing"
    assert [(s["name"], s["bot"]) for s in summary["seats"]] == [
        ("Ada", None),
        ("Bea", None),
        (None, "greedy"),
    ]
    _no_sideways_scroll(bea_page)
    bea_page.screenshot(path=str(ARTIFACTS / f"rematch-joined-{width}.png"), full_page=True)

    # Back in the lobby (in German this time), the rematch is among Ada's tables too.
    ada_page.goto(live.url + "/?lang=de")
    ada_page.locator(f"#mine-list .mine-item[data-table='{new_id}']").wait_for()
    moves = ada_page.locator("#mine-list .your-move .mine-status", has_text="Du bist am Zug")
    moves.nth(1).wait_for()  # the rematch and the other table both wait for Ada to plan
    # The finished table no longer offers to join the rematch she sits at: it opens it.
    old = ada_page.locator(f"#mine-list .mine-item[data-table='{old_id}']")
    opened = old.locator("a", has_text="Revanche öffnen")
    opened.wait_for()
    assert (opened.get_attribute("href") or "").startswith(f"/t/{new_id}#seat=")
    assert old.locator("button", has_text="Revanche").count() == 0
    _no_sideways_scroll(ada_page)
    ada_page.screenshot(path=str(ARTIFACTS / f"lobby-mine-de-{width}.png"), full_page=True)


def _seat_of(live: ServerThread, table_id: str, token: str) -> int:
    """The seat a page's seat link owns, as the server says."""
    headers = {"Authorization": f"Bearer {token}"}
    me = httpx.get(f"{live.url}/api/tables/{table_id}/me", headers=headers)
    assert me.status_code == 200, me.text
    return int(me.json()["seat"])


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways to {width} px"


def test_a_tap_on_your_tables_survives_the_list_drawn_again_under_the_finger(
    new_page: Any, server: tuple[ServerThread, Path]
) -> None:
    """The list is drawn anew at each poll (and when the tab comes back into view); a redraw
    between a press and its release would put a new link under the finger and swallow the
    tap. The lobby waits for the release: the pressed link opens its table."""
    live, _folder = server
    table_id, token = playing_table(live)
    page = new_page(viewport={"width": 390, "height": 844})
    open_seat(page, live, table_id, token)
    page.goto(live.url + "/")
    # Once the server's answer is drawn (the list is drawn first from this browser's links).
    item = page.locator(f'#mine-list .mine-item.your-move[data-table="{table_id}"]')
    item.wait_for()
    link = item.locator("a").first
    box = None
    for _ in range(5):  # a poll may draw the list again between finding the link and its box
        box = link.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    kept = page.evaluate(
        """() => {
          const before = document.querySelector("#mine-list .mine-item");
          document.dispatchEvent(new Event("visibilitychange"));  // draws the list at once
          return document.querySelector("#mine-list .mine-item") === before;
        }"""
    )
    assert kept, "the list was drawn again under the pressed link"
    page.mouse.up()
    page.wait_for_url(f"**/t/{table_id}*")
