"""The table page against real engine views, with the websocket answered in the browser.

``FakeTable`` (the real Norenberc engine, seeded random bots) answers the page's websocket
as docs/protocol.md says, so these tests are deterministic and need only the page router.
The whole stack (lobby, real server, bots) is in ``test_full_game.py``.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app

pytestmark = pytest.mark.browser
AUTOPLAY = (Path(__file__).parent / "autoplay.js").read_text()
IDLE = "!document.querySelector('.sending')"


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


@pytest.fixture
def open_table(new_page: Any, pages_server: ServerThread) -> Any:
    """open_table(fake, seat=0, **context options) -> a page showing ``seat`` of ``fake``."""

    def opener(fake: FakeTable, seat: int | None = 0, **options: Any) -> Any:
        page = new_page(**options)
        fake.serve(page, seat)
        page.goto(f"{pages_server.url}/t/fake" + ("" if seat is None else "#seat=tok0"))
        page.wait_for_selector("#conn[data-state=online]")
        # A seat with a decision gets its prompt once the game's module for that prompt is
        # here (some are imported when first needed): the tests read it after that.
        if seat is not None and fake.game.legal(fake.state, seat):
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_selector("#prompt-card", timeout=5000)
        return page

    return opener


def legal_of(fake: FakeTable, seat: int = 0) -> list[dict[str, Any]]:
    return fake.game.legal(fake.state, seat)


def commands_sent(fake: FakeTable) -> list[dict[str, Any]]:
    return [m for m in fake.received if m["type"] == "command"]


def test_planning_offers_exactly_the_legal_guilds_and_sends_only_on_confirm(
    open_table: Any,
) -> None:
    fake = FakeTable(seed="planning")
    page = open_table(fake)
    offered = {g for c in legal_of(fake) if c["type"] == "plan" for g in c["guilds"]}
    assert page.locator(".guild-cards .opt").count() == len(offered)
    assert page.locator("#confirm").is_disabled()
    page.locator(".guild-cards .opt").nth(1).click()
    page.locator(".guild-cards .opt").nth(0).click()
    assert page.inner_text("#draft-summary") == "Plan: Brewers, Bakers"
    assert commands_sent(fake) == []  # a choice alone sends nothing
    page.click("#cancel")
    assert page.locator(".guild-cards .opt.selected").count() == 0
    page.locator(".guild-cards .opt").nth(0).click()
    page.click("#confirm")
    page.wait_for_function(IDLE)
    assert [m["cmd"] for m in commands_sent(fake)] == [{"type": "plan", "guilds": [1]}]
    # The fake acks before its patch (the server carries the ack in it), and the first patch
    # a page gets waits for patch.js.
    page.locator("#log", has_text="Ada played 1 card").wait_for(timeout=5000)


def test_a_seat_sees_its_own_talers_only(open_table: Any) -> None:
    fake = FakeTable(seed="hidden")
    page = open_table(fake)
    assert page.inner_text("#player-0 .talers") == "25"
    for seat in (1, 2):
        assert page.inner_text(f"#player-{seat} .talers") == "hidden"


def test_the_footnote_names_where_the_component_data_comes_from(open_table: Any) -> None:
    page = open_table(FakeTable(seed="footnote"))
    assert "seeds/norenberc.json" in page.inner_text("#footnote")
    assert "reconstruction" in (page.get_attribute("#footnote", "title") or "")


@pytest.mark.slow
def test_a_whole_game_through_every_kind_of_prompt(open_table: Any) -> None:
    fake = FakeTable(seed="s3")  # a seed whose game offers this seat a thief and a judge
    page = open_table(fake)
    kinds: set[str] = set()
    for n in range(400):
        if fake.game.result(fake.state) is not None:
            break
        prefer = [["hire", "sell", "buy"], ["buy", "hire", "sell"], ["sell", "hire", "buy"]][n % 3]
        summary = page.evaluate(AUTOPLAY, prefer)
        assert summary, "the page shows no prompt although the engine waits for seat 0"
        kinds.add(commands_sent(fake)[-1]["cmd"]["type"])
        page.wait_for_function(IDLE)
    assert {"plan", "sell", "buy", "hire", "steal", "judge_house"} <= kinds, kinds
    page.wait_for_selector("#score-table")
    shown = page.locator("#score-table tr.total td").all_inner_texts()
    result = fake.game.result(fake.state)
    assert result is not None
    assert [int(s.split()[0]) for s in shown] == result["scores"]
    page.screenshot(path=str(ARTIFACTS / "client-final.png"), full_page=True)


def test_buy_shows_the_total_of_the_legal_command(open_table: Any) -> None:
    fake = FakeTable(seed="buying")
    page = open_table(fake)
    for _ in range(40):
        if any(c["type"] == "buy" for c in legal_of(fake)):
            break
        page.evaluate(AUTOPLAY, ["nothing"])
        page.wait_for_function(IDLE)
    buys = [c for c in legal_of(fake) if c["type"] == "buy"]
    assert buys, "no buy was offered in 40 decisions"
    page.click("[data-focus=kind-buy]")
    page.locator(".step-btn", has_text="+").first.click()
    shown = page.inner_text("#draft-summary")
    match = [
        c for c in buys if f"for {c['total']} talers" in shown and sum(c["goods"].values()) == 1
    ]
    assert match, shown


def test_hire_is_assembled_step_by_step_and_a_misclick_costs_nothing(open_table: Any) -> None:
    fake = FakeTable(seed="hiring")
    page = open_table(fake)
    for _ in range(60):
        if any(c["type"] == "hire" for c in legal_of(fake)):
            break
        page.evaluate(AUTOPLAY, ["nothing"])
        page.wait_for_function(IDLE)
    hires = [c for c in legal_of(fake) if c["type"] == "hire"]
    assert hires, "no hire was offered in 60 decisions"
    sent_before = len(commands_sent(fake))
    page.click("[data-focus=kind-hire]")
    window = hires[0]["window"]
    page.click(f"[data-focus=win-{window}]")
    assert page.locator(f"#house-{page_guild(fake)} .window.picked").count() == 1
    page.click("[data-focus=kind-nothing]")  # change of mind: nothing was sent
    assert len(commands_sent(fake)) == sent_before
    # The window's own button on the board starts the same hire.
    windows = page.locator(f"#house-{page_guild(fake)} .window.can")
    assert windows.count() == len({c["window"] for c in hires})  # only the hireable ones
    page.click(f"#house-{page_guild(fake)} [data-focus=board-win-{window}]")
    page.screenshot(path=str(ARTIFACTS / "hire-on-board.png"), full_page=True)
    assert page.locator("[data-focus=kind-hire].selected").count() == 1
    assert page.locator(f"[data-focus=win-{window}].selected").count() == 1
    page.evaluate(AUTOPLAY, [])
    page.wait_for_function(IDLE)
    sent = commands_sent(fake)[-1]["cmd"]
    assert sent in hires


def page_guild(fake: FakeTable) -> int:
    view = fake.game.view(fake.state, 0)
    return int(view["action"]["guild"])


def test_a_missed_patch_makes_the_page_ask_for_a_snapshot(open_table: Any) -> None:
    fake = FakeTable(seed="gap")
    page = open_table(fake)
    fake.version += 1
    fake.broadcast(skew=5)
    page.wait_for_function("document.getElementById('conn').dataset.state === 'online'")
    page.evaluate(AUTOPLAY, [])  # any round trip lets the request arrive
    page.wait_for_function(IDLE)
    assert any(m["type"] == "snapshot_request" for m in fake.received)


def test_a_dropped_connection_reconnects_and_resends_with_the_same_id(open_table: Any) -> None:
    fake = FakeTable(seed="reconnect")
    page = open_table(fake)
    fake.drop_next_command = True
    # "online" comes with the socket's opening, the prompt with the first document after it.
    page.wait_for_selector(".banner.mine")
    assert page.evaluate(AUTOPLAY, []) is not None, "the page sent no command"
    page.wait_for_selector("#conn[data-state=offline]")
    assert "Connection lost" in page.inner_text("#conn")
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_function(IDLE)
    ids = [m["id"] for m in commands_sent(fake)]
    assert len(ids) == 2 and ids[0] == ids[1]
    assert fake.version > 1


def test_waiting_lets_the_later_seats_plan_first(open_table: Any) -> None:
    fake = FakeTable(seed="wait")  # seat 0 is first in play order, so last to plan
    page = open_table(fake)
    page.click("[data-focus=wait]")
    assert page.inner_text("#draft-summary") == "Wait"
    page.click("#confirm")
    page.wait_for_function(IDLE)
    assert commands_sent(fake)[-1]["cmd"] == {"type": "wait"}
    page.wait_for_selector(".banner.mine")
    # Seats 2 and 1 planned one at a time; now it is seat 0's turn (no longer "waiting").
    assert page.locator("#player-0 .ptag.plan-waiting").count() == 0
    assert page.locator("#player-0 .ptag.plan-planning").count() == 1
    assert page.locator("[data-focus=wait]").count() == 0
    # N-4.6: the page says why planning now goes one at a time.
    assert page.inner_text("#plan-ordered").startswith("Ada asked to wait, so this turn")
    for seat in (1, 2):
        tag = page.inner_text(f"#player-{seat} .plan-committed")
        assert re.fullmatch(r"1 card|\d cards|passed", tag)


def test_the_last_seat_still_to_plan_is_offered_no_wait(open_table: Any) -> None:
    """N-4.5: a wait lets those who have not planned go first; with nobody left to go first
    it would only make the others' plans final, so the page does not offer it, though the
    engine lists it. With another person still planning it is offered."""
    fake = FakeTable(seed="last")
    fake.run_bots()  # both bots have planned: Ada is the last
    assert {"type": "wait"} in fake.game.legal(fake.state, 0)
    page = open_table(fake)
    page.wait_for_selector(".guild-cards")
    assert page.locator("[data-focus=pass]").count() == 1
    assert page.locator("[data-focus=wait]").count() == 0
    with_bea = FakeTable(seed="last", names=["Ada", "Bea", None])
    with_bea.run_bots()  # the bot has planned, Bea has not
    page = open_table(with_bea)
    page.wait_for_selector(".guild-cards")
    assert page.locator("[data-focus=wait]").count() == 1


def test_a_sealed_plan_can_be_taken_back_while_planning_is_open(open_table: Any) -> None:
    fake = FakeTable(seed="retract", names=["Ada", "Bea", None])  # Bea has not planned yet
    page = open_table(fake)
    page.locator(".guild-cards .opt").first.click()
    page.click("#confirm")
    page.wait_for_selector("#my-plan")
    assert page.inner_text("#my-plan") == "Your sealed plan: Brewers"
    assert "Waiting for Bea" in page.inner_text("#banner")
    page.click("#retract")
    page.wait_for_selector(".guild-cards")
    assert commands_sent(fake)[-1]["cmd"] == {"type": "retract"}
    assert page.locator(".banner.mine").count() == 1


def test_planning_works_from_the_keyboard_alone(open_table: Any) -> None:
    fake = FakeTable(seed="keyboard")
    page = open_table(fake)
    assert page.title().startswith("● Your turn")
    focus = "document.activeElement && document.activeElement.getAttribute('data-focus')"
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(focus) == "plan-2":
            break
    page.keyboard.press("Enter")
    assert page.evaluate(focus) == "plan-2"  # focus survives the re-render
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate(focus) == "confirm":
            break
    page.keyboard.press("Enter")
    page.wait_for_function(IDLE)
    assert commands_sent(fake)[-1]["cmd"] == {"type": "plan", "guilds": [2]}


def test_a_citizen_shows_its_power_on_keyboard_focus(open_table: Any) -> None:
    fake = FakeTable(seed="planning")
    page = open_table(fake)
    citizen = page.locator("#board .tile.citizen").first
    citizen.focus()
    tip = page.evaluate("getComputedStyle(document.activeElement, '::after').content")
    assert ":" in tip and len(tip) > 20, tip


def test_a_piece_read_from_the_keyboard_keeps_the_focus_while_others_move(
    open_table: Any,
) -> None:
    """Another seat's change redraws the page: the citizen (known by its tile) and a player's
    label (known by its place) someone was reading from the keyboard keep the focus, and the
    citizen its power."""
    fake = FakeTable(seed="planning", names=["Ada", "Bea", None])
    page = open_table(fake)
    citizen = page.locator("#board .tile.citizen").first
    pieces = [
        ("#board", "citizen", citizen.get_attribute("data-tile")),
        ("#players", "talers", None),
    ]
    for n, (root, explains, tile) in enumerate(pieces, start=1):
        page.locator(f'{root} [data-explain="{explains}"]').nth(1 if tile is None else 0).focus()
        page.evaluate("document.activeElement.dataset.before = 'the redraw'")
        fake.names[1] = f"Bea {n}"
        fake.version += 1
        fake.broadcast()
        page.wait_for_selector(f"#player-1:has-text('Bea {n}')")
        focus = page.evaluate(
            """(root) => {
              const a = document.activeElement;
              return [a.closest(root) !== null, a.dataset.explain, a.dataset.tile || null,
                      a.dataset.before || null];
            }""",
            root,
        )
        assert focus == [True, explains, tile, None], focus  # a new node, focused again
        if tile:
            tip = page.evaluate("getComputedStyle(document.activeElement, '::after').content")
            assert ":" in tip and len(tip) > 20, tip


def test_a_refused_command_is_shown_and_the_choice_kept(open_table: Any) -> None:
    fake = FakeTable(seed="refused")
    page = open_table(fake)
    fake.refuse_next_command = ("conflict", "another change won the race; decide again")
    page.locator(".guild-cards .opt").first.click()
    page.click("#confirm")
    page.wait_for_selector(".notice.error")
    assert "Someone else acted at the same moment" in page.inner_text("#banner")
    assert page.locator(".guild-cards .opt.selected").count() == 1
    assert fake.version == 1  # nothing was applied
    page.click("#confirm")  # the same choice, sent again
    page.wait_for_function(IDLE)
    assert fake.version > 1
    assert page.locator(".notice.error").count() == 0


def test_a_refusal_reads_in_the_page_language_when_the_dictionary_knows_its_code(
    open_table: Any,
) -> None:
    fake = FakeTable(seed="refused-hu")
    page = open_table(fake, locale="hu-HU")
    fake.refuse_next_command = ("not_your_turn", "seat 0 may not act now")
    fake.refusal_clause = "N-4.1"
    page.locator(".guild-cards .opt").first.click()
    page.click("#confirm")
    page.wait_for_selector(".notice.error")
    assert "Nem te következel." in page.inner_text("#banner")
    # It names the rule it met, as a link to that clause (the panel: test_rules_panel.py).
    assert page.inner_text(".notice.error .rule-link") == "N-4.1. szabály"
    assert page.get_attribute(".notice.error .rule-link", "href") == "/rules/norenberc#N-4.1"
    fake.refuse_next_command = ("too_many_cards", "3 cards but only 2 agents in hand")
    fake.refusal_clause = "N-4.1"
    page.click("#confirm")
    page.wait_for_selector(".notice.error:has-text('3 cards but only 2 agents in hand')")


def test_a_spectator_sees_no_prompt_and_no_talers(open_table: Any) -> None:
    fake = FakeTable(seed="spectator")
    page = open_table(fake, seat=None)
    page.wait_for_selector("#board .house")
    assert page.locator("#prompt-card").count() == 0
    assert page.locator(".banner.mine").count() == 0
    assert page.locator(".talers").all_inner_texts() == ["hidden"] * 3
    assert "Planning. Waiting for" in page.inner_text("#banner")


def test_the_console_watch_does_catch_errors(new_page: Any, console_errors: Any) -> None:
    page = new_page()
    page.evaluate("console.error('boom')")
    with page.expect_event("pageerror"):
        page.evaluate("setTimeout(() => { throw new Error('late') }, 0)")
    assert console_errors[0] == "console: boom"
    assert any("late" in e for e in console_errors[1:])
    console_errors.clear()  # expected here; the fixture fails on any error left over


def test_in_ordered_planning_a_waiting_seat_is_told_whom_it_follows(open_table: Any) -> None:
    fake = FakeTable(seed="o1", names=["Ada", "Bea", None], options={"planning": "ordered"})
    page = open_table(fake)
    assert page.locator(".guild-cards").count() == 0  # no cards before Bea has planned
    assert page.inner_text("#plan-after").startswith("You plan after Bea, ")
    assert page.inner_text("#player-0 .ptag.plan-waiting") == "waiting"
    assert page.inner_text("#plan-ordered") == (
        "This table plans one at a time, last in play order first."
    )


def test_cards_beyond_the_agents_in_hand_cannot_be_picked(open_table: Any) -> None:
    fake = FakeTable(seed="agents")
    page = open_table(fake)
    for _ in range(60):  # play on until a planning turn with fewer agents than guilds
        view = fake.game.view(fake.state, 0)
        few = 0 < view["players"][0]["agents"]["hand"] < 4
        if few and any(c["type"] == "plan" for c in view["legal"]):
            break
        page.evaluate(AUTOPLAY, ["nothing"])
        page.wait_for_function(IDLE)
    hand = fake.game.view(fake.state, 0)["players"][0]["agents"]["hand"]
    assert 0 < hand < 4
    cards = page.locator(".guild-cards .opt")
    for i in range(hand):
        cards.nth(i).click()
    assert page.locator(".guild-cards .opt:disabled").count() == cards.count() - hand
    assert not page.locator("#confirm").is_disabled()


def test_the_prompt_area_keeps_its_height_so_the_board_does_not_jump(open_table: Any) -> None:
    fake = FakeTable(seed="steady")
    page = open_table(fake)
    tops = []
    for _ in range(8):
        if page.locator("#score-table").count():
            break
        tops.append(page.evaluate("document.getElementById('board').getBoundingClientRect().top"))
        page.evaluate(AUTOPLAY, ["hire", "buy", "sell"])
        page.wait_for_function(IDLE)
    assert len(tops) >= 4
    # The board only ever moves down (a taller prompt than before), never back up.
    assert tops == sorted(tops), tops


def test_the_creators_poll_redraws_the_table_only_for_a_change_and_ends_with_the_game(
    open_table: Any,
) -> None:
    # Every 3 s the creator's page asks how long absent players have been away (for the
    # hand-over button). A redraw for an unchanged answer replaced every button under a
    # finger: a tap pressed before and released after it was lost.
    fake = FakeTable(seed="away-poll", names=["Ada", "Bea", None])
    page = open_table(fake)
    polls: list[float] = []
    away = {"seconds": 5.0}

    def row(route: Any) -> None:
        table = {**fake.doc(0)["table"], "handover_after": 60.0, "server_time": time.time()}
        for seat in table["seats"]:
            seat["away_seconds"] = None if seat["connected"] or seat["bot"] else away["seconds"]
        away["seconds"] += 3.0  # the time away grows at every poll; the button waits still
        polls.append(time.monotonic())
        route.fulfill(json=table)

    def wait_for_polls(count: int) -> None:
        deadline = time.monotonic() + 15
        while len(polls) < count:
            assert time.monotonic() < deadline, "the creator's page stopped polling"
            page.wait_for_timeout(250)

    page.route(re.compile(r".*/api/tables/fake$"), row)
    wait_for_polls(1)  # its first answer, with the times away, is new to the page
    page.wait_for_timeout(300)
    page.evaluate("document.querySelector('#players > *').dataset.mark = 'first drawing'")
    wait_for_polls(2)  # an answer that changes nothing the page shows
    assert page.locator("#players > [data-mark='first drawing']").count() == 1
    assert page.locator("#bot-wait-1").count() == 1
    # Away long enough: that answer changes what the page shows, and it is drawn.
    away["seconds"] = 61.0
    page.wait_for_selector("#bot-offer-1", timeout=10_000)
    # The game ends: nothing is left to hand over, and the polling stops.
    rng = random.Random("away-poll")
    while fake.game.result(fake.state) is None:
        seat = min(s for s in fake.game.to_act(fake.state) if fake.names[s])
        fake.play(seat, rng.choice(fake.game.legal(fake.state, seat)))
    fake.broadcast()
    page.wait_for_selector("#score-table")
    page.wait_for_timeout(500)  # a poll already on its way may still land
    before = len(polls)
    page.wait_for_timeout(3_500)  # more than one polling interval
    assert len(polls) == before


def test_a_tap_survives_a_patch_that_arrives_while_the_finger_is_down(open_table: Any) -> None:
    # A redraw replaces the page's buttons: one between the press and the release made the
    # release fall on a new button, and the tap was lost. The page now draws after it.
    fake = FakeTable(seed="planning")
    page = open_table(fake)
    card = page.locator(".guild-cards .opt").first
    card.hover()
    page.evaluate("document.getElementById('players').firstElementChild.dataset.mark = 'before'")
    page.mouse.down()
    fake.version += 1  # a new version of the table: the page draws it anew
    fake.broadcast()
    page.wait_for_timeout(300)  # the patch arrives meanwhile (its drawing waits)
    assert page.locator("#players > [data-mark='before']").count() == 1
    page.mouse.up()
    assert page.locator(".guild-cards .opt.selected").count() == 1  # the tap counted
    # And the patch was drawn once the finger was lifted.
    page.wait_for_selector("#players > :not([data-mark='before'])", state="attached")
    assert page.locator("#players > [data-mark='before']").count() == 0
