"""The base game's citizen choices (thief, bailiff, peddler, chief judge), clicked through.

Each state is reached by the real engine: seeded random play until seat 0 must answer the
citizen's choice, then the table is frozen (no bot moves after seat 0's answer), the page is
opened on it and a specific legal command is picked by clicking the prompt's own buttons.
The last test checks that a citizen's power tooltip stays inside the viewport.
Screenshots go to artifacts/citizen-*.png.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .conftest import ARTIFACTS
from .fake_table import FakeTable
from .test_table_client import IDLE, commands_sent, open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

Legal = list[dict[str, Any]]

# A seat's goods as its player area shows them: {"beer": 2, ...}.
GOODS_SHOWN = """(seat) => Object.fromEntries(
  [...document.querySelectorAll(`#player-${seat} .pgoods .good`)].map((e) => [
    [...e.classList].find((c) => c.startsWith("g-")).slice(2),
    Number(e.querySelector("b").textContent),
  ]))"""

# Where the board shows a tile: "house-2 window 3" or "house-2 queue 1.0" (stack, tile).
PLACE_SHOWN = """(id) => {
  const el = document.querySelector(`#board [data-tile="${id}"]`);
  if (!el) return null;
  const house = el.closest(".house").id;
  const win = el.closest(".window");
  if (win) return `${house} window ${[...win.parentNode.children].indexOf(win) + 1}`;
  const stack = el.closest(".stack");
  const stacks = [...stack.parentNode.querySelectorAll(".stack")];
  const item = el.closest(".stack > *"); // the tile, or the board pick around it
  return `${house} queue ${stacks.indexOf(stack)}.${[...stack.children].indexOf(item)}`;
}"""


def of_type(legal: Legal, kind: str) -> Legal:
    return [c for c in legal if c["type"] == kind]


CITIZEN = {
    "steal": "thief",
    "bailiff": "bailiff",
    "peddler_good": "peddler",
    "judge_house": "chief_judge",
}


def table_choosing(kind: str, want: Callable[[Legal], bool] = bool) -> FakeTable:
    """A base-game table where seat 0 (the browser) must answer a ``kind`` choice now.

    Seeded random play, except that seat 0 hires the citizen when a window offers it.
    ``want(legal)`` narrows the search to a richer choice (several victims, goods, ...).
    The table is frozen: after seat 0's answer no bot moves, so the page shows its effect.
    """
    for n in range(400):
        fake = FakeTable(seed=f"citizen-{kind}-{n}")
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            seat = min(fake.game.to_act(fake.state))
            legal = fake.game.legal(fake.state, seat)
            if seat == 0 and of_type(legal, kind) and want(legal):
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake
            hires = of_type(legal, "hire") if seat == 0 else []
            if hires:
                guests = hired_from(fake)
                hires = [
                    c for c in hires if guests[c["window"] - 1].get("citizen") == CITIZEN[kind]
                ]
            fake.state, events = fake.game.apply(fake.state, seat, rng.choice(hires or legal))
            fake.events.extend(events)
    raise AssertionError(f"no seeded game offered seat 0 a {kind} choice")


def hired_from(fake: FakeTable) -> list[dict[str, Any]]:
    """The tiles in the guest windows of the guild being resolved ({} for an empty one)."""
    game = fake.game.view(fake.state, 0)
    guild = next(g for g in game["guilds"] if g["guild"] == game["action"]["guild"])
    return [tile or {} for tile in guild["guests"]]


def view(fake: FakeTable) -> dict[str, Any]:
    return fake.game.view(fake.state, 0)


def options(page: Any, prefix: str) -> Any:
    return page.locator(f'#prompt-card [data-focus^="{prefix}"]')


def confirm_and_check(page: Any, fake: FakeTable, chosen: dict[str, Any], prefix: str) -> None:
    """Confirm; exactly ``chosen`` (a command of ``legal``) is the one command sent, and
    the choice's options (``data-focus`` starting with ``prefix``) go away."""
    assert not page.locator("#confirm").is_disabled()
    page.click("#confirm")
    page.wait_for_function(IDLE)
    assert [m["cmd"] for m in commands_sent(fake)] == [chosen]
    options(page, prefix).first.wait_for(state="detached")


