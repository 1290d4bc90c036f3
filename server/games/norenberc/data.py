"""Component data (guilds, craftsmen, citizens) loaded and validated from ``seeds/norenberc.json``.

The rules code holds no tile tables: every craftsman value and the citizen mix come from
the data file, which is a reconstruction an owner of the printed game may correct.
Tiles are referred to by id everywhere in the state: ``c<guild>-<nn>`` for craftsmen,
``t<nn>`` for citizens (``t01``-``t26`` the base game, ``t27``-``t34`` the optional
"Bonus Townsmen" promo tiles, which only join a game with the ``promo`` option).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from server.engine.data import DataError, data_path, read_json

DATA_PATH = data_path("norenberc")
FORMAT = "norenberc-components/1"

GUILD_COUNT = 6
CRAFTSMEN_PER_GUILD = 11
CITIZEN_COUNT = 26
PROMO_COUNT = 8
VALUE_RANGE = range(2, 8)

# The symbol of each citizen type is a rule (when its power fires), so the data file must agree.
CITIZEN_SYMBOLS = {
    "councillor": "star",
    "thief": "star",
    "bailiff": "star",
    "musician": "moon",
    "peddler": "moon",
    "chief_judge": "moon",
    "nobleman": "sun",
    "tax_collector": "sun",
    "engraver": "sun",
    "apprentice": "sun",
    "foreman": "sun",
}
# The "Bonus Townsmen" promo tiles. Merchant and haggler act while owned (kept like a moon
# citizen); the jack of all trades scores at game end (sun).
PROMO_SYMBOLS = {
    "banker": "moon",
    "jack_of_all_trades": "sun",
    "historian": "star",
    "merchant": "moon",
    "haggler": "moon",
    "duchess": "star",
}
# Types whose printed number matters (musician talers, nobleman VP, foreman value,
# jack of all trades craftsman value).
VALUED_CITIZENS = {"musician", "nobleman", "foreman", "jack_of_all_trades"}


@dataclass(frozen=True)
class Components:
    """Everything the rules need from the data file.

    ``tiles`` maps a tile id to its public description (the dict a view shows);
    ``craftsmen[g]`` lists guild ``g``'s craftsman ids; ``citizens`` lists citizen ids;
    ``promo`` lists the ids of the promo tiles (citizens too, used only with the option).
    """

    names: dict[int, str]
    goods: dict[int, str]
    tiles: dict[str, dict[str, Any]]
    craftsmen: dict[int, list[str]]
    citizens: list[str]
    note: str
    promo: list[str]

    def good_of(self, guild: int) -> str:
        """The name of the good guild ``guild`` makes (1 → ``"beer"``)."""
        return self.goods[guild]

    def guild_of_good(self, good: str) -> int:
        """The guild making ``good``; KeyError for an unknown good."""
        return self._good_index()[good]

    def _good_index(self) -> dict[str, int]:
        return {name: guild for guild, name in self.goods.items()}


def _fail(path: Path, where: str, problem: str) -> DataError:
    return DataError(f"{path}: {where}: {problem}")


def _require(cond: bool, path: Path, where: str, problem: str) -> None:
    if not cond:
        raise _fail(path, where, problem)


def _parse_craftsman(raw: Any, path: Path, where: str) -> tuple[int, bool]:
    _require(isinstance(raw, dict), path, where, "expected an object")
    value, agent = raw.get("value"), raw.get("agent")
    _require(
        isinstance(value, int) and not isinstance(value, bool) and value in VALUE_RANGE,
        path,
        where,
        f"value must be an integer 2-7, got {value!r}",
    )
    _require(isinstance(agent, bool), path, where, f"agent must be true/false, got {agent!r}")
    _require(set(raw) == {"value", "agent"}, path, where, f"unexpected keys {sorted(raw)}")
    return value, agent


def _parse_guild(raw: Any, index: int, path: Path) -> dict[str, Any]:
    where = f"guilds[{index}]"
    _require(isinstance(raw, dict), path, where, "expected an object")
    _require(raw.get("number") == index + 1, path, where, f"number must be {index + 1}")
    for key in ("name", "good"):
        _require(isinstance(raw.get(key), str) and raw[key], path, where, f"{key} missing")
    crafts = raw.get("craftsmen")
    _require(
        isinstance(crafts, list) and len(crafts) == CRAFTSMEN_PER_GUILD,
        path,
        where,
        f"craftsmen must list exactly {CRAFTSMEN_PER_GUILD} tiles",
    )
    parsed = [_parse_craftsman(c, path, f"{where}.craftsmen[{i}]") for i, c in enumerate(crafts)]
    return {"name": raw["name"], "good": raw["good"], "craftsmen": parsed}


def _parse_citizen(
    raw: Any,
    index: int,
    path: Path,
    section: str = "citizens",
    symbols: dict[str, str] = CITIZEN_SYMBOLS,
) -> dict[str, Any]:
    where = f"{section}[{index}]"
    _require(isinstance(raw, dict), path, where, "expected an object")
    kind, symbol, value = raw.get("citizen"), raw.get("symbol"), raw.get("value")
    _require(kind in symbols, path, where, f"unknown citizen {kind!r}")
    _require(
        symbol == symbols[kind],
        path,
        where,
        f"{kind} must have symbol {symbols[kind]}",
    )
    if kind in VALUED_CITIZENS:
        ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10
        _require(ok, path, where, f"{kind} needs an integer value 1-10, got {value!r}")
    else:
        _require(value is None, path, where, f"{kind} takes value null, got {value!r}")
    return {"kind": "citizen", "citizen": kind, "symbol": symbol, "value": value}


def parse(doc: Any, path: Path = DATA_PATH) -> Components:
    """Validate a decoded data document and build the Components; raises DataError."""
    _require(isinstance(doc, dict), path, "top level", "expected an object")
    _require(doc.get("format") == FORMAT, path, "format", f"must be {FORMAT!r}")
    guilds, citizens = doc.get("guilds"), doc.get("citizens")
    _require(
        isinstance(guilds, list) and len(guilds) == GUILD_COUNT,
        path,
        "guilds",
        f"must list exactly {GUILD_COUNT} guilds",
    )
    _require(
        isinstance(citizens, list) and len(citizens) == CITIZEN_COUNT,
        path,
        "citizens",
        f"must list exactly {CITIZEN_COUNT} citizens",
    )
    parsed_guilds = [_parse_guild(g, i, path) for i, g in enumerate(guilds)]
    goods = [g["good"] for g in parsed_guilds]
    _require(len(set(goods)) == GUILD_COUNT, path, "guilds", "goods must be distinct")
    promo = doc.get("promo")
    _require(
        isinstance(promo, list) and len(promo) == PROMO_COUNT,
        path,
        "promo",
        f"must list exactly {PROMO_COUNT} promo tiles",
    )
    promo_tiles = [_parse_citizen(c, i, path, "promo", PROMO_SYMBOLS) for i, c in enumerate(promo)]
    _require(
        {t["citizen"] for t in promo_tiles} == set(PROMO_SYMBOLS),
        path,
        "promo",
        f"must hold every promo type ({', '.join(PROMO_SYMBOLS)})",
    )
    base = [_parse_citizen(c, i, path) for i, c in enumerate(citizens)]
    return _build(parsed_guilds, base, promo_tiles, doc)


def _build(
    guilds: list[dict[str, Any]],
    citizens: list[dict[str, Any]],
    promo: list[dict[str, Any]],
    doc: Any,
) -> Components:
    tiles: dict[str, dict[str, Any]] = {}
    craftsmen: dict[int, list[str]] = {}
    for number, guild in enumerate(guilds, start=1):
        ids = []
        for i, (value, agent) in enumerate(guild["craftsmen"], start=1):
            tile_id = f"c{number}-{i:02d}"
            tiles[tile_id] = {"kind": "craftsman", "guild": number, "value": value, "agent": agent}
            ids.append(tile_id)
        craftsmen[number] = ids
    citizen_ids = []
    for i, citizen in enumerate(citizens, start=1):
        tile_id = f"t{i:02d}"
        tiles[tile_id] = citizen
        citizen_ids.append(tile_id)
    promo_ids = []
    for i, citizen in enumerate(promo, start=len(citizens) + 1):
        tile_id = f"t{i:02d}"
        tiles[tile_id] = citizen
        promo_ids.append(tile_id)
    return Components(
        names={n: g["name"] for n, g in enumerate(guilds, start=1)},
        goods={n: g["good"] for n, g in enumerate(guilds, start=1)},
        tiles=tiles,
        craftsmen=craftsmen,
        citizens=citizen_ids,
        note=str(doc.get("note", "")),
        promo=promo_ids,
    )


def load(path: Path = DATA_PATH) -> Components:
    """Read and validate a data file; raises DataError (also for unreadable or non-JSON files)."""
    return parse(read_json(path), path)


@cache
def components() -> Components:
    """The game's components, loaded once from ``seeds/norenberc.json``."""
    return load(DATA_PATH)
