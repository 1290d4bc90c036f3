"""The Strasbourg log events carry params the browser renders from per-language templates
(``sb.log.<type>[.<variant>]`` in web/i18n/strasbourg/*.json, formatters in
web/static/js/games/strasbourg/strasbourg_data.js; the engine's own planning events from the shared
``log.<type>`` with ``sb.log.order`` as ``{order}``). Seeded random games check every event they
produce."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.engine import Event, opening

from .helpers import GAME

ROOT = Path(__file__).resolve().parents[3]
OWN = {
    lang: json.loads((ROOT / "web" / "i18n" / "strasbourg" / f"{lang}.json").read_text("utf-8"))
    for lang in ("en", "hu")
}
# What the page has: the shared dictionary and the game's own.
DICTS = {
    lang: {
        **json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text("utf-8")),
        **OWN[lang],
    }
    for lang in OWN
}
# The page's own param of every event: the game's order of planning.
ORDER = "sb.log.order"
JS = (ROOT / "web" / "static" / "js" / "games" / "strasbourg" / "strasbourg_data.js").read_text(
    "utf-8"
)
_LOG_FORMATS_LITERAL = re.search(r"const LOG_FORMATS = \{(.*?)\n\};", JS, re.S)
assert _LOG_FORMATS_LITERAL is not None, "strasbourg_data.js defines const LOG_FORMATS = { ... };"
# Its members are methods (``guild(value, params) {``), one a line, two spaces in.
LOG_FORMATS = set(re.findall(r"^  (\w+)\(", _LOG_FORMATS_LITERAL[1], re.M))
SHARED_FORMATS = {"seat", "seats", "list"}
WORD_JOINER = "\u2060"
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
# Values only the seat that may read the event knows: never in a public event.
PRIVATE_PARAMS = {"drawn", "held", "stack"}
PRIVATE_TYPES = {"CardDrawn", "DrawingStopped", "StackFormed"}
# Params a template may leave out because a formatter of another param reads them.
READ_BY_FORMATTER = {("StepRanked", "totals"), ("ChapelBuilt", "c")}


def _brackets(values: list[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _english(value: Any, fmt: str, params: dict[str, Any]) -> str:
    """What the browser's formatter writes with the English dictionary, seats as {sN}."""
    en = DICTS["en"]
    out: dict[str, Callable[[], object]] = {
        "seat": lambda: f"{{s{value}}}",
        "guild": lambda: en[f"sb.guild.{value}"],
        "good": lambda: en[f"sb.good.{value}"],
        "council_seat": lambda: en[f"sb.council_of.{value}"],
        "edifice": lambda: en[f"sb.edifice.{value}"],
        "step": lambda: "ABCDEFGHI"[value],
        "brackets": lambda: _brackets(value),
        "ranking": lambda: ", ".join(
            f"{{s{s}}} {total}" for s, total in zip(value, params["totals"], strict=True)
        ),
        "stack_sizes": lambda: "; ".join(f"{{s{s}}} {_brackets(v)}" for s, v in enumerate(value)),
        "coins": lambda: _counted("sb.coins_n", value),
        "cards": lambda: _counted("sb.cards_n", value),
        "stacks": lambda: _counted("sb.stacks_n", value),
        "unrevealed": lambda: _counted("sb.unrevealed_n", value),
        "stack_cards": lambda: ", ".join(_counted("sb.cards_n", n) for n in value),
        # A corner in the log is named without the guilds (the log has no board at hand).
        "corner": lambda: en["sb.corner"].format(
            r1=value, r2=value + 1, c1=params["c"], c2=params["c"] + 1
        ),
    }
    return str(out[fmt]())


def _counted(key: str, n: int) -> str:
    """A count in words, as i18n.js's t() writes it: the ``.one`` form for exactly 1."""
    en = DICTS["en"]
    template: str = (en[f"{key}.one"] if n == 1 and f"{key}.one" in en else en[key]).replace(
        "{n}", str(n)
    )
    return template


def _key(ev: Event) -> str:
    """The game's own template, else the shared one of the engine's events (as table.js)."""
    variant = ev["params"].get("variant")
    rest = ev["type"] + (f".{variant}" if variant else "")
    return f"sb.log.{rest}" if f"sb.log.{rest}" in OWN["en"] else f"log.{rest}"


