"""What the table page shows is true now, without a reload: controls that wait for a time
appear when it comes (a fake clock in the page), the prompt is held while the table is
paused and the banner is clean once it resumes, a timeout is told on the player's own card,
and after the end nothing offers what the server would refuse.

Against real engine views with the websocket answered in the browser (``FakeTable``); the
clock part of each document is built by the server's own clock model.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from server.clocks import model
from server.engine import is_visible

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_accessibility import AXE, RUN_AXE, WCAG
from .test_board_play import acting_table, strasbourg_choosing
from .test_citizen_prompts import of_type, table_choosing
from .test_states_languages import RAW_KEY
from .test_summaries import others_play, table_before

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
T0 = 1_800_000_000.0  # the page's fake "now" when it opens (seconds since the epoch)
RULES = {"nudge_after": 20, "nudge_every": 3600, "vote_after": 40}
IDLE = "!document.querySelector('.sending')"
I18N = Path(__file__).parents[2] / "web" / "i18n"


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def open_page(
    new_page: Any,
    server: ServerThread,
    fake: FakeTable,
    seat: int | None = 0,
    lang: str = "en",
    **options: Any,
) -> Any:
    """``seat``'s page of ``fake`` on a fake clock that starts at T0 (and then runs)."""
    page = new_page(fresh=True, **options)  # a fake clock stays on a page
    page.clock.install(time=datetime.fromtimestamp(T0, tz=UTC))
    fake.serve(page, seat)
    page.goto(f"{server.url}/t/fake?lang={lang}#seat=tok0")
    page.wait_for_selector("#players .player")
    return page


