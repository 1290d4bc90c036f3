"""Accessibility: axe-core (WCAG 2.2 A and AA rules) on every state a player meets, at a
desktop and a phone width, in every language; and a keyboard-only game in each game.
``make test`` checks every state in English and in one other language, each language in
turn, and the lobby in every language; ``make soak`` every state in every language.

axe-core is vendored as one file (``vendor/axe.min.js``, MPL-2.0, its licence beside it); it
runs inside the page and fetches nothing. The pages are the real shells with real engine
views (``FakeTable``), so each state costs one page load; both widths are checked on the
same page. A critical or serious finding fails the test with the rule, the elements and
axe's own explanation.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.api import pages
from server.api.replay import replay_steps

from .conftest import ARTIFACTS, ServerThread
from .fake_table import FakeTable, pages_app

pytestmark = pytest.mark.browser
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LANGUAGES = sorted(pages.languages())
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
RUN_AXE = """async (tags) => {
    const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                            resultTypes: ["violations"]});
    return result.violations
        .filter((v) => v.impact === "critical" || v.impact === "serious")
        .map((v) => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 4)
            .map((n) => n.target.join(" ") + " — " + (n.failureSummary || "")).join(" | "));
}"""

View = dict[str, Any]


def view(fake: FakeTable) -> View:
    return fake.game.view(fake.state, 0)


# state name -> (game, predicate on seat 0's view)
STATES: dict[str, tuple[str, Callable[[View], bool]]] = {
    "norenberc-planning": ("norenberc", lambda v: v["phase"] == "planning" and bool(v["legal"])),
    "norenberc-action": (
        "norenberc",
        lambda v: v["phase"] == "action" and bool(v["legal"]) and not v["action"]["choice"],
    ),
    "norenberc-over": ("norenberc", lambda v: v["phase"] == "over"),
    "strasbourg-tasks": ("strasbourg", lambda v: v["phase"] == "tasks" and bool(v["legal"])),
    "strasbourg-draw": (
        "strasbourg",
        lambda v: v["phase"] == "planning" and any(c["type"] == "draw" for c in v["legal"]),
    ),
    "strasbourg-split": (
        "strasbourg",
        lambda v: v["phase"] == "planning" and any(c["type"] == "stack" for c in v["legal"]),
    ),
    "strasbourg-influence": (
        "strasbourg",
        lambda v: v["phase"] == "influence" and bool(v["legal"]),
    ),
    "strasbourg-reveal": (
        "strasbourg",
        lambda v: v["phase"] == "influence" and any(c["type"] == "reveal" for c in v["legal"]),
    ),
    "strasbourg-choice": (
        "strasbourg",
        lambda v: v["phase"] not in ("tasks", "planning", "influence", "over") and bool(v["legal"]),
    ),
    "strasbourg-over": ("strasbourg", lambda v: v["phase"] == "over"),
}


# A place on the board tapped before the check, in the states that have one: a picked place
# is marked and named anew (a picked Strasbourg stack once had a name that did not start
# with its text).
TAPPED = {"strasbourg-reveal": "#board-stack-0"}


def table_at(state: str) -> FakeTable:
    """A 3-seat table (the browser and two bots) played at random until ``state``."""
    game, reached = STATES[state]
    fake = FakeTable(seats=3, seed=f"a11y-{state}", names=["Ada", None, None], game=game)
    fake.run_bots()
    rng = random.Random(state)
    for _ in range(3000):
        if reached(view(fake)):
            return fake
        fake.play(0, rng.choice(fake.game.legal(fake.state, 0)))
    raise AssertionError(f"{state} not reached")


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


def open_fake(new_page: Any, server: ServerThread, fake: FakeTable, lang: str) -> Any:
    page = new_page(viewport=WIDTHS["desktop"])
    fake.serve(page, 0)
    steps: list[dict[str, Any]] = []

    def replay(route: Any) -> None:
        steps[:] = steps or replay_steps(fake.record())
        k = int(route.request.url.rsplit("/", 1)[1])
        command = fake.commands[k - 1] if k else None
        route.fulfill(json={"step": k, "steps": len(steps) - 1, "command": command, **steps[k]})

    page.route(re.compile(r".*/api/tables/fake/replay/\d+$"), replay)
    page.goto(f"{server.url}/t/fake?lang={lang}#seat=tok0")
    page.wait_for_selector("#conn[data-state=online]")
    return page


def violations_at_every_width(page: Any, name: str, shoot: bool) -> list[str]:
    found = []
    for width, size in WIDTHS.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(250)  # the page redraws 150 ms after a resize
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.evaluate(AXE)
        found += [f"{name} at {width}: {v}" for v in page.evaluate(RUN_AXE, WCAG)]
        if shoot:
            page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{width}.png"), full_page=True)
    return found


def state_languages() -> list[Any]:
    """Every state in English, and each state in one other language besides, in turn (a
    language's words change lengths and labels, not which elements a state has); every other
    pair of state and language is in the soak tier."""
    others = [lang for lang in LANGUAGES if lang != "en"]
    pairs = []
    for i, state in enumerate(sorted(STATES)):
        for lang in LANGUAGES:
            fast = lang == "en" or lang == others[i % len(others)]
            marks = () if fast else (pytest.mark.soak,)
            pairs.append(pytest.param(state, lang, marks=marks, id=f"{state}-{lang}"))
    return pairs


@pytest.mark.parametrize(("state", "lang"), state_languages())
def test_no_serious_accessibility_finding_in_any_state(
    new_page: Any, pages_server: ServerThread, state: str, lang: str
) -> None:
    page = open_fake(new_page, pages_server, table_at(state), lang)
    if state in TAPPED:
        page.click(TAPPED[state])
        page.wait_for_selector(TAPPED[state] + ".picked")
    found = violations_at_every_width(page, f"{state}-{lang}", lang == "en")
    if state.endswith("-over"):
        page.click("#replay-start")
        page.wait_for_selector("#replay-step")
        page.click("#replay-next")
        page.wait_for_selector("#replay-command")
        found += violations_at_every_width(page, f"{state}-replay-{lang}", lang == "en")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_finding_in_the_lobby(
    new_page: Any, pages_server: ServerThread, lang: str
) -> None:
    page = new_page(viewport=WIDTHS["desktop"])
    games = [{"name": "norenberc", "title": "Norenberc", "min_seats": 2, "max_seats": 5}]
    page.route(re.compile(r".*/api/games$"), lambda route: route.fulfill(json={"games": games}))
    table = {**FakeTable().doc(0)["table"], "status": "open"}
    page.route(re.compile(r".*/api/tables$"), lambda route: route.fulfill(json={"tables": [table]}))
    page.goto(f"{pages_server.url}/?lang={lang}")
    page.wait_for_selector("#open-list li")
    found = violations_at_every_width(page, f"lobby-{lang}", lang == "en")
    assert found == [], "\n".join(found)
    # Last drawn at the phone width: nothing there is wider than the screen (the clock
    # select, as wide as its longest preset, once made the page scroll sideways).
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS["phone"]["width"]


def rules_languages() -> list[Any]:
    """Each game's how-to-play page in English and in one other language (the others in the
    soak tier), plus the page of a game that does not exist."""
    pairs = []
    for i, game in enumerate(("norenberc", "strasbourg", "chess")):
        for lang in LANGUAGES:
            fast = lang in ("en", ("hu", "de", "nl")[i % 3])
            marks = () if fast else (pytest.mark.soak,)
            pairs.append(pytest.param(game, lang, marks=marks, id=f"{game}-{lang}"))
    return pairs


@pytest.mark.parametrize(("game", "lang"), rules_languages())
def test_no_serious_accessibility_finding_on_the_rules_pages(
    new_page: Any, pages_server: ServerThread, console_errors: list[str], game: str, lang: str
) -> None:
    page = new_page(viewport=WIDTHS["desktop"])
    page.goto(f"{pages_server.url}/rules/{game}?lang={lang}")
    if game == "chess":  # the not-found page is meant to answer 404
        console_errors[:] = [
            e for e in console_errors if "/rules/chess" not in e and "404" not in e
        ]
    found = violations_at_every_width(page, f"rules-{game}-{lang}", lang != "de")
    assert found == [], "\n".join(found)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS["phone"]["width"]


# ---- keyboard only ------------------------------------------------------------------

# Where the keyboard focus is: "body", or "<data-focus or id or tag>@<region>".
FOCUS = """() => {
    const a = document.activeElement;
    if (!a || a === document.body) return "body";
    const where = a.closest("#prompt") ? "prompt" : a.closest("#replay") ? "replay" : "page";
    return (a.dataset.focus || a.id || a.tagName.toLowerCase()) + "@" + where;
}"""
IDLE = "!document.querySelector('.sending')"


def tab_to(page: Any, wanted: Callable[[str], bool], limit: int = 60) -> str:
    """Press Tab until the focus is where ``wanted`` says; returns that place."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        where: str = page.evaluate(FOCUS)
        if wanted(where):
            return where
    raise AssertionError(f"Tab never reached it; focus at {page.evaluate(FOCUS)}")


