"""The whole stack in headless Chromium: lobby → table → a full game against bots → replay.

A real uvicorn serves ``create_app`` on 127.0.0.1 with a migrated SQLite file and
``bot_delay=0``. One person (seat 0) clicks through every planning and action prompt.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, ServerThread

pytestmark = pytest.mark.browser
AUTOPLAY = (Path(__file__).parent / "autoplay.js").read_text()
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
MAX_DECISIONS = 300
HANDOVER_AFTER = 1.0  # seconds away before the creator may let a bot play a seat
IDLE = "!document.querySelector('.sending')"
# Events after a sale that may change the seller's money before the page shows it again.
MONEY_EVENTS = {"IncomePaid", "GoodsStolen", "BonusPaid"}


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    from server.app import create_app
    from server.settings import Settings
    from server.store.migrate import upgrade

    folder = tmp_path_factory.mktemp("web-db")
    url = f"sqlite+aiosqlite:///{folder / 'guildhall.db'}"
    # Alembic runs its own event loop; Playwright's sync API already has one in this thread.
    migrating = threading.Thread(target=upgrade, args=(url,))
    migrating.start()
    migrating.join()
    settings = Settings(
        database_url=url,
        secret_key="web-test",
        bot_delay=0.0,
        rate_limit=1000.0,
        handover_after=HANDOVER_AFTER,
    )
    app = create_app(settings)
    with ServerThread(app) as server:
        yield server


@pytest.fixture(autouse=True)
def no_server_errors(live_server: ServerThread) -> Iterator[None]:
    """Every test here fails if the server logged an error while it ran."""
    live_server.errors.lines.clear()
    yield
    assert live_server.errors.lines == []


def table_id_of(link: str) -> str:
    """The table id of a table or invite link (``…/t/<id>#invite=…``)."""
    return link.split("#", 1)[0].rsplit("/", 1)[1]


def create_from_lobby(page: Any, url: str) -> str:
    """Fill the lobby form for 3 players (two bots), create and start; returns the table id."""
    page.goto(url + "/")
    page.fill("#player-name", "Ada")
    page.select_option("#seat-count", "3")
    page.select_option("#seat-kind-1", "random")
    page.select_option("#seat-kind-2", "greedy")
    page.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)
    page.click("#create-button")
    page.wait_for_selector("#created-card:not([hidden])")
    invite = page.input_value("#invite-link")
    assert re.fullmatch(re.escape(url) + r"/t/[\w-]+#invite=[\w-]+", invite)
    page.wait_for_selector("#joined-list li:has-text('Ada')")
    assert page.locator("#joined-list li").count() == 3
    page.screenshot(path=str(ARTIFACTS / "lobby-created.png"), full_page=True)
    page.click("#start-button")
    page.wait_for_url(re.compile(r".*/t/[\w-]+#seat=.+"))
    page.wait_for_selector("#conn[data-state=online]")
    return table_id_of(invite)


def join_as(page: Any, name: str) -> None:
    """Take a seat from the waiting room of an invite link."""
    page.wait_for_selector("#conn[data-state=online]")
    page.fill("#join-name", name)
    page.click("#waiting-room button[type=submit]")
    page.wait_for_url(re.compile(r".*#seat=.+"))


def my_talers(page: Any) -> int:
    return int(page.inner_text("#my-talers"))


def log_types(page: Any) -> list[str]:
    """Each log line's type (its ``log-<type>`` class; a new line also glows ``fresh``)."""
    classes = page.eval_on_selector_all("#log li", "els => els.map(e => e.className)")
    return [
        next((c.removeprefix("log-") for c in names.split() if c.startswith("log-")), "")
        for names in classes
    ]


def wait_my_turn_or_end(page: Any) -> None:
    page.wait_for_function(
        "(document.querySelector('.banner.mine') && !document.querySelector('.sending'))"
        " || document.getElementById('score-table') !== null"
    )


