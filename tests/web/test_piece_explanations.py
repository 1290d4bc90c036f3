"""Every piece explains itself (docs/ui.md "Every piece explains itself"): each kind of
component of both boards, found on the table by its ``data-explain``, shows what it is and
what it does in the page's language, with a link to a clause of docs/rules/, by a tap (a
touch tap at 390 px, a click at 1280 px), by the mouse resting on it and by keyboard focus;
a long press on a choice explains it without picking it, and a tap on a choice still picks.

The data test checks ``web/rules/<game>/pieces/``: every kind in every language, every clause
in the rules. The browser walks the real shells with real engine views (``FakeTable``):
each language once per game and width, the three ways taking turns over the kinds so that
every kind meets each way and each language. Screenshots ``explain-<game>-<width>-<lang>.png``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from server.api.howto import RULES_DIR, how_to_play, pieces
from server.api.pages import languages, router

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app
from .test_accessibility import AXE, RUN_AXE, WCAG

GAMES = ["norenberc", "strasbourg"]
LANGS = sorted(languages())
WAYS = ["tap", "hover", "keyboard"]
WIDTHS = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}


def kinds_of(game: str) -> list[str]:
    return list(json.loads((RULES_DIR / game / "pieces" / "clauses.json").read_text()))


def clauses_of(game: str) -> set[str]:
    return {c.id for s in how_to_play(game, "en").sections for c in s.clauses}


# ---- the data ----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_is_explained_in_every_language_by_a_clause_that_exists(game: str) -> None:
    assert set(LANGS) == {"en", "de", "hu", "nl"}
    english = pieces(game, "en")
    assert list(english) == kinds_of(game)
    for lang in LANGS:
        words = pieces(game, lang)  # raises when a language lacks a kind or has one more
        assert set(words) == set(english), lang
        for kind, piece in words.items():
            assert piece["name"].strip() and len(piece["text"]) > 30, (lang, kind)
            assert piece["clause"] in clauses_of(game), (kind, piece["clause"])
            if lang != "en":  # written in the language, not left in English
                assert piece["text"] != english[kind]["text"], (lang, kind)
    files = {p.stem for p in (RULES_DIR / game / "pieces").glob("*.json")}
    assert files == {"clauses", *LANGS}


async def test_the_pieces_are_served_by_language_and_not_for_other_games() -> None:
    app = FastAPI()
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for lang in LANGS:
            body = (await client.get(f"/api/rules/strasbourg/pieces?lang={lang}")).json()
            assert body["lang"] == lang
            assert body["pieces"] == pieces("strasbourg", lang)
        assert (await client.get("/api/rules/chess/pieces")).status_code == 404


# ---- the table ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def norenberc_midgame() -> FakeTable:
    """Round 2 or later, seat 0 acting at a guild: crests, craftsmen and citizens are owned, a
    citizen waits in a window and the play-order track has moved (seeded random play)."""
    for n in range(60):
        fake = FakeTable(seed=f"explain-{n}")
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            view = fake.game.view(fake.state, 0)
            if view["round"] >= 2 and view["phase"] == "action" and view["to_act"] == [0]:
                owned = view["players"]
                guests = [tl for g in view["guilds"] for tl in g["guests"] if tl]
                if (
                    any(p["guild_crests"] for p in owned)
                    and any(p["citizens"] for p in owned)
                    and any(p["craftsmen"] for p in owned)
                    and any(tl["kind"] == "citizen" for tl in guests)
                ):
                    fake.run_bots = lambda: None  # type: ignore[method-assign]
                    return fake
            seat = min(fake.game.to_act(fake.state))
            cmd = rng.choice(fake.game.legal(fake.state, seat))
            fake.state, events = fake.game.apply(fake.state, seat, cmd)
            fake.events.extend(events)
    raise AssertionError("no seeded game reached round 2 with every kind of piece")


def table(game: str) -> FakeTable:
    return (
        norenberc_midgame() if game == "norenberc" else FakeTable(game="strasbourg", seed="explain")
    )


# The first piece of a kind a way can use: in view, not a choice (nor in one), focusable for
# the keyboard. Returns a selector for it or null: its place among the kind's pieces, not a
# mark set on the element, since a redraw (a part of the page arriving) replaces the element.
FIND = """([kind, way]) => {
  const choice = "button, a, input, select, label, [role=button]";
  const all = document.querySelectorAll("#app [data-explain='" + kind + "']");
  for (let i = 0; i < all.length; i++) {
    const el = all[i];
    if (!el.getClientRects().length || el.closest(choice) || el.querySelector(choice)) continue;
    if (way === "keyboard" && el.tabIndex !== 0) continue;
    el.scrollIntoView({ block: "center" });
    return "#app [data-explain='" + kind + "'] >> nth=" + i;
  }
  return null;
}"""

TIP = """() => {
  const tip = document.getElementById("explain-tip");
  if (!tip || tip.hidden) return null;
  const box = tip.getBoundingClientRect();
  const link = tip.querySelector("a[data-rule]");
  return { kind: tip.dataset.kind, text: tip.innerText, role: tip.getAttribute("role"),
    rule: link && link.dataset.rule, box: [box.left, box.top, box.right, box.bottom],
    width: document.documentElement.clientWidth, height: document.documentElement.clientHeight,
    described: !!document.querySelector("[aria-describedby=explain-tip]") };
}"""


def open_table(
    new_page: Any, server: ServerThread, fake: FakeTable, width: str, lang: str, board: bool = True
) -> Any:
    page = new_page(fresh=True, viewport=WIDTHS[width], has_touch=width == "390")
    fake.serve(page, 0)
    page.goto(f"{server.url}/t/fake?lang={lang}#seat=tok0")
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector("#app [data-explain]")
    # A prompt whose module comes when first needed redraws the page when it arrives.
    page.wait_for_function(
        "!document.querySelector('.banner.mine') || !!document.getElementById('prompt-card')"
    )
    if board and width == "390" and page.get_attribute("#sheet-handle", "aria-expanded") == "true":
        page.tap(
            "#sheet-handle"
        )  # the prompt's sheet out of the way of the board, as a reader would
    return page


def explain(page: Any, selector: str, way: str, width: str) -> Any:
    page.mouse.move(0, 0)
    page.keyboard.press("Escape")
    if way == "tap":
        if width == "390":
            page.tap(selector)
        else:
            page.click(selector)
    elif way == "hover":
        page.hover(selector)
    else:
        page.keyboard.press("Shift")  # the last input a key's: the focus shows as the keyboard's
        page.focus(selector)
    page.wait_for_function(
        "() => { const t = document.getElementById('explain-tip'); return t && !t.hidden; }"
    )
    return page.evaluate(TIP)


@pytest.mark.browser
@pytest.mark.parametrize("width", ["390", "1280"])
@pytest.mark.parametrize("game", GAMES)
def test_every_piece_explains_itself_by_tap_hover_and_keyboard(
    new_page: Any, pages_server: ServerThread, game: str, width: str
) -> None:
    fake = table(game)
    kinds = kinds_of(game)
    met: dict[str, set[str]] = {kind: set() for kind in kinds}
    for n, lang in enumerate(LANGS):
        page = open_table(new_page, pages_server, fake, width, lang)
        words = pieces(game, lang)
        for i, kind in enumerate(kinds):
            # The ways take turns: over the four languages every kind meets all three.
            for way in (
                (WAYS[(i + n) % 3], WAYS[(i + n + 1) % 3]) if n == 3 else (WAYS[(i + n) % 3],)
            ):
                selector = page.evaluate(FIND, [kind, way])
                assert selector, f"no {kind} on the {game} table for the {way}"
                tip = explain(page, selector, way, width)
                assert tip["kind"] == kind, (way, kind, tip)
                assert tip["role"] == "tooltip"
                assert words[kind]["name"] in tip["text"] and words[kind]["text"] in tip["text"], (
                    lang,
                    kind,
                )
                assert tip["rule"] == words[kind]["clause"] and tip["rule"] in clauses_of(game)
                assert tip["described"], (way, kind)  # the piece is described by the tip
                left, top, right, bottom = tip["box"]
                assert (
                    left >= 0 and right <= tip["width"] and top >= 0 and bottom <= tip["height"]
                ), (kind, tip)
                met[kind].add(way)
        page.screenshot(path=str(ARTIFACTS / f"explain-{game}-{width}-{lang}.png"))
        if lang == "en":
            page.evaluate(AXE)
            assert page.evaluate(RUN_AXE, WCAG) == []
        page.keyboard.press("Escape")
        assert page.evaluate(TIP) is None
        page.close()
    assert all(ways == set(WAYS) for ways in met.values()), met


@pytest.mark.browser
@pytest.mark.parametrize("width", ["390", "1280"])
def test_a_long_press_explains_a_choice_and_a_tap_still_picks_it(
    new_page: Any, pages_server: ServerThread, width: str
) -> None:
    fake = FakeTable(seed="explain-choice")
    page = open_table(new_page, pages_server, fake, width, "de", board=False)
    card = "#prompt-card button[data-explain=card]"
    first = page.locator(card).first
    assert first.get_attribute("aria-pressed") == "false"
    first.scroll_into_view_if_needed()
    if width == "390":
        box = first.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = page.context.new_cdp_session(page)
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        page.wait_for_timeout(800)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        first.hover()
    page.wait_for_function(
        "() => { const t = document.getElementById('explain-tip'); return t && !t.hidden; }"
    )
    tip = page.evaluate(TIP)
    assert tip["kind"] == "card" and pieces("norenberc", "de")["card"]["name"] in tip["text"]
    page.wait_for_timeout(200)
    assert (
        page.locator(card).first.get_attribute("aria-pressed") == "false"
    )  # explained, not picked
    page.screenshot(path=str(ARTIFACTS / f"explain-choice-{width}.png"))
    if width == "390":
        page.locator(card).first.tap()
    else:
        page.locator(card).first.click()
    page.wait_for_selector(card + "[aria-pressed=true]")


@pytest.mark.browser
def test_enter_on_a_piece_opens_its_clause_in_the_rules_panel(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = FakeTable(game="strasbourg", seed="explain-enter")
    page = open_table(new_page, pages_server, fake, "1280", "nl")
    page.keyboard.press("Shift")
    page.focus("#app h2[data-explain=council]")
    page.wait_for_function(
        "() => { const t = document.getElementById('explain-tip'); return t && !t.hidden; }"
    )
    page.keyboard.press("Enter")
    page.wait_for_selector("#rules-panel:not([hidden]) .clause.picked")
    assert (
        page.get_attribute("#rules-panel .clause.picked", "data-clause")
        == pieces("strasbourg", "nl")["council"]["clause"]
    )
