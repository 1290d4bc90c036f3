"""Strasbourg's components, read from ``seeds/strasbourg.json`` and validated.

The printed board, round cards, edifices and task cards are pictures that no public
copy gives, so the data file is a reconstruction an owner of the game can correct.
``parse`` checks it thoroughly (grid 9×6, exactly 7 building spaces, prices, chapel
sites, round cards, edifices, 25 tasks) and raises ``DataError`` naming the bad entry.

Cells are ``(row, col)`` with row 0 at the top; the grid is 6 rows of 9 columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from server.engine.data import DataError, data_path, parse_json

DATA_PATH = data_path("strasbourg")
DATA_NOTE = (
    "The Strasbourg board, round cards, edifices and task cards are a reconstruction "
    "(the printed ones are pictures no public copy gives); they are kept in "
    "seeds/strasbourg.json, which an owner of the printed game can correct."
)
ROWS, COLS = 6, 9
BUILDING_SPACES = 7
ROUNDS = 5
TASK_COUNT = 25
GUILD_KEYS = ("smiths", "vintners", "shoemakers", "butchers", "bakers")
TASK_KINDS = {
    "edifice_neighbours": "edifice",
    "guild_members": "guild",
    "edifice_cluster": None,
    "orthogonal_line": None,
    "council": None,
    "edifice_variety": None,
    "diagonal_line": None,
    "city_majority": None,
    "all_guilds": None,
}

Cell = tuple[int, int]


@dataclass(frozen=True)
class Guild:
    key: str
    name: str
    letter: str
    price: int
    good: str
    good_value: int


@dataclass(frozen=True)
class Edifice:
    key: str
    name: str
    value: int


@dataclass(frozen=True)
class Task:
    id: int
    kind: str
    param: str | None
    value: int
    text: str


@dataclass(frozen=True)
class Components:
    """Everything the rules need from the data file, plus derived board facts."""

    grid: tuple[str, ...]
    guilds: dict[str, Guild]
    guild_of_cell: dict[Cell, str]
    building_spaces: tuple[Cell, ...]
    prices: dict[Cell, int]
    chapel_sites: tuple[Cell, ...]
    round_cards: tuple[tuple[str, str, str], ...]
    edifices: tuple[Edifice, ...]
    council_task_need: dict[int, int]
    tasks: tuple[Task, ...]

    def edifice_index(self, key: str) -> int:
        """Index of the edifice called ``key`` in ``edifices``."""
        return [e.key for e in self.edifices].index(key)


def neighbours(cell: Cell) -> list[Cell]:
    """Orthogonal neighbours of ``cell`` that lie on the board."""
    r, c = cell
    around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [(y, x) for y, x in around if 0 <= y < ROWS and 0 <= x < COLS]


def chapel_cells(site: Cell) -> list[Cell]:
    """The 4 cells around a chapel site (the corner below-right of cell ``site``)."""
    r, c = site
    return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise DataError(f"seeds/strasbourg.json: {message}")


def _field(entry: Any, key: str, kind: type, where: str) -> Any:
    _need(isinstance(entry, dict) and key in entry, f"{where} lacks {key!r}")
    value = entry[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    _need(ok, f"{where}.{key} must be {kind.__name__}, got {value!r}")
    return value


def _parse_guilds(raw: Any) -> dict[str, Guild]:
    _need(isinstance(raw, list) and len(raw) == 5, "guilds must list the 5 guilds")
    guilds = {}
    for i, g in enumerate(raw):
        where = f"guilds[{i}]"
        guild = Guild(
            key=_field(g, "key", str, where),
            name=_field(g, "name", str, where),
            letter=_field(g, "letter", str, where),
            price=_field(g, "price", int, where),
            good=_field(g, "good", str, where),
            good_value=_field(g, "good_value", int, where),
        )
        _need(guild.price > 0 and guild.good_value > 0, f"{where}: price/good_value must be > 0")
        _need(len(guild.letter) == 1 and guild.letter != "E", f"{where}: bad letter")
        guilds[guild.key] = guild
    _need(tuple(guilds) == GUILD_KEYS, f"guild keys must be {list(GUILD_KEYS)}")
    _need(len({g.letter for g in guilds.values()}) == 5, "guild letters must differ")
    return guilds


def _parse_grid(raw: Any, guilds: dict[str, Guild]) -> tuple[dict[Cell, str], list[Cell]]:
    _need(isinstance(raw, list) and len(raw) == ROWS, f"grid must have {ROWS} rows")
    by_letter = {g.letter: g.key for g in guilds.values()}
    cells: dict[Cell, str] = {}
    building: list[Cell] = []
    for r, row in enumerate(raw):
        _need(isinstance(row, str) and len(row) == COLS, f"grid row {r} must be {COLS} letters")
        for c, letter in enumerate(row):
            if letter == "E":
                building.append((r, c))
            else:
                _need(letter in by_letter, f"grid cell ({r},{c}) has unknown letter {letter!r}")
                cells[(r, c)] = by_letter[letter]
    _need(
        len(building) == BUILDING_SPACES,
        f"grid needs exactly 7 building spaces E, has {len(building)}",
    )
    return cells, building


def _prices(
    guild_of: dict[Cell, str], building: list[Cell], guilds: dict[str, Guild], surcharge: int
) -> dict[Cell, int]:
    # A guild space next to a building space costs more (the rulebook's Vintners cost 3 or 4).
    return {
        cell: guilds[key].price + (surcharge if any(n in building for n in neighbours(cell)) else 0)
        for cell, key in guild_of.items()
    }


def _parse_sites(raw: Any) -> tuple[Cell, ...]:
    _need(isinstance(raw, list) and len(raw) >= ROUNDS, "chapel_sites must list at least 5 sites")
    sites = []
    for i, site in enumerate(raw):
        ok = isinstance(site, list) and len(site) == 2 and all(type(v) is int for v in site)
        _need(ok, f"chapel_sites[{i}] must be [row, col]")
        r, c = site
        _need(0 <= r < ROWS - 1 and 0 <= c < COLS - 1, f"chapel_sites[{i}] {site} is off the board")
        sites.append((r, c))
    _need(len(set(sites)) == len(sites), "chapel_sites must differ")
    return tuple(sites)


def _parse_round_cards(raw: Any) -> tuple[tuple[str, str, str], ...]:
    _need(isinstance(raw, list) and len(raw) == ROUNDS, "round_cards must list 5 cards")
    cards = []
    for i, card in enumerate(raw):
        names = _field(card, "guilds", list, f"round_cards[{i}]")
        ok = len(names) == 3 and all(n in GUILD_KEYS for n in names) and len(set(names)) == 3
        _need(ok, f"round_cards[{i}].guilds must be 3 different guilds, got {names!r}")
        cards.append((names[0], names[1], names[2]))
    return tuple(cards)


def _parse_edifices(raw: Any) -> tuple[Edifice, ...]:
    _need(isinstance(raw, list) and len(raw) == ROUNDS, "edifices must list 5 edifices")
    out = []
    for i, e in enumerate(raw):
        where = f"edifices[{i}]"
        edifice = Edifice(
            _field(e, "key", str, where),
            _field(e, "name", str, where),
            _field(e, "value", int, where),
        )
        _need(edifice.value > 0, f"{where}.value must be > 0")
        out.append(edifice)
    _need(len({e.key for e in out}) == ROUNDS, "edifice keys must differ")
    return tuple(out)


def _allowed_params(names: str | None, edifice_keys: set[str]) -> set[str | None]:
    """What a task's ``param`` may be: an edifice key, a guild key, or nothing."""
    if names == "edifice":
        return set(edifice_keys)
    if names == "guild":
        return set(GUILD_KEYS)
    return {None}