def serious_findings(page: Any) -> list[str]:
    """axe-core's critical and serious findings on ``page`` as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE)
    found: list[str] = page.evaluate(RUN_AXE, WCAG)
    return found


def to_act(fake: FakeTable) -> set[int]:
    return set(fake.game.to_act(fake.state))


def is_planning(fake: FakeTable) -> bool:
    return bool(fake.state.get("phase") == "planning")


def clock_of(config: dict[str, Any], fake: FakeTable, now: float = T0) -> model.Clock:
    """A clock of ``config`` whose seats to act began their decision at ``now``."""
    clock = model.new_clock(model.check_config(config), len(fake.names))
    return model.advance(clock, set(), to_act(fake), now=now, planning=is_planning(fake))


def show_clock(fake: FakeTable, clock: model.Clock) -> None:
    people = {seat for seat, name in enumerate(fake.names) if name}
    fake.table_extra["clock"] = model.public(clock, people)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_nudge_and_vote_appear_by_themselves_when_their_time_comes(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Untimed table: Bea (a person) must plan and stays silent. Nothing arrives from the
    server; the page's own time makes "Nudge Bea" appear after 20 s, the vote after 40 s."""
    fake = FakeTable(seats=2, names=["Ada", "Bea"], seed="silent")
    show_clock(fake, clock_of({"mode": "untimed"}, fake))
    fake.table_extra.update(clock_rules=RULES, handover_after=60)  # as the summary has them
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    page.wait_for_selector("#player-1")
    assert page.locator("#nudge-1").count() == 0 and page.locator("#vote-1").count() == 0
    page.clock.fast_forward(21_000)
    page.locator("#nudge-1").wait_for(timeout=5_000)
    assert page.locator("#nudge-1").inner_text() == "Nudge Bea"
    assert page.locator("#vote-1").count() == 0  # not before 40 s
    page.clock.fast_forward(20_000)
    page.locator("#vote-1").wait_for(timeout=5_000)
    shot = ARTIFACTS / f"truth-nudge-vote-{viewport['width']}.png"
    page.screenshot(path=str(shot), full_page=True)
    # Bea plans: she is no longer silent, and both offers leave her card.
    fake.play(1, {"type": "pass"})
    show_clock(fake, clock_of({"mode": "untimed"}, fake, now=T0 + 41))
    fake.broadcast()
    page.locator("#nudge-1").wait_for(state="detached", timeout=5_000)
    assert page.locator("#vote-1").count() == 0


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_player_who_is_not_the_creator_sees_the_nudge_come_and_its_wait_count_down(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Bea's page (she did not create the table, so her page polls nothing): Ada is silent.
    "Nudge Ada" comes at 20 s; once Bea nudged, "again in 1 h" counts down by itself."""
    fake = FakeTable(seats=2, names=["Ada", "Bea"], seed="silent")
    clock = clock_of({"mode": "untimed"}, fake)
    show_clock(fake, clock)
    fake.table_extra.update(clock_rules=RULES, handover_after=60)
    page = open_page(new_page, pages_server, fake, seat=1, viewport=viewport)
    page.wait_for_selector("#player-0")
    assert page.locator("#nudge-0").count() == 0
    page.clock.fast_forward(21_000)
    page.locator("#nudge-0").wait_for(timeout=5_000)
    assert page.locator("#nudge-0").inner_text() == "Nudge Ada"
    clock["seats"][0]["nudged"] = {"1": T0 + 21}
    show_clock(fake, clock)
    fake.broadcast()
    nudged = page.locator("#player-0 .nudged")
    nudged.wait_for(timeout=5_000)
    assert nudged.inner_text() == "Nudged; again in 1 h"
    page.clock.fast_forward(30 * 60_000)
    page.locator("#player-0 .nudged", has_text="again in 30 min").wait_for(timeout=5_000)
    page.clock.fast_forward(20 * 60_000)
    page.locator("#player-0 .nudged", has_text="again in 10 min").wait_for(timeout=5_000)
    assert not [m for m in fake.received if m["type"] not in ("hello", "ping")]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_creators_hand_over_appears_when_the_player_has_been_away_long_enough(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Bea has been away 57 s of the 60 s after which the creator may let a bot play for her.
    The page heard that once; no later poll is answered. Three seconds on, the offer is there
    by itself."""
    fake = FakeTable(seats=2, names=["Ada", "Bea"], seed="away")
    summary = {**fake.doc(0)["table"], "handover_after": 60}
    summary["seats"] = [
        {**s, "away_seconds": 57 if s["seat"] == 1 else None} for s in summary["seats"]
    ]
    answers = []

    def once(route: Any) -> None:
        answers.append(route.request.url)
        if len(answers) == 1:
            route.fulfill(json=summary)
        # Later polls are never answered: the page must not wait for them.

    page = new_page(fresh=True, viewport=viewport)  # a fake clock stays on a page
    page.clock.install(time=datetime.fromtimestamp(T0, tz=UTC))
    fake.serve(page, 0)
    page.route(re.compile(r".*/api/tables/fake$"), once)
    page.goto(f"{pages_server.url}/t/fake#seat=tok0")
    page.locator("#bot-wait-1").wait_for()
    assert page.locator("#bot-offer-1").count() == 0
    page.clock.fast_forward(3_100)
    page.locator("#bot-offer-1").wait_for(timeout=5_000)
    assert len(answers) >= 2  # the page asked again, heard nothing, and knew anyway


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_prompt_is_held_while_paused_and_the_banner_is_clean_after_resuming(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    fake = FakeTable(seed="paused")
    clock = clock_of({"mode": "days", "per_decision": 86400}, fake)
    show_clock(fake, clock)
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    page.locator(".guild-cards .opt").first.click()
    # The pause came a moment before Ada's Confirm reached the server: it is refused.
    fake.refuse_next_command = ("paused", "the table is paused")
    page.locator("#confirm").click()
    page.locator("#banner .notice.error", has_text="The game is paused").wait_for()
    paused = model.pause(clock, T0 + 5, None)
    show_clock(fake, paused)
    fake.broadcast()
    page.locator("#banner-text", has_text="Paused: nobody moves").wait_for()
    held = page.locator("#prompt-paused")
    held.wait_for()
    assert held.inner_text() == "Paused: nobody moves until the game resumes."
    # Nothing in the prompt can be picked or sent, the pick made stays shown.
    controls = page.locator("#prompt button, #prompt input")
    assert controls.count() > 0
    # Only the phone sheet's handle still folds it: it sends nothing.
    enabled = [controls.nth(i).get_attribute("id") for i in range(controls.count())]
    enabled = [e for i, e in enumerate(enabled) if controls.nth(i).is_enabled()]
    assert enabled in ([], ["sheet-handle"]), enabled
    assert page.locator("#confirm").is_disabled()
    assert page.locator(".guild-cards .opt.selected").count() == 1
    sent = len([m for m in fake.received if m["type"] == "command"])
    page.locator(".guild-cards .opt").nth(1).click(force=True)
    page.locator("#confirm").click(force=True)
    assert len([m for m in fake.received if m["type"] == "command"]) == sent
    page.screenshot(path=str(ARTIFACTS / f"truth-paused-{viewport['width']}.png"), full_page=True)
    assert serious_findings(page) == []
    # Resumed: the refusal said something about a pause that is over; it goes.
    show_clock(fake, model.resume(paused, T0 + 9))
    fake.broadcast()
    page.locator("#prompt-paused").wait_for(state="detached")
    assert page.locator("#banner .notice").count() == 0
    assert "Paused" not in page.locator("#banner").inner_text()
    assert page.locator("#confirm").is_enabled()
    page.locator("#confirm").click()
    page.wait_for_function(IDLE)
    assert len([m for m in fake.received if m["type"] == "command"]) == sent + 1


def commands_sent(fake: FakeTable) -> int:
    return len([m for m in fake.received if m["type"] == "command"])


# Whether each place on the board is held: disabled, or (no button) aria-disabled.
HELD_PLACES = """() => [...document.querySelectorAll('#layout .board-pick')].map((e) =>
    e.disabled === true || e.getAttribute('aria-disabled') === 'true')"""
# How many marks of a place one may pick the board shows: corner marks, dashed rings.
MARKS_SHOWN = """() => [...document.querySelectorAll('#layout .board-pick, #layout .can')]
    .filter((e) => !e.classList.contains('picked')).map((e) => [
        e.classList.contains('board-pick') && getComputedStyle(e, '::after').display !== 'none',
        getComputedStyle(e).outlineStyle === 'dashed']).flat().filter(Boolean).length"""


def pause_now(fake: FakeTable, clock: model.Clock, page: Any) -> model.Clock:
    """The table pauses (a document arrives); the page holds its prompt."""
    paused = model.pause(clock, T0 + 5, None)
    show_clock(fake, paused)
    fake.broadcast()
    page.locator("#prompt-paused").wait_for()
    return paused


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_while_paused_no_place_on_the_board_can_be_picked(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Ada may buy at the called guild's store, a place on the board that is no button (it
    cannot be disabled). Paused, every place is held and unmarked, a tap on the store picks
    nothing and Confirm sends nothing; resumed, the same tap picks again."""
    fake = acting_table(lambda legal: bool(of_type(legal, "buy")), "held-buy")
    good = sorted(of_type(fake.game.legal(fake.state, 0), "buy")[0]["goods"])[0]
    clock = clock_of({"mode": "days", "per_decision": 86400}, fake)
    show_clock(fake, clock)
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    place = page.locator(f"#board-buy-{good}")
    place.wait_for()
    assert page.evaluate(MARKS_SHOWN) > 0
    paused = pause_now(fake, clock, page)
    # Every place is disabled for screen readers too, and none is marked as one to pick.
    assert page.evaluate(HELD_PLACES) == [True] * page.locator("#layout .board-pick").count()
    assert page.evaluate(MARKS_SHOWN) == 0
    shot = ARTIFACTS / f"truth-paused-board-{viewport['width']}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert serious_findings(page) == []
    prompt = page.inner_text("#prompt")
    place.click(force=True)
    page.locator("#confirm").click(force=True)
    assert page.inner_text("#prompt") == prompt  # no basket begun
    assert page.locator("#layout .board-pick.picked").count() == 0
    assert commands_sent(fake) == 0
    show_clock(fake, model.resume(paused, T0 + 9))
    fake.broadcast()
    page.locator("#prompt-paused").wait_for(state="detached")
    place.click()
    assert page.inner_text(f"#buy-count-{good}") == "1"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_while_paused_the_strasbourg_city_offers_no_site(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Ada builds an edifice: its sites in the city are buttons. Paused, none is marked or
    can be tapped; resumed, a tap picks the site again."""
    fake, legal = strasbourg_choosing("edifice")
    r, c = of_type(legal, "edifice")[0]["cell"]
    clock = clock_of({"mode": "days", "per_decision": 86400}, fake)
    show_clock(fake, clock)
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    site = page.locator(f"#cell-{r}-{c}")
    site.wait_for()
    assert page.evaluate(MARKS_SHOWN) > 0
    paused = pause_now(fake, clock, page)
    assert page.evaluate(HELD_PLACES) == [True] * page.locator("#layout .board-pick").count()
    assert page.evaluate(MARKS_SHOWN) == 0
    shot = ARTIFACTS / f"truth-paused-city-{viewport['width']}.png"
    page.screenshot(path=str(shot), full_page=True)
    site.click(force=True)
    assert page.locator("#layout .board-pick.picked").count() == 0
    assert commands_sent(fake) == 0
    show_clock(fake, model.resume(paused, T0 + 9))
    fake.broadcast()
    page.locator("#prompt-paused").wait_for(state="detached")
    site.click()
    assert page.locator("#layout .board-pick.picked").count() == 1


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_while_paused_a_summary_holding_the_prompt_still_leads_to_it(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """The round ends and its summary holds Ada's next prompt behind "Go to my move"; then
    the table pauses. That button only closes the summary, so it stays usable (the board's
    places do not), and behind it the prompt is held."""
    days = {"mode": "days", "per_decision": 86400}
    fake, seat, cmd = copy.deepcopy(table_before("norenberc", "RoundEnded", "truth-summary"))
    show_clock(fake, clock_of(days, fake))
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    others_play(fake, seat, cmd)
    go_on = page.locator("#summary-continue")
    go_on.wait_for()
    show_clock(fake, model.pause(clock_of(days, fake), T0 + 5, None))
    fake.broadcast()
    page.locator("#banner-text", has_text="Paused: nobody moves").wait_for()
    assert go_on.is_enabled()
    assert page.evaluate(HELD_PLACES) == [True] * page.locator("#layout .board-pick").count()
    go_on.click()
    page.locator("#prompt-paused").wait_for()
    assert page.locator("#confirm").is_disabled()
    assert commands_sent(fake) == 0


def test_while_paused_a_seat_card_to_pick_picks_nobody(
    new_page: Any, pages_server: ServerThread
) -> None:
    """A thief's victim is picked on their seat card (a button over the card): while paused
    it is disabled and its tap picks nobody."""
    fake = table_choosing("steal")
    victim = of_type(fake.game.legal(fake.state, 0), "steal")[0]["victim"]
    clock = clock_of({"mode": "days", "per_decision": 86400}, fake)
    show_clock(fake, clock)
    page = open_page(new_page, pages_server, fake, viewport=PHONE)
    card = page.locator(f"#board-victim-{victim}")
    card.wait_for()
    paused = pause_now(fake, clock, page)
    assert card.is_disabled()
    card.click(force=True)
    assert page.get_attribute(f'[data-focus="victim-{victim}"]', "aria-pressed") != "true"
    assert page.locator("#layout .board-pick.picked").count() == 0
    assert commands_sent(fake) == 0
    show_clock(fake, model.resume(paused, T0 + 9))
    fake.broadcast()
    page.locator("#prompt-paused").wait_for(state="detached")
    card.click()
    assert page.get_attribute(f'[data-focus="victim-{victim}"]', "aria-pressed") == "true"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_running_clock_warns_by_itself_when_its_time_runs_low(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Live clock, 60 s to plan: Ada's chip counts down and turns to its warning in the last
    10 s with no document arriving; once her time is up it reads 0:00, never less."""
    fake = FakeTable(seed="warning")
    show_clock(fake, clock_of({"mode": "live", "plan": 60, "action": 20, "bank": 0}, fake))
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    chip = page.locator(".clock-chip[data-seat='0']")
    chip.wait_for()
    assert "low" not in (chip.get_attribute("class") or "")
    sent, version = len(fake.sent), fake.version
    page.clock.fast_forward(49_000)
    page.locator(".clock-chip.low[data-seat='0']").wait_for(timeout=5_000)
    assert re.fullmatch(r"0:(10|0\d)", chip.locator(".clock-time").inner_text()), chip.inner_text()
    page.clock.fast_forward(15_000)
    page.locator(".clock-chip[data-seat='0'] .clock-time", has_text="0:00").wait_for(timeout=5_000)
    assert (len(fake.sent), fake.version) == (sent, version)  # nothing came from the server


def visible_log(fake: FakeTable, seat: int) -> int:
    return len([e for e in fake.events if is_visible(e, seat)])


def timed_out_table() -> tuple[FakeTable, model.Clock]:
    """Live clock: Ada played her own move; her next decision ran out and the cover bot
    played it; the bots handed the turn back to her. The seat log says so."""
    config = {"mode": "live", "plan": 60, "action": 20, "bank": 300, "increment": 5}
    fake = FakeTable(seed="timeout")
    fake.play(0, fake.game.legal(fake.state, 0)[0])  # her own move; the bots answer
    clock = clock_of(config, fake)
    assert 0 in to_act(fake)
    at = visible_log(fake, 0)
    clock, newly, hand_over = model.cover(clock, 0)
    assert newly and not hand_over
    before, planning = to_act(fake), is_planning(fake)
    fake.play(0, fake.game.legal(fake.state, 0)[0])  # the cover bot's move for Ada
    clock = model.advance(
        clock,
        before,
        to_act(fake),
        now=T0 + 61,
        planning=planning,
        planning_after=is_planning(fake),
        actor=0,
        command="x",
        by_bot_cover=True,
    )
    assert 0 in to_act(fake), "the bots handed the turn back to Ada"
    show_clock(fake, clock)
    entry = {"type": "timed_out", "seat": 0, "name": "Ada", "bot": None, "at": at}
    fake.table_extra["seat_log"] = [entry]
    return fake, clock


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_timeout_is_told_on_the_players_own_card_and_in_since_your_last_move(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Live clock: Ada plans once herself; her next decision runs out and the cover bot plays
    it. Back at her turn, her card says so and what the next timeout does; "since your last
    move" starts with it and lists what the others did since her own move."""
    fake, clock = timed_out_table()
    page = open_page(new_page, pages_server, fake, viewport=viewport)
    note = page.locator("#player-0 #timeout-note")
    note.wait_for()
    assert note.inner_text() == (
        "Time ran out: a bot played for you. If your time runs out again before you move "
        "yourself, a bot takes over your seat until you take it back."
    )
    digest = page.locator("#digest-card li")
    digest.first.wait_for()
    assert digest.first.inner_text() == "Time ran out: a bot played for you."
    assert digest.count() > 1  # the others' moves since her own, before and after the timeout
    page.locator("#log li", has_text="Time ran out: a bot played for Ada.").wait_for()
    page.screenshot(path=str(ARTIFACTS / f"truth-timeout-{viewport['width']}.png"), full_page=True)
    assert serious_findings(page) == []
    # Her own move ends it: no timeout in a row any more, the note goes.
    clock["seats"][0]["timeouts"] = 0
    show_clock(fake, clock)
    fake.broadcast()
    note.wait_for(state="detached")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_after_the_end_a_seat_a_bot_took_over_offers_no_reclaim_and_a_joined_rematch_opens(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Ada's seat was handed to a bot, which played it to the end. Her seat link, refused as
    "seat_lost", watches: the game is over, so "Take my seat back" (refused with
    "finished") is not offered. A rematch she has joined is opened, not joined again."""
    fake = FakeTable(names=["Ada", None, None], seed="ended")
    fake.names[0] = None  # a bot plays her seat to the end
    fake.run_bots()
    assert fake.game.result(fake.state) is not None
    fake.names[0] = "Ada"
    seats = fake.doc(None)["table"]["seats"]
    seats[0].update(bot="random", stand_in=True, connected=False)
    fake.table_extra["seats"] = seats
    fake.refuse_next_hello = ("seat_lost", "a bot plays this seat now")
    page = new_page(viewport=viewport)
    fake.serve(page, None)
    mine = {**fake.my_seat(0), "plays": False}
    page.route("**/api/tables/fake/me", lambda route: route.fulfill(json=mine))
    page.goto(f"{pages_server.url}/t/fake#seat=tok0")
    page.locator("#banner .notice", has_text="A bot played your seat to the end").wait_for()
    page.locator("#score-table").wait_for()
    assert page.locator("#reclaim-seat").count() == 0
    assert page.locator("#reclaim-0").count() == 0
    page.locator("#rematch-button", has_text="Rematch").wait_for()
    # She has joined the rematch (this browser keeps its link): it is opened, not joined.
    joined = [{"id": "again", "seat": 0, "token": "tok-again", "title": "Norenberc"}]
    page.evaluate("t => localStorage.setItem('gh_tables', t)", json.dumps(joined))
    fake.table_extra["rematch"] = "again"
    fake.broadcast()
    link = page.locator("#rematch-open")
    link.wait_for()
    assert link.inner_text() == "Open the rematch"
    assert link.get_attribute("href") == "/t/again#seat=tok-again"
    assert page.locator("#rematch-button").count() == 0
    shot = ARTIFACTS / f"truth-after-end-{viewport['width']}.png"
    page.screenshot(path=str(shot), full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_player_whose_seat_went_to_a_bot_learns_why_and_may_take_it_back(
    new_page: Any, pages_server: ServerThread, viewport: dict[str, int]
) -> None:
    """Ada's time ran out twice in a row: a stand-in plays her seat. Her seat link, refused as
    "seat_lost", watches; the banner says why, with the seat log's words, and offers the seat
    back while the game goes on."""
    fake = FakeTable(seed="handed")
    seats = fake.doc(None)["table"]["seats"]
    seats[0].update(bot="random", stand_in=True, connected=False)
    fake.table_extra["seats"] = seats
    fake.table_extra["seat_log"] = [
        {"type": "timed_out", "seat": 0, "name": "Ada", "bot": None, "at": 0},
        {"type": "timeout_handover", "seat": 0, "name": "Ada", "bot": "random", "at": 0},
    ]
    fake.refuse_next_hello = ("seat_lost", "a bot plays this seat now")
    page = new_page(viewport=viewport)
    fake.serve(page, None)
    mine = {**fake.my_seat(0), "plays": False}
    page.route("**/api/tables/fake/me", lambda route: route.fulfill(json=mine))
    page.goto(f"{pages_server.url}/t/fake#seat=tok0")
    told = page.locator("#banner .notice", has_text="A bot plays your seat now")
    told.wait_for()
    assert told.inner_text() == (
        "A bot plays your seat now; your seat link can take it back. Time ran out: "
        "Bot (easy) plays for Ada until they take the seat back."
    )
    page.locator("#banner #reclaim-seat").wait_for()


def words(lang: str) -> dict[str, str]:
    found: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return found


def fits_and_is_translated(page: Any, name: str, lang: str) -> None:
    """Nothing pushes ``page`` sideways and no raw key shows; a screenshot as on the phone."""
    text = page.inner_text("#layout")
    assert not RAW_KEY.search(text), RAW_KEY.search(text)
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.screenshot(path=str(ARTIFACTS / f"truth-{name}-{lang}-390.png"), full_page=True)


@pytest.mark.parametrize("lang", ["de", "hu", "nl"])
def test_the_states_that_come_with_time_read_whole_in_every_language_on_a_phone(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    """The timeout note, the held prompt and the nudge and vote, each in the page's language
    at 390 px: the whole sentence, nothing wider than the window (English: the tests above)."""
    said = words(lang)
    fake, _clock = timed_out_table()
    page = open_page(new_page, pages_server, fake, lang=lang, viewport=PHONE)
    note = page.locator("#player-0 #timeout-note")
    note.wait_for()
    assert note.inner_text() == f"{said['clock.timed_out_you']} {said['clock.next_timeout']}"
    assert page.locator("#digest-card li").first.inner_text() == said["clock.timed_out_you"]
    fits_and_is_translated(page, "timeout", lang)

    fake = FakeTable(seed="paused")
    paused = model.pause(clock_of({"mode": "days", "per_decision": 86400}, fake), T0, None)
    show_clock(fake, paused)
    page = open_page(new_page, pages_server, fake, lang=lang, viewport=PHONE)
    held = page.locator("#prompt-paused")
    held.wait_for()
    assert held.inner_text() == said["pause.banner"]
    fits_and_is_translated(page, "paused", lang)

    fake = FakeTable(seats=2, names=["Ada", "Bea"], seed="silent")
    show_clock(fake, clock_of({"mode": "untimed"}, fake))
    fake.table_extra.update(clock_rules=RULES, handover_after=60)
    page = open_page(new_page, pages_server, fake, lang=lang, viewport=PHONE)
    page.wait_for_selector("#player-1")
    page.clock.fast_forward(41_000)
    page.locator("#vote-1").wait_for(timeout=5_000)
    assert page.inner_text("#nudge-1") == said["nudge.button"].replace("{name}", "Bea")
    assert page.inner_text("#vote-1") == said["vote.button"]
    fits_and_is_translated(page, "nudge-vote", lang)
