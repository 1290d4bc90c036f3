"""Engine core: RNG determinism, registry errors, and that the engines do no I/O."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from server.engine import Rng, RuleError, event, get_game, is_visible, seed_to_state

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = [ROOT / "server" / "engine", ROOT / "server" / "games"]
FORBIDDEN_IMPORTS = {
    "fastapi",
    "starlette",
    "sqlalchemy",
    "alembic",
    "asyncio",
    "uvicorn",
    "websockets",
    "socket",
    "random",
    "requests",
    "httpx",
    "jinja2",
    "subprocess",
    "threading",
    "time",
}


def test_rng_is_deterministic_and_serializable() -> None:
    a, b = Rng(seed_to_state("table-7")), Rng(seed_to_state("table-7"))
    assert [a.below(100) for _ in range(20)] == [b.below(100) for _ in range(20)]
    resumed = Rng(json.loads(json.dumps(a.state)))
    assert [resumed.next_u64() for _ in range(5)] == [a.next_u64() for _ in range(5)]


def test_rng_differs_between_seeds_and_shuffles_fairly() -> None:
    assert seed_to_state("a") != seed_to_state("b")
    rng = Rng(seed_to_state("fair"))
    counts = [0] * 4
    for _ in range(4000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        counts[items[0]] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_rng_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_unknown_game_is_a_rule_error_naming_the_known_games() -> None:
    with pytest.raises(RuleError) as err:
        get_game("chess")
    assert err.value.code == "unknown_game"
    assert "norenberc" in err.value.message


def test_event_visibility() -> None:
    public = event("GoodsSold", "{s0} sold 1 beer")
    private = event("CardDrawn", "you drew a 5", to=[2])
    assert is_visible(public, None) and is_visible(public, 1)
    assert is_visible(private, 2) and not is_visible(private, 1) and not is_visible(private, None)


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
            # server.resources only says where the data files lie (standard library only).
            if node.module.startswith("server.") and not node.module.startswith(
                ("server.engine", "server.games", "server.resources")
            ):
                names.add(node.module)
    return names


def test_engine_and_games_import_no_io_and_no_service_code() -> None:
    offenders = {}
    for package in PURE_PACKAGES:
        for path in package.rglob("*.py"):
            bad = {
                name
                for name in _imported_modules(path)
                if name in FORBIDDEN_IMPORTS or name.startswith("server.")
            }
            if bad:
                offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}
