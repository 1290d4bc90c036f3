"""The component data file: loaded from seeds/, validated, clear errors when malformed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.engine.data import DataError
from server.games.norenberc.data import DATA_PATH, components, load


def _write(tmp_path: Path, doc: object) -> Path:
    path = tmp_path / "norenberc.json"
    path.write_text(json.dumps(doc))
    return path


def _doc() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_PATH.read_text())
    return data


def test_the_shipped_file_has_eleven_craftsmen_per_guild_and_26_citizens() -> None:
    comps = components()
    assert all(len(comps.craftsmen[g]) == 11 for g in range(1, 7))
    assert len(comps.citizens) == 26
    values = sorted(comps.tiles[t]["value"] for t in comps.craftsmen[1])
    assert min(values) >= 2 and max(values) <= 7
    kinds = {comps.tiles[t]["citizen"] for t in comps.citizens}
    assert len(kinds) == 11


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="v0"), "format"),
        (lambda d: d["guilds"].pop(), "exactly 6 guilds"),
        (lambda d: d["guilds"][2]["craftsmen"].pop(), "guilds[2]: craftsmen must list exactly 11"),
        (lambda d: d["guilds"][0]["craftsmen"][3].update(value=9), "guilds[0].craftsmen[3]"),
        (lambda d: d["guilds"][0]["craftsmen"][3].update(agent="yes"), "agent must be"),
        (lambda d: d["citizens"][0].update(citizen="jester"), "unknown citizen 'jester'"),
        (lambda d: d["citizens"][0].update(symbol="sun"), "citizens[0]: councillor must have"),
        (lambda d: d["citizens"][8].update(value=None), "musician needs an integer value"),
        (lambda d: d["citizens"].pop(), "exactly 26 citizens"),
        (lambda d: d["guilds"][1].update(good="beer"), "goods must be distinct"),
    ],
)
def test_a_malformed_file_is_rejected_naming_the_entry(
    tmp_path: Path, change: object, message: str
) -> None:
    doc = _doc()
    change(doc)  # type: ignore[operator]
    with pytest.raises(DataError) as err:
        load(_write(tmp_path, doc))
    assert message in str(err.value) and str(tmp_path) in str(err.value)


def test_unreadable_or_broken_json_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        load(tmp_path / "missing.json")
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(DataError, match="not valid JSON"):
        load(path)
