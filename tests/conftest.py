"""Suite-wide switches: which optional suites run, and making a skipped one loud in CI.

- Postgres tests need ``TEST_DATABASE_URL`` (``postgresql://user@host:port/db``).
- Browser tests need ``GUILDHALL_BROWSER_TESTS=1`` and Chromium at ``CHROMIUM_PATH``.
- ``GUILDHALL_REQUIRE_ALL_SUITES=1`` (set by ``.ci/run``) turns "not configured" into a
  failure of every test of that suite.
- Tests marked ``soak`` (thousands of random games) run only when ``-m`` names them
  (``make soak`` runs ``-m soak``); ``make test`` leaves them out.
"""

from __future__ import annotations

import os

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
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
