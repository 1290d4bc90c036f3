"""How to play each game, in every UI language: the data behind ``/rules/{game}``.

``docs/rules/<game>.md`` is where a rule is decided; the pages say the same clauses in a
player's words. ``web/rules/<game>/layout.json`` orders them as a player learns (the goal, a
round, its phases, the actions, scoring, the end) and names the clauses whose numbers are a
reconstruction; ``web/rules/<game>/<lang>.json`` holds one language's text, keyed by clause id,
and ``web/rules/<lang>.json`` the words the pages and the table's rules panel are shown with
(kept out of the page dictionaries, which every table page loads whole).
``tests/web/test_rules_pages.py`` fails when the clause ids of the rules text and of the pages
part ways, so a clause added to the rules must be written here in every language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from server.engine import get_game
from server.resources import ROOT

RULES_DIR = ROOT / "web" / "rules"
DEFAULT_LANG = "en"
PLACEHOLDER = re.compile(r"\{\w+\}")


@dataclass(frozen=True)
class Clause:
    id: str
    text: str
    reconstructed: bool


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class HowToPlay:
    """One game's how-to-play page in one language."""

    game: str
    lang: str
    about: tuple[str, ...]
    length: str
    goal: str
    sections: tuple[Section, ...]

    def as_json(self) -> dict[str, Any]:
        """What ``GET /api/rules/{game}`` answers (docs/api.md)."""
        return {
            "game": self.game,
            "title": get_game(self.game).title,
            "lang": self.lang,
            "words": words(self.lang),
            "about": list(self.about),
            "length": self.length,
            "goal": self.goal,
            "sections": [
                {
                    "key": s.key,
                    "title": s.title,
                    "clauses": [
                        {"id": c.id, "text": c.text, "reconstructed": c.reconstructed}
                        for c in s.clauses
                    ],
                }
                for s in self.sections
            ],
        }


def rules_games() -> list[str]:
    """The games that have how-to-play pages."""
    return sorted(p.name for p in RULES_DIR.iterdir() if (p / "layout.json").is_file())


