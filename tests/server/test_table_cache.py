"""The tables a process holds: the count of those being played follows every change."""

from __future__ import annotations

from dataclasses import replace

from server.settings import Settings
from server.tables.cache import HISTORY, TableCache
from server.tables.data import TableData


def table(table_id: str, status: str, version: int = 1) -> TableData:
    return TableData(
        id=table_id,
        game="toy",
        title="Toy",
        options={},
        seed="s",
        seed_sha256="0" * 64,
        status=status,
        version=version,
        seats=(),
    )


def test_the_playing_count_follows_starts_ends_and_forgotten_tables() -> None:
    cache = TableCache(Settings(secret_key="k"), sessions=None)  # type: ignore[arg-type]
    cache.remember(table("a", "open"))
    cache.remember(table("b", "playing", 2))
    assert cache.playing() == 1
    cache.remember(table("a", "playing", 2))
    cache.remember(table("a", "playing", 3))  # a command: still one table
    assert cache.playing() == 2
    cache.remember(table("b", "open"))  # older than what is held: ignored
    assert cache.playing() == 2
    cache.remember(table("b", "finished", 3))
    assert cache.playing() == 1
    cache.forget("a")
    assert cache.playing() == 0
    cache.remember(table("a", "playing", 4))  # read again after a lost race
    assert cache.playing() == 1
    assert cache.playing() == sum(t.status == "playing" for t in cache.tables.values())


def test_a_table_keeps_its_newest_versions_for_patches() -> None:
    cache = TableCache(Settings(secret_key="k"), sessions=None)  # type: ignore[arg-type]
    first = table("a", "playing")
    for version in range(1, HISTORY + 11):
        cache.remember(replace(first, version=version))
    assert cache.at_version("a", 10) is None
    assert cache.at_version("a", 11) is not None and cache.at_version("a", HISTORY + 10) is not None
