"""Not only colour: the table seen through colour-blindness simulations.

A 5-seat Norenberc table and a 5-seat Strasbourg table (real engine views, a running clock
for every seat) are rendered in Chromium, and the whole page is passed through an SVG
``feColorMatrix`` filter for protanopia, deuteranopia and tritanopia (Machado et al. 2009,
full severity). For every pair of seats, and every pair of guilds, the test asks whether the
simulated colours still differ enough; where they do not, the pair must differ by shape or
mark in every place a seat or a guild is shown (badges, markers on the board, clocks, log;
guild marks in the page's language). Screenshots: ``artifacts/colourblind-*.png``.
"""

from __future__ import annotations

import math
import time
from typing import Any

import pytest

from .conftest import ARTIFACTS
from .fake_table import FakeTable
from .test_table_client import open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied in linear RGB (feColorMatrix's
# default colour space, and the one these matrices are made for).
SIMULATIONS = {
    "protanopia": [
        0.152286,
        1.052583,
        -0.204868,
        0.114503,
        0.786281,
        0.099216,
        -0.003882,
        -0.048116,
        1.051998,
    ],
    "deuteranopia": [
        0.367322,
        0.860646,
        -0.227968,
        0.280085,
        0.672501,
        0.047413,
        -0.011820,
        0.042940,
        0.968881,
    ],
    "tritanopia": [
        1.255528,
        -0.076749,
        -0.178779,
        -0.078411,
        0.930809,
        0.147602,
        0.004733,
        0.691367,
        0.303900,
    ],
}
# Below this distance (CIE76 ΔE in Lab) two simulated colours count as one for a glance.
CONFUSABLE = 20.0

INSTALL_FILTER = """([name, m]) => {
  const ns = "http://www.w3.org/2000/svg";
  let svg = document.getElementById("cvd-filters");
  if (!svg) {
    svg = document.createElementNS(ns, "svg");
    svg.id = "cvd-filters";
    svg.setAttribute("width", "0"); svg.setAttribute("height", "0");
    svg.style.position = "absolute";
    document.body.appendChild(svg);
  }
  const filter = document.createElementNS(ns, "filter");
  filter.id = "cvd-" + name;
  const matrix = document.createElementNS(ns, "feColorMatrix");
  matrix.setAttribute("type", "matrix");
  matrix.setAttribute("values",
    [0, 1, 2].map((r) => m.slice(3 * r, 3 * r + 3).join(" ") + " 0 0").join(" ") + " 0 0 0 1 0");
  filter.appendChild(matrix);
  svg.appendChild(filter);
  document.documentElement.style.filter = "url(#cvd-" + name + ")";
}"""

# Per place a seat is shown: {seat: [mark texts]}.
SEAT_MARKS = """(game) => {
  const bySeat = (selector, seatOf, markOf) => {
    const out = {};
    document.querySelectorAll(selector).forEach((el) => {
      const seat = seatOf(el);
      if (seat === null) return;
      (out[seat] = out[seat] || []).push(markOf(el));
    });
    return out;
  };
  const classSeat = (el) => {
    const c = [...el.classList].find((k) => /^p\\d$/.test(k));
    return c ? Number(c.slice(1)) : null;
  };
  const places = {
    badges: bySeat(".pbadge", classSeat, (el) => el.querySelector(".pmark").textContent),
    clocks: bySeat(".clock-chip", (el) => Number(el.dataset.seat),
      (el) => el.querySelector(".pmark").textContent),
    log: bySeat("#log .pmark", classSeat, (el) => el.textContent),
  };
  if (game === "norenberc") {
    places.board = bySeat("#board .roof-agents", classSeat, (el) => el.textContent.split("×")[0]);
  } else {
    places.board = bySeat("#board .sb-member", classSeat, (el) => el.textContent);
  }
  return places;
}"""

GUILD_MARKS = """(game) => {
  if (game === "norenberc") {
    return [...document.querySelectorAll("#board .house")].map((el) => ({
      guild: el.id, mark: el.querySelector(".gnum").textContent,
      name: el.querySelector(".gname").textContent,
      colour: getComputedStyle(el).borderTopColor }));
  }
  return [...document.querySelectorAll("#board .sb-legend .sb-gtag:not(.sb-space)")].map((el) => ({
    guild: [...el.classList].find((k) => k.startsWith("sb-g-")),
    mark: el.querySelector(".sb-mark").textContent,
    name: el.textContent.slice(el.querySelector(".sb-mark").textContent.length).trim(),
    colour: getComputedStyle(el).backgroundColor }));
}"""

SEAT_COLOURS = """() => [0, 1, 2, 3, 4].map((s) => getComputedStyle(document.documentElement)
  .getPropertyValue("--p" + s).trim())"""


def srgb(css: str) -> tuple[float, float, float]:
    css = css.strip()
    if css.startswith("#"):
        return tuple(int(css[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    parts = css[css.index("(") + 1 : css.index(")")].replace(",", " ").split()
    return tuple(float(p) / 255 for p in parts[:3])  # type: ignore[return-value]


def to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def simulated(css: str, matrix: list[float]) -> tuple[float, float, float]:
    lin = [to_linear(c) for c in srgb(css)]
    out = [sum(matrix[3 * r + k] * lin[k] for k in range(3)) for r in range(3)]
    return tuple(min(1.0, max(0.0, c)) for c in out)  # type: ignore[return-value]


def distance(a: str, b: str, matrix: list[float]) -> float:
    return math.dist(lab(simulated(a, matrix)), lab(simulated(b, matrix)))


class ClockTable(FakeTable):
    """A FakeTable whose document carries a running live clock for every seat."""

    def doc(self, seat: int | None) -> dict[str, Any]:
        doc = super().doc(seat)
        due = time.time() + 600
        doc["table"]["clock"] = {
            "mode": "live",
            "config": {"mode": "live", "plan": 60, "action": 20, "bank": 300, "increment": 5},
            "seats": [{"running": True, "deadline": due, "covered": False} for _ in self.names],
        }
        return doc


def played(game: str) -> ClockTable:
    """Five seats, seat 0 the page; the bots play until seat 0 must act, some way in."""
    fake = ClockTable(seats=5, seed=f"colour-{game}", game=game)
    fake.run_bots()
    for _ in range(12 if game == "norenberc" else 60):
        legal = [c for c in fake.game.legal(fake.state, 0) if c["type"] not in ("pass", "wait")]
        if not legal or fake.game.result(fake.state) is not None:
            break
        fake.play(0, legal[0])
    assert fake.game.result(fake.state) is None
    return fake


def check_marks(places: dict[str, dict[str, list[str]]], seats: int) -> None:
    for where, by_seat in places.items():
        assert by_seat, f"no seat is shown in {where}"
        for seat, marks in by_seat.items():
            assert len(set(marks)) == 1 and marks[0].strip(), (where, seat, marks)
        shown = {seat: marks[0] for seat, marks in by_seat.items()}
        assert len(set(shown.values())) == len(shown), (where, shown)
    assert set(places["badges"]) == {str(s) for s in range(seats)}
    assert set(places["clocks"]) == {str(s) for s in range(seats)}


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
def test_seats_and_guilds_stay_apart_under_colour_blindness(open_table: Any, game: str) -> None:
    fake = played(game)
    page = open_table(fake, viewport={"width": 1280, "height": 1000})
    page.wait_for_selector(".clock-chip")
    page.wait_for_selector("#board .sb-grid" if game == "strasbourg" else "#board .house")
    # A clock names its seat as the seat card does (a bot by its kind), beside its shape.
    clocks = page.eval_on_selector_all(
        ".clock-chip .clock-name", "els => els.map((e) => e.textContent)"
    )
    cards = [page.get_attribute(f"#player-{s} .pbadge", "title") for s in range(5)]
    assert clocks == cards and "Seat 2" not in clocks, (clocks, cards)
    seat_colours = page.evaluate(SEAT_COLOURS)
    guilds = page.evaluate(GUILD_MARKS, game)
    assert len(guilds) == (6 if game == "norenberc" else 5)
    # Guild marks are the page's language's, one per guild, and start the guild's name.
    assert len({g["mark"] for g in guilds}) == len(guilds)
    for g in guilds:
        assert not g["mark"].isdigit() and g["name"].lower().startswith(g["mark"][0].lower()), g
    confusable: list[str] = []
    for name, matrix in SIMULATIONS.items():
        page.evaluate(INSTALL_FILTER, [name, matrix])
        page.screenshot(path=str(ARTIFACTS / f"colourblind-{game}-{name}.png"), full_page=True)
        places = page.evaluate(SEAT_MARKS, game)
        check_marks(places, 5)
        marks = {int(s): m[0] for s, m in places["badges"].items()}
        for a in range(5):
            for b in range(a + 1, 5):
                if distance(seat_colours[a], seat_colours[b], matrix) < CONFUSABLE:
                    confusable.append(f"{name}: seats {a} and {b}")
                    assert marks[a] != marks[b]
        for i, ga in enumerate(guilds):
            for gb in guilds[i + 1 :]:
                if distance(ga["colour"], gb["colour"], matrix) < CONFUSABLE:
                    confusable.append(f"{name}: {ga['name']} and {gb['name']}")
                    assert ga["mark"] != gb["mark"]
    # Some pairs do run together under the simulations: the marks are what tells them apart.
    assert confusable, "no pair was confusable: the check above tested nothing"
    print(game, "confusable without marks:", "; ".join(confusable))


def test_guild_marks_read_in_the_pages_language(open_table: Any) -> None:
    fake = played("norenberc")
    marks = {}
    for lang in ("en", "hu", "nl", "de"):
        page = open_table(fake, viewport={"width": 1280, "height": 900}, locale=lang)
        assert page.get_attribute("html", "lang") == lang
        page.wait_for_selector("#board .house .gnum")
        guilds = page.evaluate(GUILD_MARKS, "norenberc")
        for g in guilds:
            assert g["name"].lower().startswith(g["mark"][0].lower()), (lang, g)
        assert len({g["mark"] for g in guilds}) == 6
        # A craftsman tile names its guild by the same mark.
        tile = page.locator("#board .tile.craftsman .tguild").first.text_content()
        assert tile in {g["mark"] for g in guilds}
        marks[lang] = [g["mark"] for g in guilds]
    assert marks["en"] != marks["hu"] and marks["en"] != marks["de"]