def _render_english(ev: Event) -> str:
    params = {"order": DICTS["en"][ORDER], **ev["params"]}

    def fill(m: re.Match[str]) -> str:
        name, fmt = m[1], m[2]
        return str(params[name]) if fmt is None else _english(params[name], fmt, params)

    # The word joiners that keep a range on one line are the page's, not the engine's text.
    return PLACEHOLDER.sub(fill, DICTS["en"][_key(ev)]).replace(WORD_JOINER, "")


def _random_game(seats: int, seed: int, planning: str) -> list[Event]:
    """Every event of one game played with uniformly random legal commands, its opening's
    first."""
    rng = random.Random(seed)
    state, events = opening(GAME, seats, f"log-{seed}", {"planning": planning})
    while GAME.result(state) is None:
        acting = sorted(GAME.to_act(state))
        extra = [s for s in range(seats) if s not in acting and GAME.legal(state, s)]
        seat = rng.choice(extra) if extra and rng.random() < 0.1 else rng.choice(acting)
        state, new = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
        events += new
    return events


GAMES = [
    (seats, seed, "ordered" if seed % 2 else "simultaneous")
    for seats in (3, 4, 5)
    for seed in range(4)
]


@pytest.fixture(scope="module")
def all_events() -> list[Event]:
    return [ev for seats, seed, planning in GAMES for ev in _random_game(seats, seed, planning)]


def test_params_are_json_and_consistent_per_type_and_variant(
    all_events: list[Event],
) -> None:
    names: dict[str, set[str]] = {}
    for ev in all_events:
        assert isinstance(ev["params"], dict)
        assert json.loads(json.dumps(ev["params"])) == ev["params"]
        shape = set(ev["params"])
        assert names.setdefault(_key(ev), shape) == shape, (ev, names[_key(ev)])
    # Together the games reach every type and variant that has a template.
    own = {k for k in names if k.startswith("sb.log.")}
    assert own == {k for k in OWN["en"] if k.startswith("sb.log.") and k != ORDER}


def test_public_events_carry_no_private_values(all_events: list[Event]) -> None:
    for ev in all_events:
        if ev["type"] in PRIVATE_TYPES:
            assert ev["to"] is not None and len(ev["to"]) == 1, ev
        else:
            assert ev["to"] is None, ev
            assert not PRIVATE_PARAMS & set(ev["params"]), ev


def test_params_hold_only_what_the_text_says(all_events: list[Event]) -> None:
    """Each param is shown by the English template (directly or through a formatter)."""
    for ev in all_events:
        used = {m[1] for m in PLACEHOLDER.finditer(DICTS["en"][_key(ev)])} - {"order"}
        for name in set(ev["params"]) - {"variant"} - used:
            assert (ev["type"], name) in READ_BY_FORMATTER, (ev, name)


def test_english_templates_render_the_engine_text(all_events: list[Event]) -> None:
    seen = set()
    for ev in all_events:
        assert _render_english(ev) == ev["text"], ev
        seen.add(_key(ev))
    assert len(seen) >= 25


def test_templates_exist_in_every_language_with_known_formats() -> None:
    assert DICTS["en"].keys() == DICTS["hu"].keys()
    assert {"guild", "good", "step", "brackets", "ranking", "stack_sizes"} <= LOG_FORMATS
    # 33 of the game's own events and the words for its order of planning.
    templates = [k for k in OWN["en"] if k.startswith("sb.log.")]
    assert len(templates) == 34
    for lang, strings in DICTS.items():
        for key in templates:
            en_names = {m[1] for m in PLACEHOLDER.finditer(DICTS["en"][key])}
            for m in PLACEHOLDER.finditer(strings[key]):
                assert m[2] is None or m[2] in LOG_FORMATS | SHARED_FORMATS, (lang, key)
                assert m[1] in en_names, (lang, key)


def test_council_seat_returning_a_member_names_both_seats() -> None:
    from server.games.strasbourg.choices import place_on_council

    state = GAME.new(3, "log-council", {})
    state["council"]["bakers"] = 2
    ev = place_on_council(state, 0, "bakers")
    assert ev["params"] == {"variant": "back", "seat": 0, "council": "bakers", "returned": 2}
    assert ev["text"] == "{s0} took the Bakers' seat (returning {s2}'s member)"
    assert _render_english(ev) == ev["text"]
    again = place_on_council(state, 0, "bakers")
    assert again["params"] == {"seat": 0, "council": "bakers"}
