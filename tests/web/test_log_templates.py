"""Every log line the engines can write has a template in every shipped language.

Seeded random games of every game with a page (``tests.support.games``: the games and the
option sets of their manifests' test profiles) collect the events they produce, their
opening's included. For each
event type (and variant) the test checks, against the dictionary exactly as the page of
that game receives it (``pages.page_strings``: the shared one and the game's own folder):

- every language has the template ``<log_prefix><type>[.<variant>]`` (the prefix is the
  game manifest's) or, for an event of the engine's own (sealed planning), the shared
  ``log.<type>``, translated once with the game's order of planning as ``{order}``;
- each placeholder names a param the event always carries, and each ``{name:format}``
  names a formatter the page defines (shared ones in table_log.js, the game's LOG_FORMATS);
- the English template uses every param, so no value the engine reports is dropped.

The browser test at the end renders one event of every kind in Hungarian with the real
page and checks that no line fell back to the engine's English text (screenshots:
artifacts/log-hu-<game>.png).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from server.api import pages
from server.engine import Event, game_names, get_game, opening
from tests.support import games

from .conftest import ARTIFACTS
from .fake_table import FakeTable
from .test_table_client import open_table, pages_server

__all__ = ["open_table", "pages_server"]  # fixtures used by name below

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "web" / "static" / "js"
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")

# Every game with a table page (tests.support.games): its manifest gives the template prefix
# and the option sets to play.
GAMES = games.with_page()
GAMES_PER_SETUP = 3
SHARED_PREFIX = "log."  # the engine's own events, translated once for every game


def _formats_in(source: str, opening: str) -> dict[str, set[str]]:
    """Each formatter of the block opened by ``opening``, with the params it reads besides
    its own value (``params.totals``). Its members are methods (``seat(seat) {``), each
    starting a line two spaces in."""
    block = re.search(re.escape(opening) + r"(.*?)\n\};", source, re.S)
    assert block, f"no {opening!r} block"
    members = re.split(r"^  (?=\w+\()", block[1], flags=re.M)
    heads = [(re.match(r"(\w+)\(", member), member) for member in members]
    return {head[1]: set(re.findall(r"\bparams\.(\w+)", member)) for head, member in heads if head}


def formatters(game: str) -> dict[str, set[str]]:
    """The formatters a template of ``game`` may name: the shared ones in table_log.js and
    those of the game's module that defines LOG_FORMATS."""
    shared = _formats_in((JS / "table_log.js").read_text("utf-8"), "const sharedLogFormats = {")
    own = [
        path.read_text("utf-8")
        for path in games.game_modules(game)
        if "const LOG_FORMATS = {" in path.read_text("utf-8")
    ]
    assert len(own) == 1, f"{game}: one module defines LOG_FORMATS"
    return {**shared, **_formats_in(own[0], "const LOG_FORMATS = {")}


def known_formats(game: str) -> set[str]:
    return set(formatters(game))


def template_key(game: str, ev: Event) -> str:
    """The template the page uses: the game's own (``<log_prefix><type>``), else the shared
    one of the engine's events (``log.<type>``), as table.js looks them up."""
    variant = ev["params"].get("variant")
    rest = ev["type"] + (f".{variant}" if variant else "")
    own = games.manifest(game).log_prefix + rest
    return own if own in pages.page_strings("en", game) else SHARED_PREFIX + rest


def page_params(game: str, lang: str) -> set[str]:
    """Params the page adds to every event: the game's order of planning (``{order}``)."""
    return (
        {"order"}
        if games.manifest(game).log_prefix + "order" in pages.page_strings(lang, game)
        else set()
    )


@cache
def emitted(game: str) -> dict[str, list[Event]]:
    """Every event of seeded random games of ``game``, by template key."""
    definition = get_game(game)
    found: dict[str, list[Event]] = {}
    for options in games.manifest(game).test.option_sets:
        for seats in games.manifest(game).seat_counts():
            for n in range(GAMES_PER_SETUP):
                seed = f"log-{game}-{seats}-{n}-{sorted(options.items())}"
                options_ = {**definition.default_options(), **options}
                state, events = opening(definition, seats, seed, options_)
                for ev in events:  # the opening's, the first of a table's log
                    found.setdefault(template_key(game, ev), []).append(ev)
                rng = random.Random(seed)
                while definition.result(state) is None:
                    seat = min(definition.to_act(state))
                    cmd = rng.choice(definition.legal(state, seat))
                    state, events = definition.apply(state, seat, cmd)
                    for ev in events:
                        found.setdefault(template_key(game, ev), []).append(ev)
    return found


def test_every_shipped_game_is_covered_here() -> None:
    shipped = {p.name for p in (ROOT / "server" / "games").iterdir() if (p / "game.py").exists()}
    assert shipped == set(games.shipped()) and shipped <= set(GAMES)
    assert shipped <= set(game_names())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_params_are_json_and_the_same_names_for_each_kind(game: str) -> None:
    for key, events in emitted(game).items():
        names = {frozenset(ev["params"]) for ev in events}
        assert len(names) == 1, (key, names)
        for ev in events:
            assert json.loads(json.dumps(ev["params"])) == ev["params"], key


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_emitted_event_has_a_template_in_every_language(game: str) -> None:
    formats = known_formats(game)
    for lang in pages.languages():
        strings = pages.page_strings(lang, game)
        for key, events in emitted(game).items():
            assert key in strings, (lang, key)
            params = {*events[0]["params"], *page_params(game, lang)}
            for match in PLACEHOLDER.finditer(strings[key]):
                name, fmt = match[1], match[2]
                assert name in params, (lang, key, name)
                assert fmt is None or fmt in formats, (lang, key, fmt)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_english_template_says_everything_the_event_reports(game: str) -> None:
    english = pages.languages()["en"]
    reads = formatters(game)
    for key, events in emitted(game).items():
        found = PLACEHOLDER.findall(english[key])
        # A param a formatter of another param reads (a ranking's totals) is said as well.
        used = {name for name, _ in found} | {p for _, f in found if f for p in reads[f]}
        for name in set(events[0]["params"]) - {"variant"}:
            assert name in used, (key, name)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_template_belongs_to_an_event_the_engine_writes(game: str) -> None:
    prefix = games.manifest(game).log_prefix
    # The game's own modules, and the engine's sealed planning, which writes the planning
    # events of every game.
    paths = [*games.package_dir(game).glob("*.py"), ROOT / "server/engine/planning.py"]
    source = "".join(path.read_text("utf-8") for path in paths)
    for key in pages.languages()["en"]:
        if key.startswith(prefix) and key[len(prefix) : len(prefix) + 1].isupper():
            event_type = key[len(prefix) :].split(".")[0]
            assert f'"{event_type}"' in source, key


# ---- the real page ------------------------------------------------------------------


def one_of_each(game: str, seat: int) -> list[Event]:
    """One event per template key that ``seat`` may read (public, or private to it)."""
    sample = []
    for events in emitted(game).values():
        readable = [ev for ev in events if ev["to"] is None or seat in ev["to"]]
        if readable:
            sample.append(readable[0])
    return sample


@pytest.fixture
def hungarian_table(open_table: Any) -> Iterator[Any]:
    def opener(game: str) -> tuple[Any, list[Event]]:
        fake = FakeTable(seats=4, seed=f"log-page-{game}", game=game)
        fake.names = ["Ada", "Béla", "Cili", "Dóra"]  # nobody moves while the page is open
        sample = one_of_each(game, 0)
        fake.events = [{**ev, "to": None} for ev in sample]
        page = open_table(fake, locale="hu-HU")
        return page, sample

    yield opener


@pytest.mark.browser
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_hungarian_page_renders_every_log_line_from_its_template(
    hungarian_table: Any, game: str
) -> None:
    page, sample = hungarian_table(game)
    lines = page.eval_on_selector_all(
        "#log li:not(.log-head)", "els => els.map(e => e.textContent)"
    )
    assert len(lines) == len(sample)
    names = ["Ada", "Béla", "Cili", "Dóra"]
    for line, ev in zip(lines, sample, strict=True):
        english = re.sub(r"\{s(\d)\}", lambda m: names[int(m[1])], ev["text"])
        assert line != english, (ev["type"], line)  # the English fallback was used
        assert "{" not in line and "log." not in line, (ev["type"], line)
    assert page.evaluate("document.documentElement.lang") == "hu"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#log").screenshot(path=str(ARTIFACTS / f"log-hu-{game}.png"))