class SaleCheck:
    """Remembers the first sale and checks the money the page shows after it."""

    def __init__(self) -> None:
        self.before: int | None = None
        self.total = 0
        self.log_len = 0
        self.checked = False

    def start(self, summary: str, talers: int, log_len: int) -> None:
        if self.before is None and summary.startswith("Sell"):
            self.before, self.log_len = talers, log_len
            self.total = int(re.search(r"for (\d+) talers", summary).group(1))  # type: ignore[union-attr]

    def check(self, page: Any) -> None:
        if self.before is None or self.checked:
            return
        self.checked = True
        after = log_types(page)[self.log_len :]
        assert "GoodsSold" in after
        assert page.locator(
            "#log li", has_text=re.compile(r"Ada sold \d+ \w+ for \d+ talers?")
        ).count()
        if not MONEY_EVENTS & set(after):
            assert my_talers(page) == self.before + self.total
        else:
            assert my_talers(page) >= self.before + self.total


@pytest.mark.slow
def test_one_person_plays_a_whole_game_against_bots(
    new_page: Any, live_server: ServerThread
) -> None:
    page = new_page(viewport=DESKTOP)
    table_id = create_from_lobby(page, live_server.url)
    sale = SaleCheck()
    reloaded = False
    decisions = 0
    while decisions < MAX_DECISIONS:
        wait_my_turn_or_end(page)
        if page.locator("#score-table").count():
            break
        sale.check(page)
        if not reloaded and page.locator(".house.called").count() and decisions > 6:
            reloaded = reload_mid_game(page)
            continue
        talers, log_len = my_talers(page), page.locator("#log li").count()
        # Sell until one sale is checked, then vary so that hires and buys happen too.
        prefer = ["sell", "hire", "buy"]
        if sale.before is not None:
            prefer = ["hire", "buy", "sell"] if decisions % 2 else ["buy", "sell", "hire"]
        summary = page.evaluate(AUTOPLAY, prefer)
        assert summary, "the banner said it was my turn, but no prompt completed"
        sale.start(summary, talers, log_len)
        decisions += 1
        page.wait_for_function("!document.querySelector('.sending')")
    assert reloaded and sale.checked, (reloaded, sale.checked)
    check_final_scores(page, live_server.url, table_id)
    check_replay(page)


def reload_mid_game(page: Any) -> bool:
    """Reload at an action prompt: the page reconnects and shows the same table and money."""
    talers = my_talers(page)
    banner = page.inner_text("#banner-text")
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / "table-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "table-desktop.png"), full_page=True)
    page.reload()
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector("#prompt-card")
    assert my_talers(page) == talers
    assert page.inner_text("#banner-text") == banner
    return True


def check_final_scores(page: Any, url: str, table_id: str) -> None:
    record = httpx.get(f"{url}/api/tables/{table_id}/record").json()
    scores = record["result"]["scores"]
    shown = page.locator("#score-table tr.total td").all_inner_texts()
    assert [int(s.split()[0]) for s in shown] == scores
    assert page.locator("#score-table tbody tr").count() == 7  # six categories and the total
    winners = ", ".join(["Ada" if w == 0 else "" for w in record["result"]["winners"]])
    assert page.inner_text("#winner-line").startswith(("Winner:", "Shared win:"))
    if record["result"]["winners"] == [0]:
        assert winners in page.inner_text("#winner-line")
    assert page.locator("#players .talers").first.inner_text() != "hidden"
    page.screenshot(path=str(ARTIFACTS / "final-scores.png"), full_page=True)


def check_replay(page: Any) -> None:
    page.click("#replay-start")
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-step").startswith("Step 0 of ")
    assert "Round 1, turn 1" in page.inner_text("#board")
    page.click("#replay-next")
    page.wait_for_selector("#replay-step:has-text('Step 1 of')")
    assert page.locator("#replay-command").count() == 1
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-step:has-text('Step 2 of')")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay-step:has-text('Step 1 of')")
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
    page.click("#replay-stop")
    page.wait_for_selector("#score-table")


