"""Status tags agree with the board: over the first moves of a real game of each kind.

Three seats: Ada (this page), Bea (a person whose link is not open and who said she is away
until tomorrow) and a bot. Ada and Bea play seeded random legal commands (a wait now and
then), the bot answers at once. After every command the page is read as a player reads it:

- "to act" stands on exactly the seats the game waits for;
- while the table plans in secret, each seat's tag is its public planning status in words
  (Norenberc: "planning", "waiting", "N cards" or "passed" once sealed, "out"; Strasbourg:
  "planning", "waits", "sealed", and in the tasks phase "choosing tasks" / "tasks chosen"),
  a seat tagged as still planning is one the game waits for, a sealed one is not, and no
  planning tag is left once planning is over;
- "offline" and "away until …" stand on Bea's card only: never on Ada's, never on the bot's;
- the banner is Ada's turn exactly when she is to act, and otherwise names every seat the
  game waits for; Ada's prompt is there whenever she is to act.

Screenshots: ``artifacts/tags-<game>-<n>.png`` at a few steps.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from server.api import pages
from server.clocks import model as clock_model

from .conftest import ARTIFACTS
from .fake_table import FakeTable
from .test_table_client import open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

NAMES = ["Ada", "Bea", None]
AWAY = 1
BOT = 2
STEPS = 30

# Per card: its tags, what its seat-acts line says, and the banner and prompt.
READ = """() => ({
  cards: Object.fromEntries([...document.querySelectorAll("#players .player")].map((card) => [
    card.id.slice("player-".length),
    {
      acting: !!card.querySelector("header .acting-tag"),
      plan: [...card.querySelectorAll("header .ptag[class*=plan-]")].map((el) =>
        [[...el.classList].find((c) => c.startsWith("plan-")).slice(5), el.textContent]),
      offline: !!card.querySelector("header .offline-tag"),
      away: !!card.querySelector(".away-note"),
      botWait: !!card.querySelector(".bot-wait, .stand-in"),
    },
  ])),
  banner: document.getElementById("banner").className,
  bannerText: document.getElementById("banner-text").textContent,
  prompt: !!document.querySelector("#prompt > :not(.sheet-handle)"),
  log: document.querySelectorAll("#log li:not(.log-head)").length,
})"""
LOG_LINES = "(n) => document.querySelectorAll('#log li:not(.log-head)').length === n"


class AwayTable(FakeTable):
    """A FakeTable whose table document carries an over-days clock on which Bea is away
    until tomorrow (what server.clocks.model.public sends)."""

    def doc(self, seat: int | None) -> dict[str, Any]:
        out = super().doc(seat)
        clock = clock_model.new_clock({"mode": "days", "per_decision": 86400, "bank": 0}, 3)
        clock["seats"][AWAY]["away_until"] = time.time() + 86400
        out["table"]["clock"] = clock_model.public(clock, {0, AWAY})
        return out


def plan_words(game: str, phase: str, player: dict[str, Any], strings: dict[str, str]) -> str:
    status = player["planning"]
    if game == "strasbourg":
        return strings[("sb.tasks_tag." if phase == "tasks" else "sb.plan.") + status]
    if status == "committed":
        n = player["cards"]
        if n == 0:
            return strings["plan.status.passed"]
        return strings["plan.status.cards.one" if n == 1 else "plan.status.cards"].format(n=n)
    return strings["plan.status." + status]


def check(game: str, seen: dict[str, Any], fake: FakeTable, step: int) -> None:
    view = fake.game.view(fake.state, None)
    strings = pages.languages()["en"]
    to_act = set(view["to_act"])
    planning = view["phase"] in (("planning", "tasks") if game == "strasbourg" else ("planning",))
    where = (game, step, view["phase"], sorted(to_act))
    for seat in range(3):
        card = seen["cards"][str(seat)]
        player = view["players"][seat]
        assert card["acting"] == (seat in to_act), (where, seat, card)
        if planning and player["planning"]:
            status = player["planning"]
            assert card["plan"] == [[status, plan_words(game, view["phase"], player, strings)]], (
                where,
                seat,
                card,
            )
            if status == "planning":
                assert seat in to_act, (where, seat)
            if status in ("committed", "waiting", "out"):
                assert seat not in to_act, (where, seat)
        else:
            assert card["plan"] == [], (where, seat, card)
        assert card["offline"] == (seat == AWAY), (where, seat, card)
        assert card["away"] == (seat == AWAY), (where, seat, card)
        if seat != AWAY:
            assert not card["botWait"], (where, seat, card)
    if 0 in to_act:
        assert "mine" in seen["banner"].split() and seen["prompt"], (where, seen)
    else:
        assert "mine" not in seen["banner"].split(), (where, seen)
        for seat in to_act:
            name = NAMES[seat] or f"Bot (easy) {seat + 1}"
            assert name in seen["bannerText"], (where, seen["bannerText"])


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
def test_status_tags_agree_with_the_board(open_table: Any, game: str) -> None:
    fake = AwayTable(seats=3, seed=f"tags-{game}", names=list(NAMES), game=game)
    page = open_table(fake, viewport={"width": 1280, "height": 900})
    rng = random.Random(game)
    kinds: set[str] = set()
    waited = False
    for step in range(STEPS):
        if fake.game.result(fake.state) is not None:
            break
        lines = len(fake.doc(0)["log"])
        page.wait_for_function(LOG_LINES, arg=lines)
        seen = page.evaluate(READ)
        check(game, seen, fake, step)
        view = fake.game.view(fake.state, None)
        kinds |= {p["planning"] for p in view["players"] if p.get("planning")}
        if step in (0, 1, 2):
            page.screenshot(path=str(ARTIFACTS / f"tags-{game}-{step}.png"))
        humans = [s for s in sorted(fake.game.to_act(fake.state)) if s != BOT]
        seat = rng.choice(humans)
        legal = [c for c in fake.game.legal(fake.state, seat) if c["type"] != "retract"]
        waits = [c for c in legal if c["type"] == "wait"]
        # Bea asks to wait once: the others then plan one at a time ("waiting" tags).
        cmd = waits[0] if waits and seat == AWAY and not waited else rng.choice(legal)
        waited = waited or cmd["type"] == "wait"
        fake.play(seat, cmd)
        fake.broadcast()
    # The game went through the statuses the tags speak of.
    assert {"planning", "committed", "waiting"} <= kinds, kinds