def cancel_sends_nothing(page: Any, fake: FakeTable) -> None:
    page.click("#cancel")
    assert page.locator("#prompt-card .opt.selected").count() == 0
    assert page.locator("#confirm").is_disabled()
    assert page.locator("#cancel").count() == 0
    assert commands_sent(fake) == []


def shoot(page: Any, name: str) -> None:
    """The prompt card as a picture (from the whole page: the sticky banner stays on top)."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator("#prompt-card").bounding_box()
    page.screenshot(path=str(ARTIFACTS / f"citizen-{name}.png"), full_page=True, clip=box)


def test_thief_offers_the_legal_victims_and_goods_and_steals_on_confirm(open_table: Any) -> None:
    fake = table_choosing(
        "steal", lambda legal: len({c["victim"] for c in of_type(legal, "steal")}) >= 2
    )
    steals = of_type(view(fake)["legal"], "steal")
    victims = sorted({c["victim"] for c in steals})
    page = open_table(fake)
    assert options(page, "victim-").count() == len(victims)
    assert options(page, "steal-").count() == 0  # goods come after the victim
    assert page.locator("#confirm").is_disabled()
    victim = victims[-1]
    theirs = [c for c in steals if c["victim"] == victim]
    page.click(f'[data-focus="victim-{victim}"]')
    assert options(page, "steal-").count() == len(theirs)
    assert page.locator("#confirm").is_disabled()  # a victim alone is no command
    chosen = theirs[-1]
    page.click(f'[data-focus="steal-{len(theirs) - 1}"]')
    assert page.inner_text("#draft-summary").startswith("Steal ")
    assert f"(the bank pays {chosen['paid']})" in page.inner_text("#draft-summary")
    shoot(page, "thief")
    assert commands_sent(fake) == []  # a choice alone sends nothing
    cancel_sends_nothing(page, fake)
    page.click(f'[data-focus="victim-{victim}"]')
    page.click(f'[data-focus="steal-{len(theirs) - 1}"]')
    mine, victims_goods = page.evaluate(GOODS_SHOWN, 0), page.evaluate(GOODS_SHOWN, victim)
    confirm_and_check(page, fake, chosen, "victim-")
    for good, n in chosen["goods"].items():
        mine[good] = mine.get(good, 0) + n
        victims_goods[good] -= n
    assert page.evaluate(GOODS_SHOWN, 0) == mine
    assert page.evaluate(GOODS_SHOWN, victim) == {g: n for g, n in victims_goods.items() if n}


PICKED_IDS = "els => els.map(e => e.dataset.tile)"


def test_bailiff_offers_every_legal_swap_and_the_board_shows_the_swap(open_table: Any) -> None:
    fake = table_choosing("bailiff", lambda legal: len(of_type(legal, "bailiff")) >= 3)
    swaps = of_type(view(fake)["legal"], "bailiff")
    page = open_table(fake)
    assert options(page, "swap-").count() == len(swaps)
    assert page.locator("#prompt-card .swaps .opt").count() == len(swaps)
    places = {tile: page.evaluate(PLACE_SHOWN, tile) for c in swaps for tile in c["tiles"]}
    assert None not in places.values(), places
    # A swap between a guest room and a workshop if there is one, else the last.
    mixed = [c for c in swaps if len({places[t].split()[1] for t in c["tiles"]}) == 2]
    chosen = (mixed or swaps)[-1]
    i = swaps.index(chosen)
    page.click(f'[data-focus="swap-{i}"]')
    assert page.locator("#prompt-card .opt.selected").count() == 1
    assert page.inner_text("#draft-summary").startswith("Swap ")
    # The two tiles of the picked swap are marked on the board, and only they.
    assert sorted(page.eval_on_selector_all(".house .tile.picked", PICKED_IDS)) == sorted(
        chosen["tiles"]
    )
    shoot(page, "bailiff")
    assert commands_sent(fake) == []
    cancel_sends_nothing(page, fake)
    page.click(f'[data-focus="swap-{i}"]')
    confirm_and_check(page, fake, chosen, "swap-")
    a, b = chosen["tiles"]
    assert page.evaluate(PLACE_SHOWN, a) == places[b]
    assert page.evaluate(PLACE_SHOWN, b) == places[a]
    assert "swap" in page.inner_text("#log").lower()


@pytest.mark.parametrize("kind", ["steal", "bailiff"])
def test_a_power_that_may_be_declined_sends_decline_on_confirm(open_table: Any, kind: str) -> None:
    fake = table_choosing(kind)
    legal = view(fake)["legal"]
    assert {"type": "decline"} in legal
    page = open_table(fake)
    page.click('[data-focus="decline"]')
    assert page.inner_text("#draft-summary") == "Use no power"
    assert commands_sent(fake) == []
    confirm_and_check(page, fake, {"type": "decline"}, "decline")


def test_a_swap_picked_after_decline_is_the_one_sent(open_table: Any) -> None:
    fake = table_choosing("bailiff")
    swaps = of_type(view(fake)["legal"], "bailiff")
    page = open_table(fake)
    page.click('[data-focus="decline"]')
    page.click('[data-focus="swap-0"]')  # a change of mind
    assert page.locator("#prompt-card .opt.selected").count() == 1
    confirm_and_check(page, fake, swaps[0], "swap-")


def test_peddler_offers_the_own_goods_and_shows_the_good_on_the_tile(open_table: Any) -> None:
    fake = table_choosing("peddler_good", lambda legal: len(legal) >= 2)
    loads = of_type(view(fake)["legal"], "peddler_good")
    tile = view(fake)["action"]["choice"]["tile"]
    page = open_table(fake)
    assert options(page, "ped-").count() == len(loads)
    assert options(page, "decline").count() == 0  # the peddler must be answered
    mine = page.evaluate(GOODS_SHOWN, 0)
    assert sorted(mine) == sorted(c["good"] for c in loads)  # one option per good held
    chosen = loads[-1]
    button = f'[data-focus="ped-{chosen["good"]}"]'
    page.click(button)
    assert page.inner_text("#draft-summary") == f"Put {page.inner_text(button)} on the peddler"
    shoot(page, "peddler")
    assert commands_sent(fake) == []
    cancel_sends_nothing(page, fake)
    page.click(button)
    confirm_and_check(page, fake, chosen, "ped-")
    carried = page.locator(f'#player-0 .tile[data-tile="{tile}"] .good.g-{chosen["good"]}')
    assert carried.count() == 1
    mine[chosen["good"]] -= 1
    assert page.evaluate(GOODS_SHOWN, 0) == {g: n for g, n in mine.items() if n}


def test_chief_judge_offers_the_legal_houses_and_lies_on_the_chosen_one(open_table: Any) -> None:
    fake = table_choosing("judge_house", lambda legal: len(legal) >= 3)
    houses = of_type(view(fake)["legal"], "judge_house")
    page = open_table(fake)
    assert options(page, "judge-").count() == len(houses)
    assert options(page, "decline").count() == 0  # the chief judge must be answered
    chosen = houses[1]
    guild = chosen["guild"]
    before = next(g["judges"] for g in view(fake)["guilds"] if g["guild"] == guild)
    page.click(f'[data-focus="judge-{guild}"]')
    assert page.inner_text("#draft-summary").startswith("Place the chief judge on the ")
    shoot(page, "judge")
    assert commands_sent(fake) == []
    cancel_sends_nothing(page, fake)
    page.click(f'[data-focus="judge-{guild}"]')
    confirm_and_check(page, fake, chosen, "judge-")
    assert page.inner_text(f"#house-{guild} .judge") == f"Chief judge ×{before + 1}"


# ---- the power tooltip --------------------------------------------------------------


def tip_box(page: Any, selector: str) -> tuple[float, float, float, float] | None:
    """The rendered box (left, top, right, bottom) of ``selector``'s ::after, or None.

    A pseudo element has no DOM rect; the DevTools protocol lays out its box.
    """
    # The page may redraw between two calls (a clock tick, a change's glow ending), which
    # retires the node ids: ask again, a bounded number of times.
    for _ in range(4):
        try:
            return _tip_box_once(page, selector)
        except PlaywrightError as error:
            if "Could not find node" not in str(error):
                raise
    return _tip_box_once(page, selector)


def _tip_box_once(page: Any, selector: str) -> tuple[float, float, float, float] | None:
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        described = cdp.send("DOM.describeNode", {"nodeId": node, "depth": 1})["node"]
        after = [p for p in described.get("pseudoElements", []) if p["pseudoType"] == "after"]
        if not after:
            return None
        quad = cdp.send("DOM.getBoxModel", {"backendNodeId": after[0]["backendNodeId"]})
        xs, ys = quad["model"]["border"][0::2], quad["model"]["border"][1::2]
        return min(xs), min(ys), max(xs), max(ys)
    finally:
        cdp.detach()


def table_with_citizens(kept: int) -> FakeTable:
    """A frozen table, mid-game, where a player keeps ``kept`` citizens: that player's row of
    citizens then reaches the right edge of the desktop layout.

    Seeded random play, except that every seat hires a moon or sun citizen (kept) when it can.
    """
    for n in range(100):
        fake = FakeTable(seed=f"citizen-tips-{n}")
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            if max(len(p["citizens"]) for p in view(fake)["players"]) >= kept:
                fake.run_bots = lambda: None  # type: ignore[method-assign]
                return fake
            seat = min(fake.game.to_act(fake.state))
            legal = fake.game.legal(fake.state, seat)
            hires = of_type(legal, "hire")
            if hires:
                guests = [tile.get("symbol") for tile in hired_from(fake)]
                hires = [c for c in hires if guests[c["window"] - 1] in ("moon", "sun")]
            fake.state, events = fake.game.apply(fake.state, seat, rng.choice(hires or legal))
            fake.events.extend(events)
    raise AssertionError(f"no seeded game let a player keep {kept} citizens")


# The citizen tiles at the left and right ends of the page: [[id, centre x], ...].
EDGE_TILES = """() => {
  const tiles = [...document.querySelectorAll(".tile.citizen")].filter((e) => e.offsetParent);
  const rect = (e) => e.getBoundingClientRect();
  tiles.sort((a, b) => rect(a).left - rect(b).left);
  const first = tiles[0];
  tiles.sort((a, b) => rect(b).right - rect(a).right);
  return [first, tiles[0]].map((e) => [e.dataset.tile, rect(e).left + rect(e).width / 2]);
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_citizen_tooltip_stays_inside_the_viewport(open_table: Any, width: int) -> None:
    fake = table_with_citizens(3)
    height = 800
    page = open_table(fake, viewport={"width": width, "height": height})
    page.wait_for_selector("#board .tile.citizen")
    viewport_width = page.evaluate("document.documentElement.clientWidth")
    near_edge = 0
    for side, (tile, centre) in zip(("left", "right"), page.evaluate(EDGE_TILES), strict=True):
        selector = f'.tile.citizen[data-tile="{tile}"]'
        for how in ("focus", "hover"):
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.mouse.move(0, 0)
            if how == "focus":
                page.locator(selector).focus()
            else:
                page.locator(selector).hover()
            box = tip_box(page, selector)
            assert box is not None, f"{how} shows no tooltip on {tile}"
            left, top, right, bottom = box
            assert right - left > 100, box  # a readable width, not squeezed
            # Is the tile so near the edge that a tip centred under it would stick out?
            half = (right - left) / 2
            near_edge += (centre < half) if side == "left" else (centre + half > viewport_width)
            assert left >= 0 and right <= viewport_width, (how, tile, box, viewport_width)
            assert top >= 0 and bottom <= height, (how, tile, box)
            if how == "hover":
                page.screenshot(path=str(ARTIFACTS / f"citizen-tip-{width}-{side}.png"))
    # At least one edge tile would have pushed a centred tip out: otherwise this proves nothing.
    assert near_edge, "no citizen tile near enough to an edge"