def create_two_person_table(new_page: Any, live_server: ServerThread, public: bool = False) -> Any:
    """Ada's desktop page, after creating a two-person table (seat 1 for a friend) in the lobby."""
    host = new_page(viewport=DESKTOP)
    host.goto(live_server.url + "/")
    host.fill("#player-name", "Ada")
    host.select_option("#seat-count", "2")
    host.select_option("#seat-kind-1", "human")
    if public:
        host.check("#public")
    host.click("#create-button")
    host.wait_for_selector("#created-card:not([hidden])")
    return host


def test_a_friend_joins_through_the_invite_link_and_both_see_their_own_seat(
    new_page: Any, live_server: ServerThread
) -> None:
    host = create_two_person_table(new_page, live_server, public=True)
    table_id = table_id_of(host.input_value("#invite-link"))

    friend = new_page(viewport=PHONE)
    friend.goto(live_server.url + "/")  # the lobby lists the public table to join
    friend.click(f"#open-list a[href='/t/{table_id}']:has-text('Join')")
    friend.wait_for_url(f"{live_server.url}/t/{table_id}")
    assert "Public table" in friend.inner_text("#wait-access")
    join_as(friend, "Bea")
    friend.wait_for_url(re.compile(r".*#seat=.+"))
    friend.wait_for_selector("#waiting-room li:has-text('Bea')")
    assert "starts when Ada presses Start" in friend.inner_text("#waiting-room")
    friend.screenshot(path=str(ARTIFACTS / "waiting-room-phone.png"), full_page=True)

    host.wait_for_selector("#joined-list li:has-text('Bea')")
    host.click("#start-button")
    host.wait_for_selector("#prompt-card")
    friend.wait_for_selector("#prompt-card")
    assert friend.inner_text("#player-1 .talers") == "25"
    assert friend.inner_text("#player-0 .talers") == "hidden"
    assert host.inner_text("#player-1 .talers") == "hidden"

    # Ada commits a plan; Bea sees a card count for Ada, never which guild.
    host.locator(".guild-cards .opt").first.click()
    host.click("#confirm")
    friend.wait_for_selector("#player-0 .ptag:has-text('1 card')")
    assert "Brewers" not in friend.inner_text("#player-0")
    host.wait_for_selector("#my-plan:has-text('Brewers')")


def test_an_absent_friend_can_be_replaced_by_a_bot(
    new_page: Any, live_server: ServerThread
) -> None:
    host = create_two_person_table(new_page, live_server)
    invite = host.input_value("#invite-link")
    table_id = table_id_of(invite)
    uninvited = httpx.post(f"{live_server.url}/api/tables/{table_id}/join", json={"name": "Eve"})
    assert uninvited.json()["code"] == "invite_required"
    joined = httpx.post(
        f"{live_server.url}/api/tables/{table_id}/join",
        json={"name": "Bea", "invite": invite.split("#invite=", 1)[1]},
    )
    assert joined.status_code == 201
    host.click("#start-button")
    host.wait_for_selector("#player-1 .offline-tag")  # Bea never opened her link
    # The creator may hand Bea's seat over only once she has been away a while; the card
    # says so until then.
    host.wait_for_selector("#bot-wait-1, #bot-offer-1")
    host.wait_for_selector("#bot-offer-1", timeout=15000)
    host.click("#bot-offer-1")
    assert "A bot plays for Bea from now on?" in host.inner_text("#player-1")
    host.click("#bot-yes-1")
    host.wait_for_selector("#player-1 .plan-committed")  # the bot planned for her
    host.wait_for_selector("#stand-in-1:has-text('playing for Bea')")
    host.wait_for_selector('#log li:has-text("took over Bea\'s seat")')
    assert host.locator("#player-1 .offline-tag").count() == 0
    host.screenshot(path=str(ARTIFACTS / "stand-in.png"), full_page=True)

    # Bea's link no longer plays the seat: her page says a bot does, shows the game to
    # watch, and offers the seat back.
    late = new_page(viewport=PHONE)
    late.goto(f"{live_server.url}/t/{table_id}#seat={joined.json()['token']}")
    late.wait_for_selector(".notice.info")
    assert "A bot plays your seat now" in late.inner_text("#banner")
    late.wait_for_selector("#board .house")
    assert late.locator("#prompt-card").count() == 0
    late.screenshot(path=str(ARTIFACTS / "seat-lost-phone.png"), full_page=True)
    late.click("#reclaim-seat")
    late.wait_for_selector("#prompt-card, #my-talers")
    late.wait_for_selector("#log li:has-text('took their seat back')")
    host.screenshot(path=str(ARTIFACTS / "stand-in-back.png"), full_page=True)
    host.wait_for_selector("#log li:has-text('Bea took their seat back')")
    assert host.locator("#stand-in-1").count() == 0