def _parse_tasks(raw: Any, edifice_keys: set[str]) -> tuple[Task, ...]:
    _need(isinstance(raw, list) and len(raw) == TASK_COUNT, f"tasks must list {TASK_COUNT} cards")
    tasks = []
    for i, t in enumerate(raw):
        where = f"tasks[{i}]"
        _need(_field(t, "id", int, where) == i, f"{where}.id must be {i}")
        kind = _field(t, "kind", str, where)
        _need(kind in TASK_KINDS, f"{where}.kind {kind!r} is not one of {sorted(TASK_KINDS)}")
        param = t.get("param")
        allowed = _allowed_params(TASK_KINDS[kind], edifice_keys)
        _need(
            param in allowed, f"{where}.param {param!r} must be one of {sorted(allowed, key=str)}"
        )
        value = _field(t, "value", int, where)
        _need(value > 0, f"{where}.value must be > 0")
        tasks.append(Task(i, kind, param, value, _field(t, "text", str, where)))
    return tuple(tasks)


def _parse_council_need(raw: Any) -> dict[int, int]:
    ok = isinstance(raw, dict) and set(raw) == {"3", "4", "5"}
    _need(ok, "council_majority_for_task must map '3', '4', '5' to member counts")
    _need(all(type(v) is int and 0 < v <= 8 for v in raw.values()), "council counts must be 1..8")
    return {int(k): v for k, v in raw.items()}


def parse(raw: Any) -> Components:
    """Validate decoded JSON and build the components. Raises DataError when malformed."""
    _need(isinstance(raw, dict), "top level must be an object")
    guilds = _parse_guilds(raw.get("guilds"))
    guild_of, building = _parse_grid(raw.get("grid"), guilds)
    surcharge = raw.get("adjacent_building_surcharge", 0)
    _need(type(surcharge) is int and surcharge >= 0, "adjacent_building_surcharge must be int >= 0")
    edifices = _parse_edifices(raw.get("edifices"))
    return Components(
        grid=tuple(raw["grid"]),
        guilds=guilds,
        guild_of_cell=guild_of,
        building_spaces=tuple(building),
        prices=_prices(guild_of, building, guilds, surcharge),
        chapel_sites=_parse_sites(raw.get("chapel_sites")),
        round_cards=_parse_round_cards(raw.get("round_cards")),
        edifices=edifices,
        council_task_need=_parse_council_need(raw.get("council_majority_for_task")),
        tasks=_parse_tasks(raw.get("tasks"), {e.key for e in edifices}),
    )


def parse_text(text: str) -> Components:
    """Parse the file's text; bad JSON is a DataError too."""
    return parse(parse_json(text, "seeds/strasbourg.json"))


@cache
def components() -> Components:
    """The validated components, read once from ``seeds/strasbourg.json``."""
    return parse_text(DATA_PATH.read_text(encoding="utf-8"))
