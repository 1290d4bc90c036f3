"""Choices made on the board, and the phone's bottom sheet.

Each state is reached by the real engine (seeded random play until seat 0 must answer),
then the page is opened on it and the choice is made by tapping the marked place on the
board: goods in the called guild's store (buy) and one's own goods (sell), the thief's
victim's seat card, the bailiff's two tiles, the chief judge's and the duchess's house,
Strasbourg's own stacks, chapel corners and edifice sites. Exactly the listed command is
sent on Confirm, the prompt's buttons stay (and agree), and the board places are out of the
tab order. At 390 px the prompt is a bottom sheet that never covers the places it asks
about, folds to a handle, and the page never scrolls sideways. One's own seat card never
says "offline" after Start (a real server, from the lobby). Screenshots:
``artifacts/board-*.png``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, ServerThread, live_app
from .fake_table import FakeTable
from .test_citizen_prompts import of_type, table_choosing
from .test_promo_prompts import table_waiting_on
from .test_strasbourg_page import StrasbourgFake
from .test_table_client import IDLE, commands_sent, open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

Legal = list[dict[str, Any]]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Where the sheet begins, and every unpicked board place's box (viewport coordinates).
SHEET_AND_PLACES = """() => {
  const sheet = document.getElementById("prompt").getBoundingClientRect();
  const places = [...document.querySelectorAll("#layout .board-pick:not(.picked)")].map((el) => {
    const r = el.getBoundingClientRect();
    return { id: el.id, top: r.top, bottom: r.bottom };
  });
  const banner = document.getElementById("banner").getBoundingClientRect().bottom;
  const fixed = getComputedStyle(document.getElementById("prompt")).position;
  return { sheet: sheet.top, banner, places, fixed };
}"""
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"


def acting_table(want: Callable[[Legal], bool], seed: str) -> FakeTable:
    """A Norenberc table where seat 0 acts now and ``want(legal)`` holds; bots frozen."""
    for n in range(300):
        fake = FakeTable(seed=f"{seed}-{n}")
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            seat = min(fake.game.to_act(fake.state))
            legal = fake.game.legal(fake.state, seat)
            if seat == 0 and want(legal):
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake
            fake.state, events = fake.game.apply(fake.state, seat, rng.choice(legal))
            fake.events.extend(events)
    raise AssertionError(f"no seeded game gave seat 0 the wanted choice ({seed})")


def sent(fake: FakeTable) -> Legal:
    return [m["cmd"] for m in commands_sent(fake)]


def confirm(page: Any) -> None:
    page.click("#confirm")
    page.wait_for_function(IDLE)


def out_of_tab_order(page: Any) -> None:
    tabbable = page.eval_on_selector_all(
        "#layout .board-pick", "els => els.filter((e) => e.tabIndex >= 0).map((e) => e.id)"
    )
    assert tabbable == []


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"board-{name}.png"))


def places_clear_of_sheet(page: Any) -> dict[str, Any]:
    """At phone width: the prompt is a fixed sheet and the first place lies above it."""
    seen = page.evaluate(SHEET_AND_PLACES)
    assert seen["fixed"] == "fixed"
    assert seen["places"], "no place is marked on the board"
    first = min(seen["places"], key=lambda p: p["top"])
    top, bottom = seen["banner"], seen["sheet"]
    if first["bottom"] - first["top"] > bottom - top - 8:
        # Taller than the room between the banner and the sheet (a house card on a phone):
        # it starts just under the banner.
        assert top - 1 <= first["top"] <= top + 9, seen
    else:
        assert top - 1 <= first["top"] and first["bottom"] <= bottom + 1, seen
    assert page.evaluate(SIDEWAYS) <= 0
    return dict(seen)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_goods_are_bought_by_tapping_the_store(open_table: Any, viewport: dict[str, int]) -> None:
    fake = acting_table(
        lambda legal: any(sum(c["goods"].values()) >= 2 for c in of_type(legal, "buy")),
        "board-buy",
    )
    buys = of_type(fake.game.legal(fake.state, 0), "buy")
    page = open_table(fake, viewport=viewport)
    target = max(buys, key=lambda c: (sum(c["goods"].values()), sorted(c["goods"].items())))
    out_of_tab_order(page)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    for good, n in sorted(target["goods"].items()):
        for _ in range(n):
            page.click(f"#board-buy-{good}")
    # The prompt's steppers show the same basket: the board and the buttons are one draft.
    for good, n in target["goods"].items():
        assert page.inner_text(f"#buy-count-{good}") == str(n)
    assert page.inner_text("#draft-summary").startswith("Buy ")
    shot(page, f"buy-{viewport['width']}")
    assert sent(fake) == []
    confirm(page)
    assert sent(fake) == [target]


def test_selling_is_counted_by_tapping_ones_own_goods(open_table: Any) -> None:
    fake = acting_table(lambda legal: len(of_type(legal, "sell")) >= 2, "board-sell")
    sells = sorted(of_type(fake.game.legal(fake.state, 0), "sell"), key=lambda c: c["count"])
    page = open_table(fake, viewport=DESKTOP)
    good = page.get_attribute("#player-0 .good-pick", "id").removeprefix("board-sell-")
    page.click(f"#board-sell-{good}")
    assert page.get_attribute('[data-focus="sell-1"]', "aria-pressed") == "true"
    page.click(f"#board-sell-{good}")
    assert page.get_attribute(f'[data-focus="sell-{sells[1]["count"]}"]', "aria-pressed") == "true"
    confirm(page)
    assert sent(fake) == [sells[1]]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_thiefs_victim_is_picked_on_their_seat_card(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = table_choosing(
        "steal", lambda legal: len({c["victim"] for c in of_type(legal, "steal")}) >= 2
    )
    steals = of_type(fake.game.legal(fake.state, 0), "steal")
    victims = sorted({c["victim"] for c in steals})
    page = open_table(fake, viewport=viewport)
    marked = page.eval_on_selector_all("#players .player.can", "els => els.map((e) => e.id)")
    assert marked == [f"player-{v}" for v in victims] or sorted(marked) == sorted(
        f"player-{v}" for v in victims
    )
    if viewport is PHONE:
        places_clear_of_sheet(page)
    victim = victims[-1]
    page.click(f"#board-victim-{victim}")
    assert page.get_attribute(f'[data-focus="victim-{victim}"]', "aria-pressed") == "true"
    theirs = [c for c in steals if c["victim"] == victim]
    page.click('[data-focus="steal-0"]')
    shot(page, f"thief-{viewport['width']}")
    confirm(page)
    assert sent(fake) == [theirs[0]]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_bailiffs_two_tiles_are_tapped_on_the_board(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = table_choosing("bailiff", lambda legal: len(of_type(legal, "bailiff")) >= 3)
    swaps = of_type(fake.game.legal(fake.state, 0), "bailiff")
    page = open_table(fake, viewport=viewport)
    every = {tile for c in swaps for tile in c["tiles"]}
    marked = page.eval_on_selector_all(
        "#board .tile-pick", "els => els.map((e) => e.id.slice('board-tile-'.length))"
    )
    assert sorted(marked) == sorted(every)
    out_of_tab_order(page)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    # A swap with the tile the page brought into view first (on a phone, above the sheet).
    top = min(page.evaluate(SHEET_AND_PLACES)["places"], key=lambda p: p["top"])["id"]
    chosen = next(
        c
        for c in reversed(swaps)
        if "board-tile-" + c["tiles"][0] == top or "board-tile-" + c["tiles"][1] == top
    )
    first, second = sorted(chosen["tiles"], key=lambda t: "board-tile-" + t != top)
    page.click(f"#board-tile-{first}")
    # After the first tile, only the tiles a listed swap pairs it with stay marked.
    partners = {t for c in swaps if first in c["tiles"] for t in c["tiles"]}
    marked = page.eval_on_selector_all(
        "#board .tile-pick", "els => els.map((e) => e.id.slice('board-tile-'.length))"
    )
    assert sorted(marked) == sorted(partners)
    assert page.locator("#confirm").is_disabled()
    if viewport is PHONE:
        places_clear_of_sheet(page)  # the partners still to tap, not the tile already picked
    page.click(f"#board-tile-{second}")
    assert page.inner_text("#draft-summary").startswith("Swap ")
    i = swaps.index(chosen)
    assert page.get_attribute(f'[data-focus="swap-{i}"]', "aria-pressed") == "true"
    shot(page, f"bailiff-{viewport['width']}")
    confirm(page)
    assert sent(fake) == [chosen]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_chief_judge_is_placed_by_tapping_a_house(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = table_choosing("judge_house", lambda legal: len(of_type(legal, "judge_house")) >= 2)
    houses = of_type(fake.game.legal(fake.state, 0), "judge_house")
    page = open_table(fake, viewport=viewport)
    marked = page.eval_on_selector_all("#board .house.can", "els => els.map((e) => e.id)")
    assert sorted(marked) == sorted(f"house-{c['guild']}" for c in houses)
    out_of_tab_order(page)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    chosen = houses[-1]
    page.click(f"#board-house-{chosen['guild']}")
    assert page.get_attribute(f'[data-focus="judge-{chosen["guild"]}"]', "aria-pressed") == "true"
    shot(page, f"judge-{viewport['width']}")
    assert sent(fake) == []
    confirm(page)
    assert sent(fake) == [chosen]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_duchess_moves_the_crest_to_a_tapped_house(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = table_waiting_on("duchess")
    fake.run_bots = lambda: None  # type: ignore[method-assign]
    moves = of_type(fake.game.legal(fake.state, 0), "duchess")
    page = open_table(fake, viewport=viewport)
    marked = page.eval_on_selector_all("#board .house.can", "els => els.map((e) => e.id)")
    assert sorted(marked) == sorted(f"house-{c['guild']}" for c in moves)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    chosen = moves[-1]
    page.click(f"#board-house-{chosen['guild']}")
    shot(page, f"duchess-{viewport['width']}")
    assert sent(fake) == []
    confirm(page)
    assert sent(fake) == [chosen]


def influence_table() -> StrasbourgFake:
    """Strasbourg: seat 0 (Ada) must reveal a stack now; the bots move no more."""
    for n in range(100):
        fake = StrasbourgFake(["Ada", None, None], f"board-stack-{n}", {})
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            legal = fake.game.legal(fake.state, 0)
            if len(of_type(legal, "reveal")) >= 2:
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake
            fake.play(0, rng.choice([c for c in legal if c["type"] != "wait"]))
    raise AssertionError("no seeded game gave Ada two stacks to reveal")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_strasbourg_stack_is_revealed_by_tapping_it(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake = influence_table()
    reveals = of_type(fake.game.legal(fake.state, 0), "reveal")
    page = open_table(fake, viewport=viewport)
    marked = page.eval_on_selector_all("#player-0 .sb-stack.can", "els => els.map((e) => e.id)")
    assert sorted(marked) == sorted(f"board-stack-{c['stack']}" for c in reveals)
    if viewport is PHONE:
        places_clear_of_sheet(page)
    chosen = reveals[-1]
    page.click(f"#board-stack-{chosen['stack']}")
    assert page.get_attribute(f"#reveal-{chosen['stack']}", "aria-pressed") == "true"
    shot(page, f"stack-{viewport['width']}")
    confirm(page)
    assert sent(fake) == [chosen]


def strasbourg_choosing(kind: str) -> tuple[StrasbourgFake, Legal]:
    """Strasbourg: seat 0 (Ada) must choose among two or more ``kind`` commands now (a chapel
    corner for the church's seat, an edifice site for the nobility's); the bots move no more.
    Returns the table and seat 0's legal commands, in the order the page lists them."""
    for n in range(200):
        fake = StrasbourgFake(["Ada", None, None], f"board-{kind}-{n}", {})
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            legal = fake.game.legal(fake.state, 0)
            if not legal:
                break
            if len(of_type(legal, kind)) >= 2:
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake, legal
            fake.play(0, rng.choice([c for c in legal if c["type"] != "wait"]))
    raise AssertionError(f"no seeded game gave Ada a {kind} to choose")