@pytest.mark.slow
def test_two_people_play_a_whole_game_in_two_browsers(
    new_page: Any, live_server: ServerThread
) -> None:
    ada = new_page(viewport=DESKTOP)
    ada.goto(live_server.url + "/")
    ada.fill("#player-name", "Ada")
    ada.select_option("#seat-count", "2")
    ada.select_option("#seat-kind-1", "human")
    ada.click("#create-button")
    ada.wait_for_selector("#created-card:not([hidden])")
    bea = new_page(viewport=PHONE)
    bea.goto(ada.input_value("#invite-link"))
    join_as(bea, "Bea")
    bea.wait_for_selector("#waiting-room li:has-text('Bea')")
    ada.wait_for_selector("#joined-list li:has-text('Bea')")
    ada.click("#start-button")
    ada.wait_for_selector("#conn[data-state=online]")

    mine = "!!document.querySelector('.banner.mine') && !document.querySelector('.sending')"
    over = "document.getElementById('score-table') !== null"
    played = {"Ada": 0, "Bea": 0}
    for _ in range(4 * MAX_DECISIONS):
        if ada.evaluate(over) and bea.evaluate(over):
            break
        acted = False
        for name, page in (("Ada", ada), ("Bea", bea)):
            if page.evaluate(mine):
                assert page.evaluate(AUTOPLAY, ["hire", "sell", "buy"])
                page.wait_for_function(IDLE)
                played[name] += 1
                acted = True
        if not acted:  # a move is still on its way to one of the browsers: look again soon
            bea.wait_for_timeout(20)
    assert ada.evaluate(over) and bea.evaluate(over)
    assert min(played.values()) >= 8, played
    assert (
        ada.locator("#score-table tr.total td").all_inner_texts()
        == bea.locator("#score-table tr.total td").all_inner_texts()
    )


def test_a_table_in_ordered_planning_plans_one_seat_after_another(
    new_page: Any, live_server: ServerThread
) -> None:
    page = new_page(viewport=DESKTOP)
    page.goto(live_server.url + "/")
    page.fill("#player-name", "Ada")
    page.select_option("#seat-count", "3")
    page.check("input[name=planning][value=ordered]")
    page.click("#create-button")
    page.wait_for_selector("#created-card:not([hidden])")
    table_id = table_id_of(page.input_value("#invite-link"))
    assert httpx.get(f"{live_server.url}/api/tables/{table_id}").json()["options"] == {
        "planning": "ordered",
        "promo": False,
    }
    page.click("#start-button")
    page.wait_for_selector(".guild-cards .opt")  # the bots before Ada have planned
    # Planning goes in reverse play order (N-4.5): her cards open when her turn has come, so
    # she is "planning" now, and unless she is last on the track (so she plans first) the
    # seats after her on the track have already planned.
    last_on_track = page.locator(".track-list li").last.inner_text()
    assert page.inner_text("#player-0 .ptag[class*=plan-]") == "planning"
    planned_before = page.locator("#log li", has_text=re.compile(r"(played \d cards?|passed)$"))
    assert (planned_before.count() == 0) == last_on_track.endswith("Ada")
    page.locator(".guild-cards .opt").first.click()
    page.click("#confirm")
    page.wait_for_function(IDLE)  # acknowledged
    assert page.locator(".notice.error").count() == 0
    assert page.locator("#log li", has_text="Ada played 1 card").count() == 1
