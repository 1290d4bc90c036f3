"""Suite-wide switches: which optional suites run, and making a skipped one loud in CI.

- Postgres tests need ``TEST_DATABASE_URL`` (``postgresql://user@host:port/db``).
- Browser tests need ``GUILDHALL_BROWSER_TESTS=1`` and Chromium at ``CHROMIUM_PATH``.
- ``GUILDHALL_REQUIRE_ALL_SUITES=1`` (set by ``.ci/run``) turns "not configured" into a
  failure of every test of that suite.
- Tests marked ``soak`` (thousands of random games) run only when ``-m`` names them
  (``make soak`` runs ``-m soak``); ``make test`` leaves them out.
- Under pytest-xdist (``make test``: ``--dist loadscope --no-loadscope-reorder``) a module's
  tests stay on one worker, so its module-scoped servers, browsers and the runtime-only venv
  are made once per run; the modules are sent out largest first (``unit_cost``), so no long
  module is left running alone at the end.
- Each test process freezes what collection made and collects less often
  (``pytest_collection_finish``).
"""

from __future__ import annotations

import os
from collections import defaultdict

import pytest

REQUIRE_ALL = os.environ.get("GUILDHALL_REQUIRE_ALL_SUITES") == "1"
# Tests create tables from one address much faster, and leave more of them unjoined, than
# people do; the limits have their own tests (tests/security/test_input_limits.py and
# test_input_caps.py), which set them explicitly.
for _limit in (
    "GUILDHALL_CREATE_RATE",
    "GUILDHALL_UNJOINED_PER_ADDRESS",
    "GUILDHALL_UNJOINED_TABLES",
    "GUILDHALL_BOT_TABLES",
):
    os.environ.setdefault(_limit, "1000000")
# A finished game is analysed in the background only where a test asks for it (tests/analysis
# sets the share itself): elsewhere every game a test finishes would cost play-outs the
# test never looks at.
os.environ.setdefault("GUILDHALL_ANALYSIS_CPU", "0")


def _missing(marker: str) -> str | None:
    if marker == "postgres" and not os.environ.get("TEST_DATABASE_URL"):
        return "TEST_DATABASE_URL is not set"
    if marker == "browser":
        if os.environ.get("GUILDHALL_BROWSER_TESTS") != "1":
            return "GUILDHALL_BROWSER_TESTS is not 1"
        chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        if not os.path.exists(chromium):
            return f"no Chromium at {chromium}"
    return None


def select_suites(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leaves the soak tier out unless ``-m`` names it; marks the tests of a suite that
    cannot run as skipped (or, with ``GUILDHALL_REQUIRE_ALL_SUITES=1``, as failing)."""
    if "soak" not in (config.getoption("markexpr") or ""):
        soak = [item for item in items if "soak" in item.keywords]
        if soak:
            config.hook.pytest_deselected(items=soak)
            items[:] = [item for item in items if "soak" not in item.keywords]
    for item in items:
        for marker in ("postgres", "browser"):
            if marker not in item.keywords:
                continue
            reason = _missing(marker)
            if reason is None:
                continue
            if REQUIRE_ALL:
                # Failed at set-up rather than by aborting the collection: under pytest-xdist
                # the workers collect, and an abort there is reported as a crashed worker.
                item.add_marker(pytest.mark.required_suite_missing(f"{marker} suite {reason}"))
            else:
                item.add_marker(pytest.mark.skip(reason=f"{marker} suite disabled: {reason}"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    missing = item.get_closest_marker("required_suite_missing")
    if missing is not None:
        pytest.fail(f"GUILDHALL_REQUIRE_ALL_SUITES=1 but the {missing.args[0]}", pytrace=False)


# ---- spreading the suite over xdist workers ----------------------------------------------

# A rough cost per test in seconds of one worker, from its markers: enough to send the long
# modules out first. A test of tens of seconds is marked ``slow`` (or ``install``); marked on
# a whole module, that counts once (its cost is then mostly the processes the module starts).
LONG_MARKS = ("slow", "install")
LONG = 20.0
COST = {"browser": 1.5, "postgres": 1.0}
DEFAULT_COST = 0.3


def xdist_scope(item: pytest.Item) -> str:
    """The unit ``--dist loadscope`` keeps on one worker: the module (or class)."""
    return item.nodeid.rsplit("::", 1)[0]


def unit_cost(items: list[pytest.Item]) -> float:
    total, long_module = 0.0, False
    for item in items:
        total += max((COST[m] for m in COST if item.get_closest_marker(m)), default=DEFAULT_COST)
        own = {mark.name for mark in item.own_markers}
        for name in LONG_MARKS:
            if name in own:
                total += LONG
            elif item.get_closest_marker(name):
                long_module = True
    return total + (LONG if long_module else 0.0)


def largest_units_first(items: list[pytest.Item]) -> None:
    """Modules in order of cost, largest first, so none starts late and runs alone at the
    end (``--no-loadscope-reorder`` keeps this order); a module's tests keep their order
    (pytest's own, which sets each module fixture up once)."""
    units: dict[str, list[pytest.Item]] = defaultdict(list)
    for item in items:
        units[xdist_scope(item)].append(item)
    ordered = sorted(units.values(), key=unit_cost, reverse=True)  # stable: ties keep order
    items[:] = [item for unit in ordered for item in unit]


# After pytest's own reordering (trylast), which keeps the tests of a module fixture together.
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    select_suites(config, items)
    largest_units_first(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The modules, fixtures and items collection made live for the whole run: the same
    tuning as ``guildhall serve`` (freeze them out of the collector's reach, collect less
    often). Play-outs allocate states by the million and Python's defaults walked the whole
    heap again and again: the rules and bot suites (tests/games, engine, bots) took 35-38
    busy CPU-s before, 29 after. Nothing here depends on when garbage is collected."""
    from server.serving import tune_garbage_collector

    tune_garbage_collector()