def marked_places(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all("#layout .board-pick", "els => els.map((e) => e.id)"))


def tap_site_and_confirm(
    page: Any, fake: Any, legal: list[dict[str, Any]], places: dict[str, dict[str, Any]], name: str
) -> None:
    """The marked places are exactly ``places`` (element id -> its listed command); tapping
    the last selects the prompt's button of that command, and Confirm sends it alone."""
    assert marked_places(page) == sorted(places)
    out_of_tab_order(page)
    phone = page.viewport_size["width"] == PHONE["width"]
    if phone:
        places_clear_of_sheet(page)
    place, chosen = sorted(places.items(), key=lambda item: legal.index(item[1]))[-1]
    page.click("#" + place)
    # The prompt's button for the same command is the one selected.
    pressed = page.eval_on_selector_all(
        "#prompt-card .opt[aria-pressed=true]", "els => els.map((e) => e.id)"
    )
    assert pressed == [f"choice-{legal.index(chosen)}"]
    assert page.locator("#layout .board-pick.picked").count() == 1
    shot(page, f"{name}-{page.viewport_size['width']}")
    if phone:
        # The sheet's confirm row stays over the options it scrolls past: it must hide them.
        background = page.eval_on_selector(
            "#prompt .confirm-row", "el => getComputedStyle(el).backgroundColor"
        )
        assert background not in ("transparent", "rgba(0, 0, 0, 0)"), background
    assert sent(fake) == []
    confirm(page)
    assert sent(fake) == [chosen]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_strasbourg_chapel_is_built_by_tapping_its_corner(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake, legal = strasbourg_choosing("chapel")
    page = open_table(fake, viewport=viewport)
    chapels = {f"chapel-{c['site']}": c for c in of_type(legal, "chapel")}
    tap_site_and_confirm(page, fake, legal, chapels, "chapel")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_strasbourg_edifice_is_built_by_tapping_its_site(
    open_table: Any, viewport: dict[str, int]
) -> None:
    fake, legal = strasbourg_choosing("edifice")
    page = open_table(fake, viewport=viewport)
    sites = {f"cell-{c['cell'][0]}-{c['cell'][1]}": c for c in of_type(legal, "edifice")}
    tap_site_and_confirm(page, fake, legal, sites, "edifice")


def test_the_phone_sheet_folds_to_a_handle_and_opens_for_a_new_question(open_table: Any) -> None:
    fake = acting_table(lambda legal: bool(of_type(legal, "hire")), "board-sheet")
    page = open_table(fake, viewport=PHONE)
    handle = page.locator("#sheet-handle")
    assert handle.get_attribute("aria-expanded") == "true"
    opened = page.evaluate("document.getElementById('prompt').offsetHeight")
    handle.click()
    assert handle.get_attribute("aria-expanded") == "false"
    folded = page.evaluate("document.getElementById('prompt').offsetHeight")
    assert folded < 60 < opened
    assert page.locator("#prompt-card").is_hidden()
    shot(page, "sheet-folded-390")
    # A pick redraws the page; the sheet stays folded for the same question.
    page.click('[data-focus="kind-hire"]') if page.locator(
        '[data-focus="kind-hire"]'
    ).is_visible() else None
    handle.click()
    assert page.locator("#prompt-card").is_visible()
    # The board's own places (guest windows) are above the sheet.
    places_clear_of_sheet(page)
    # A wide window keeps the prompt in the page, without a handle.
    page.set_viewport_size(DESKTOP)
    page.wait_for_function(
        "getComputedStyle(document.getElementById('prompt')).position === 'static'"
    )
    assert page.locator("#sheet-handle").is_hidden()
    assert not page.locator("#prompt-card").is_hidden()


def test_the_page_lets_a_phone_zoom(open_table: Any) -> None:
    fake = FakeTable(seed="zoom")
    page = open_table(fake, viewport=PHONE)
    meta = page.get_attribute('meta[name="viewport"]', "content")
    assert "user-scalable=no" not in meta.replace(" ", "")
    assert "maximum-scale" not in meta


# Watches every change of the page from its first script on: whether one's own seat card
# (".player.me") ever holds the "offline" tag, and how many other seats' cards do. A
# MutationObserver's callback runs before the next paint, so no flash goes unseen.
WATCH_OFFLINE = """
window.offlineWatch = { cards: 0, own: [], others: 0 };
new MutationObserver(() => {
  const me = document.querySelector("#players .player.me");
  if (!me) return;
  window.offlineWatch.cards += 1;
  if (me.querySelector(".offline-tag")) window.offlineWatch.own.push(me.innerText);
  const others = document.querySelectorAll("#players .player:not(.me) .offline-tag").length;
  window.offlineWatch.others = Math.max(window.offlineWatch.others, others);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    with live_app(tmp_path_factory.mktemp("board-db"), bot_delay=0.0) as server:
        yield server


def presence_before_the_socket(route: Any) -> None:
    """The table's socket, with every snapshot saying seat 0 is not connected: what the
    table's data says before the server has counted this very page (the row polled at Start,
    a snapshot made as the socket opened). Everything else passes unchanged."""
    server = route.connect_to_server()

    def to_page(message: str | bytes) -> None:
        msg = json.loads(message)
        if msg.get("type") == "snapshot" and msg["doc"].get("table"):
            msg["doc"]["table"]["seats"][0]["connected"] = False
        route.send(json.dumps(msg))

    server.on_message(to_page)


def test_ones_own_seat_never_shows_offline_after_start(new_page: Any, live: ServerThread) -> None:
    page = new_page(viewport=PHONE, fresh=True)  # an init script stays on a page
    page.add_init_script(WATCH_OFFLINE)
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), presence_before_the_socket)
    page.goto(live.url + "/")
    page.fill("#player-name", "Ada")
    page.select_option("#seat-count", "2")
    page.select_option("#seat-kind-1", "human")
    page.click("#create-button")
    page.wait_for_selector("#created-card:not([hidden])")
    invite = page.input_value("#invite-link")
    table_id = invite.split("#", 1)[0].rsplit("/", 1)[1]
    joined = httpx.post(
        f"{live.url}/api/tables/{table_id}/join",
        json={"name": "Bea", "invite": invite.split("#invite=", 1)[1]},
    )
    assert joined.status_code == 201
    page.click("#start-button")
    page.wait_for_url(re.compile(r".*/t/[\w-]+#seat=.+"))
    page.wait_for_selector("#conn[data-state=online]")
    # Bea never opened her link: her card says so, which shows the watch sees the tag.
    page.wait_for_selector("#players .player:not(.me) .offline-tag")
    started = page.evaluate("window.offlineWatch")
    # Opening the table's link again (a reload) is the other moment the page starts from
    # data made before the server counted it.
    page.reload()
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector("#players .player:not(.me) .offline-tag")
    reloaded = page.evaluate("window.offlineWatch")
    shot(page, "own-seat-390")
    for watch in (started, reloaded):
        assert watch["cards"] > 0 and watch["others"] == 1, watch
        assert watch["own"] == [], watch
    assert page.locator("#players .player.me .offline-tag").count() == 0