def _read(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: must be a JSON object")
    return data


@lru_cache(maxsize=8)
def words(lang: str) -> dict[str, str]:
    """The rules pages' and panel's own words in ``lang`` (``title`` has ``{game}``,
    ``players`` ``{min}`` and ``{max}``). Raises KeyError for a language without them and
    ValueError when it lacks a word of English's or changes its placeholders."""
    path = RULES_DIR / f"{lang}.json"
    if not path.is_file():
        raise KeyError(lang)
    found, english = _read(path), _read(RULES_DIR / f"{DEFAULT_LANG}.json")
    odd = sorted(
        key
        for key in set(found) | set(english)
        if key not in found
        or key not in english
        or sorted(PLACEHOLDER.findall(found[key])) != sorted(PLACEHOLDER.findall(english[key]))
    )
    if odd:
        raise ValueError(f"{path}: words missing, extra or with other placeholders: {odd}")
    return {key: str(text) for key, text in found.items()}


@lru_cache(maxsize=32)
def how_to_play(game: str, lang: str) -> HowToPlay:
    """``game``'s page in ``lang``. Raises KeyError for a game or language without one, and
    ValueError naming the file when a language's clauses or sections differ from the layout's
    (a page that silently dropped a clause would teach a game the server does not play)."""
    folder = RULES_DIR / game
    if game not in rules_games() or not (folder / f"{lang}.json").is_file():
        raise KeyError((game, lang))
    layout, text = _read(folder / "layout.json"), _read(folder / f"{lang}.json")
    ordered = [c for s in layout["sections"] for c in s["clauses"]]
    if sorted(ordered) != sorted(text["clauses"]) or len(set(ordered)) != len(ordered):
        odd = sorted(set(ordered) ^ set(text["clauses"]))
        raise ValueError(f"{folder / lang}.json: clauses differ from layout.json: {odd}")
    if {s["key"] for s in layout["sections"]} != set(text["sections"]):
        raise ValueError(f"{folder / lang}.json: sections differ from layout.json")
    reconstructed = set(layout["reconstructed"])
    sections = tuple(
        Section(
            s["key"],
            text["sections"][s["key"]],
            tuple(Clause(c, text["clauses"][c], c in reconstructed) for c in s["clauses"]),
        )
        for s in layout["sections"]
    )
    about = tuple(text["about"])
    return HowToPlay(game, lang, about, text["length"], text["goal"], sections)


@dataclass(frozen=True)
class CityCell:
    guild: str | None  # None: a building space
    letter: str
    price: int | None
    chapel: bool  # a chapel site at its lower right corner


def strasbourg_city(strings: dict[str, str]) -> list[list[CityCell]]:
    """The Strasbourg city as the table draws it (the same classes of strasbourg.css), for
    its rules page: rows of cells with the guild letters of ``strings`` (the page's
    dictionary), the prices and the chapel sites, read from the game's own board."""
    game = get_game("strasbourg")
    board = game.view(game.new(3, "rules page", {}), None)["board"]
    by_letter = {info["letter"]: key for key, info in board["guilds"].items()}
    sites = {tuple(site) for site in board["chapel_sites"]}
    return [
        [
            CityCell(
                by_letter.get(letter),
                strings.get(f"sb.guild_letter.{by_letter.get(letter)}", ""),
                board["prices"][r][c],
                (r, c) in sites,
            )
            for c, letter in enumerate(row)
        ]
        for r, row in enumerate(board["grid"])
    ]


def norenberc_house() -> dict[str, Any]:
    """A Norenberc guild house at the start of a game as the spectator's view holds it (the
    brewers' of a fixed deal whose guest room shows craftsmen, an empty window and a
    citizen), for the rules page to draw with the table's own classes."""
    game = get_game("norenberc")
    house: dict[str, Any] = game.view(game.new(3, "rules page", {}), None)["guilds"][0]
    return house


# The boards a rules page draws with the table's own classes, each from a fresh game's view.
# They are the one part of the rules pages that knows particular games; the page itself
# asks ``rules_pictures`` and names none.
_PICTURES: dict[str, Callable[[dict[str, str]], dict[str, Any]]] = {
    "strasbourg": lambda strings: {"city": strasbourg_city(strings)},
    "norenberc": lambda strings: {"house": norenberc_house()},
}


def rules_pictures(game: str, strings: dict[str, str]) -> dict[str, Any]:
    """``{"city": …, "house": …}``: the board pictures of ``game``'s rules page (None where
    it has none), with the labels of ``strings`` (the page's dictionary)."""
    found: dict[str, Any] = {"city": None, "house": None}
    if game in _PICTURES:
        found.update(_PICTURES[game](strings))
    return found


@lru_cache(maxsize=32)
def pieces(game: str, lang: str) -> dict[str, dict[str, str]]:
    """What each component of ``game``'s board is and does, in ``lang``: ``{kind: {name,
    text, clause}}``, what the table shows when a piece is hovered, focused or long-pressed
    (``web/static/js/explain.js``). ``web/rules/<game>/pieces/clauses.json`` names each kind's
    clause once, ``<lang>.json`` its words; they are served apart from the page's dictionary,
    which every table page loads whole, and asked for at the first explanation only.
    Raises KeyError for a game or language without them and ValueError naming the file when
    a language's kinds differ from the clauses'."""
    folder = RULES_DIR / game / "pieces"
    if game not in rules_games() or not (folder / f"{lang}.json").is_file():
        raise KeyError((game, lang))
    clauses, text = _read(folder / "clauses.json"), _read(folder / f"{lang}.json")
    if set(clauses) != set(text):
        odd = sorted(set(clauses) ^ set(text))
        raise ValueError(f"{folder / lang}.json: kinds differ from clauses.json: {odd}")
    return {
        kind: {
            "name": str(text[kind]["name"]),
            "text": str(text[kind]["text"]),
            "clause": str(clause),
        }
        for kind, clause in clauses.items()
    }
