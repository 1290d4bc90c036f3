"""Pause by agreement and the creator's added time on the table page, in real Chromium against
a real server: two players, each on their own page; one proposes a pause with a resume date,
the other agrees, both see the paused table and what each clock keeps; the creator gives the
other seat more time (logged, and the kept time grows); one player resumes; a player past the
table-act limit is told, in the page's language, how long to wait, and one past their
address's share of all-bot tables why their seat stays theirs. Screenshots at 1280 and 390 px
go to tests/web/artifacts/."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, ConsoleErrors, ServerThread, live_app

pytestmark = pytest.mark.browser
VIEWPORTS = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}
CLOCK = {"mode": "days", "per_decision": 43200}
# A date-time three days ahead as the browser's date picker holds it (its own time zone).
THREE_DAYS = (
    "() => new Date(Date.now() + 3 * 86400e3 - new Date().getTimezoneOffset() * 60e3)"
    ".toISOString().slice(0, 16)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    folder = tmp_path_factory.mktemp("pause-db")
    # Nudges and votes at once (the defaults wait 15 min and a day): the page offers them
    # by the server's own thresholds, read from the table summary.
    with live_app(folder, bot_delay=0.2, nudge_after=0, vote_after=0) as running:
        yield running


def two_players(server: ServerThread, clock: dict[str, Any] = CLOCK) -> tuple[str, str, str]:
    made = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "norenberc", "seats": 2, "name": "Anna", "clock": clock},
    ).json()
    table_id = made["table_id"]
    bela = httpx.post(
        f"{server.url}/api/tables/{table_id}/join",
        json={"name": "Bela", "invite": made["invite"]},
    ).json()["token"]
    headers = {"Authorization": f"Bearer {made['token']}"}
    assert httpx.post(f"{server.url}/api/tables/{table_id}/start", headers=headers).is_success
    return table_id, made["token"], bela


def kept(page: Any, seat: int) -> str:
    text: str | None = page.locator(
        f"#pause .clock-chip[data-seat='{seat}'] .clock-time"
    ).text_content()
    assert text is not None
    return text


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_two_players_pause_by_agreement_and_the_creator_adds_time(
    new_page: Any, server: ServerThread, width: str
) -> None:
    table_id, anna_token, bela_token = two_players(server)
    anna, bela = new_page(viewport=VIEWPORTS[width]), new_page(viewport=VIEWPORTS[width])
    anna.goto(f"{server.url}/t/{table_id}#seat={anna_token}")
    bela.goto(f"{server.url}/t/{table_id}#seat={bela_token}")
    # Bela will be away: she says so on her own seat card, and Anna sees it on it.
    bela.locator("#player-1 #away-open").click()
    bela.locator("#away-until").fill(bela.evaluate(THREE_DAYS))
    bela.locator("#away-save").click()
    anna.locator("#player-1 .away-note", has_text="Away until").wait_for()
    bela.locator("#log li", has_text="Bela is away until").wait_for()
    assert anna.locator("#away-open").count() == 1  # only on her own card
    # Anna proposes a pause until a date, from her own seat card.
    anna.locator("#player-0 #pause-open").click()
    anna.locator("#pause-until").fill(anna.evaluate(THREE_DAYS))
    anna.screenshot(path=str(ARTIFACTS / f"pause-form-{width}.png"), full_page=True)
    anna.locator("#pause-propose").click()
    for page in (anna, bela):
        page.locator("#pause-proposal", has_text="Anna proposes a pause until").wait_for()
    assert anna.locator("#pause-agree").count() == 0  # proposing is agreeing
    assert anna.locator("#pause-withdraw").is_visible()
    bela.screenshot(path=str(ARTIFACTS / f"pause-proposed-{width}.png"), full_page=True)
    # Bela agrees: every person at the table has, so the table pauses for both.
    bela.locator("#pause-agree").click()
    for page in (anna, bela):
        page.locator("#pause-state", has_text="The game is paused.").wait_for()
        page.locator("#banner-text", has_text="Paused: nobody moves").wait_for()
        page.locator("#pause .clock-chip[data-seat='1']").wait_for()
        page.locator("#log li", has_text="Everyone agreed: the game is paused until").wait_for()
    assert re.fullmatch(r"keeps 1?\d:\d\d:\d\d", kept(bela, 1)), kept(bela, 1)
    assert bela.locator("#clocks").is_hidden()  # no clock runs while paused
    before = kept(anna, 1)
    # The creator gives Bela twelve hours more, from Bela's seat card.
    anna.locator("#time-1").click()
    anna.locator("#time-choices-1").wait_for()
    anna.screenshot(path=str(ARTIFACTS / f"pause-add-time-{width}.png"), full_page=True)
    anna.locator("#time-1-43200").click()
    bela.locator("#log li", has_text="The table's creator gave Bela more time.").wait_for()
    anna.wait_for_function(
        "b => document.querySelector(\"#pause .clock-chip[data-seat='1'] .clock-time\")"
        ".textContent !== b",
        arg=before,
    )
    assert kept(anna, 1).startswith("keeps 23:")  # twelve hours more than the 11:59 it kept
    assert bela.locator("#time-0").count() == 0  # only the creator adds time
    for name, page in (("anna", anna), ("bela", bela)):
        page.screenshot(path=str(ARTIFACTS / f"pause-paused-{name}-{width}.png"), full_page=True)
    # One person resumes: the clocks run again, for everyone.
    bela.locator("#pause-resume").click()
    for page in (anna, bela):
        page.locator("#pause").wait_for(state="hidden")
        page.locator(".clock-chip[data-seat='1'] .clock-time").wait_for()
        page.locator("#log li", has_text="Bela resumed the game.").wait_for()
    anna.screenshot(path=str(ARTIFACTS / f"pause-resumed-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_on_an_untimed_table_a_nudge_reaches_the_player_and_a_vote_hands_the_seat_over(
    new_page: Any, server: ServerThread, width: str
) -> None:
    table_id, anna_token, bela_token = two_players(server, {"mode": "untimed"})
    anna, bela = new_page(viewport=VIEWPORTS[width]), new_page(viewport=VIEWPORTS[width])
    anna.goto(f"{server.url}/t/{table_id}#seat={anna_token}")
    bela.goto(f"{server.url}/t/{table_id}#seat={bela_token}")
    bela.locator("#player-0").wait_for()
    assert bela.locator("#nudge-1").count() == 0  # nobody nudges their own seat
    anna.locator("#nudge-1").click()
    bela.locator("#banner .notice", has_text="Anna nudged you").wait_for()
    bela.locator("#log li", has_text="Anna nudged Bela.").wait_for()
    anna.locator("#player-1 .nudged", has_text="again in 1 h").wait_for()
    bela.screenshot(path=str(ARTIFACTS / f"nudged-{width}.png"), full_page=True)
    # The only other person's vote is a majority: a stand-in plays until Bela is back.
    anna.locator("#vote-1").click()
    anna.locator("#vote-yes-1").click()
    anna.locator("#log li", has_text="The others voted:").wait_for()
    anna.locator("#stand-in-1").wait_for()
    anna.screenshot(path=str(ARTIFACTS / f"voted-{width}.png"), full_page=True)
    back = bela.locator("#reclaim-seat").first
    back.wait_for()
    back.click()
    bela.locator("#log li", has_text="Bela took their seat back").wait_for()


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_a_player_past_the_act_limit_is_told_how_long_to_wait_in_their_language(
    new_page: Any, server: ServerThread, console_errors: ConsoleErrors, width: str
) -> None:
    table_id, _anna_token, bela_token = two_players(server)
    base, auth = f"{server.url}/api/tables/{table_id}", {"Authorization": f"Bearer {bela_token}"}
    for _ in range(5):  # away and back five times: GUILDHALL_ACT_RATE's 10 acts a minute
        for until in (time.time() + 86400, None):
            set_away = httpx.post(f"{base}/seats/1/away", json={"until": until}, headers=auth)
            assert set_away.status_code == 200, set_away.text
    version = httpx.get(base).json()["version"]
    bela = new_page(viewport=VIEWPORTS[width])
    bela.goto(f"{server.url}/t/{table_id}?lang=de#seat={bela_token}")
    bela.locator("#player-1 #away-open").click()
    bela.locator("#away-until").fill(bela.evaluate(THREE_DAYS))
    bela.locator("#away-save").click()
    notice = bela.locator("#banner .notice", has_text="Zu viel auf einmal")
    notice.wait_for()
    text = notice.inner_text()
    assert re.search(r"^Nicht ausgeführt: Zu viel auf einmal; warte einen Moment\. "
                     r"Versuche es in (\d+) s noch einmal\.", text), text  # fmt: skip
    wait = int(re.findall(r"in (\d+) s", text)[0])
    assert 1 <= wait <= 60, text
    assert httpx.get(base).json()["version"] == version  # refused: the table is as it was
    assert bela.locator("#player-1 .away-note").count() == 0
    bela.screenshot(path=str(ARTIFACTS / f"act-limit-de-{width}.png"))
    console_errors[:] = [e for e in console_errors if "429" not in e]


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_a_player_past_the_all_bot_tables_share_is_told_why_in_their_language(
    new_page: Any, tmp_path: Path, console_errors: ConsoleErrors, width: str
) -> None:
    """Letting a bot play for oneself, when that leaves bots alone at more of one's address's
    tables than its share (here none), is refused (``too_many_own_bot_tables``) in the page's
    words; the seat stays the player's."""
    with live_app(tmp_path, bot_delay=30.0, bot_tables_per_address=0) as capped:
        made = httpx.post(
            f"{capped.url}/api/tables",
            json={"game": "norenberc", "seats": 2, "name": "Anna", "bots": [None, "random"]},
        ).json()
        table_id, token = made["table_id"], made["token"]
        started = httpx.post(
            f"{capped.url}/api/tables/{table_id}/start",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert started.status_code == 200, started.text
        anna = new_page(viewport=VIEWPORTS[width])
        anna.goto(f"{capped.url}/t/{table_id}?lang=hu#seat={token}")
        anna.locator("#bot-offer-0").click(timeout=10_000)
        anna.locator("#bot-yes-0").click()
        notice = anna.locator("#banner .notice", has_text="csak gépek")
        notice.wait_for()
        assert notice.inner_text().startswith(
            "Nem sikerült: Már annyi asztalodon játszanak csak gépek, amennyi egy címről "
            "megengedett"
        ), notice.inner_text()
        assert httpx.get(f"{capped.url}/api/tables/{table_id}").json()["seats"][0]["bot"] is None
        anna.screenshot(path=str(ARTIFACTS / f"own-bot-tables-hu-{width}.png"))
    console_errors[:] = [e for e in console_errors if "429" not in e]