def focus_after(page: Any, key: str) -> str:
    page.keyboard.press(key)
    page.wait_for_function(IDLE)
    page.wait_for_timeout(100)
    return str(page.evaluate(FOCUS))


def mine(fake: FakeTable) -> list[dict[str, Any]]:
    return [c["cmd"] for c in fake.commands if c["seat"] == 0]


def confirm_by_keyboard(page: Any) -> str:
    tab_to(page, lambda w: w == "confirm@prompt")
    return focus_after(page, "Enter")


def test_norenberc_by_keyboard_alone_focus_follows_the_game(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = table_at("norenberc-planning")
    page = open_fake(new_page, pages_server, fake, "en")
    assert tab_to(page, lambda w: w.startswith("skip-to-move")) == "skip-to-move@page"
    assert focus_after(page, "Enter") == "h2@prompt"  # the prompt's heading
    first = tab_to(page, lambda w: w.startswith("plan-"))
    page.keyboard.press("ArrowRight")  # arrows move between the guild cards
    second = page.evaluate(FOCUS)
    assert second.startswith("plan-") and second != first
    assert focus_after(page, "Space") == second  # focus survives the re-render
    after = confirm_by_keyboard(page)
    assert mine(fake)[-1]["type"] == "plan"
    assert after.endswith("@prompt"), after  # never the body: the next prompt's heading
    # Plan on by keyboard until an action is asked for: "Do nothing", then Confirm.
    for _ in range(12):
        state = view(fake)
        if state["phase"] == "action" and not state["action"]["choice"]:
            break
        tab_to(page, lambda w: w.startswith(("plan-", "decline", "pass")))
        page.keyboard.press("Space")
        assert confirm_by_keyboard(page).endswith("@prompt")
    assert view(fake)["phase"] == "action"
    tab_to(page, lambda w: w.startswith("kind-"))
    for _ in range(6):
        if page.evaluate(FOCUS) == "kind-nothing@prompt":
            break
        page.keyboard.press("ArrowRight")
    assert focus_after(page, "Enter") == "kind-nothing@prompt"
    sent = len(mine(fake))
    after = confirm_by_keyboard(page)
    assert mine(fake)[sent] == {"type": "nothing"}
    assert after != "body" and after.endswith(("@prompt", "@page")), after


def test_strasbourg_by_keyboard_alone_focus_follows_the_game(
    new_page: Any, pages_server: ServerThread
) -> None:
    fake = table_at("strasbourg-tasks")
    page = open_fake(new_page, pages_server, fake, "en")
    tab_to(page, lambda w: w.startswith("task-"))
    assert focus_after(page, "Space").startswith("task-")  # the checkbox keeps the focus
    after = confirm_by_keyboard(page)
    assert mine(fake)[0]["type"] == "keep"
    assert after.endswith("@prompt"), after
    # Planning: Draw once, then Stop; the focus stays in the prompt each time.
    page.wait_for_selector("#sb-draw")
    tab_to(page, lambda w: w == "sb-draw@prompt")
    assert focus_after(page, "Enter").endswith("@prompt")
    tab_to(page, lambda w: w == "sb-stop@prompt")
    assert focus_after(page, "Enter").endswith("@prompt")
    assert [c["type"] for c in mine(fake)][1:3] == ["draw", "stop"]
