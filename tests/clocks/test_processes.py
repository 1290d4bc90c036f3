"""Real server processes on one Postgres: deadlines survive SIGKILL and fire once after the
restart (with the downtime extension), and a bot whose process died is played by another.

These run ``guildhall serve`` children, so they wait on the wall clock: only by polling the
database, bounded in time, never by asserting how long something took.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from server.devtools.load.servers import ServerProcess, run_migrate, server_env
from tests.scale.pg import fresh_database

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

TABLES = 3
# Seconds of planning each table gets: long enough to start the (already created) tables and
# kill the server before any runs out, even on a busy machine.
PLAN = 6
SWEEP = 0.5  # seconds between two sweeps: short, so the waits below are short too
GRACE = 1.5
# Seconds after its process was killed by which another process must have played a bot.
TAKEN_OVER_WITHIN = 10.0


def rows(url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return list(conn.execute(query, args).fetchall())


def wait_for(what: str, check: Any, timeout: float = 60.0) -> float:
    """Poll ``check()`` until it is true; returns the seconds it took (fails after timeout)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout:.0f} s")


# Plain HTTP to 127.0.0.1: every request shares one TLS context (a default one loads the CA
# bundle again, about 40 ms of CPU a request).
TLS = ssl.create_default_context()


def post(server: ServerProcess, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.post(server.url + path, json=body, headers=headers, timeout=30, verify=TLS)
    assert answer.status_code < 300, answer.text
    return answer.json()


@pytest.fixture
def database() -> Iterator[str]:
    with fresh_database("gh_clocks") as url:
        yield url


def servers(url: str, tmp_path: Path, count: int, **extra: str) -> list[ServerProcess]:
    env = server_env(
        url,
        GUILDHALL_CLOCK_SWEEP=str(SWEEP),
        GUILDHALL_CLOCK_GRACE=str(GRACE),
        GUILDHALL_CLOCK_BOT="random",
        **extra,
    )
    run_migrate(env)
    return [ServerProcess(env, tmp_path / f"server-{i}.log") for i in range(count)]


def test_sigkill_while_deadlines_run_fires_each_once_after_the_restart(
    database: str, tmp_path: Path
) -> None:
    (server,) = servers(database, tmp_path, 1, GUILDHALL_BOT_DELAY="0.2")
    server.start()
    try:
        clock = {"mode": "live", "plan": PLAN, "action": 3600, "bank": 0, "increment": 0}
        made = [
            post(
                server,
                "/api/tables",
                {
                    "game": "norenberc",
                    "seats": 2,
                    "name": "Anna",
                    "bots": [None, "random"],
                    "clock": clock,
                },
            )
            for _ in range(TABLES)
        ]
        tables = [table["table_id"] for table in made]
        first = time.time()  # the clocks run from the starts on: only these precede the kill
        for table in made:
            post(server, f"/api/tables/{table['table_id']}/start", {}, table["token"])
        server.kill()  # Anna's time runs out while no server runs
        before = rows(database, "SELECT count(*) FROM commands WHERE seat = 0")
        assert before == [(0,)], "the machine was too slow: a deadline passed before the kill"
        time.sleep(max(0.0, first + PLAN + 2 - time.time()))
        restarted = time.time()
        server.start()

        def covered() -> list[tuple[Any, ...]]:
            return rows(
                database,
                "SELECT table_id, extract(epoch FROM created_at) FROM commands "
                "WHERE seat = 0 ORDER BY table_id",
            )

        waited = wait_for("every deadline fired", lambda: len(covered()) >= TABLES)
        time.sleep(3 * SWEEP)  # three more sweeps: nothing fires twice
        fired = covered()
        # Every table covered (a covered planning decision may take a step or two) ...
        assert {table for table, _at in fired} == set(tables)
        for _table, at in fired:
            # Given back the downtime and at least the grace, not fired on the spot.
            assert float(at) >= restarted + GRACE - 0.5
        # ... and each deadline fired once: one timeout logged per table.
        logs = rows(database, "SELECT seat_log FROM tables")
        assert [[e["type"] for e in log] for (log,) in logs] == [["timed_out"]] * TABLES
        print(f"\n{TABLES} deadlines fired once each, {waited:.1f} s after the restart")
    finally:
        server.stop()


def test_a_bot_whose_process_died_is_played_by_the_other_process(
    database: str, tmp_path: Path
) -> None:
    a, b = servers(database, tmp_path, 2, GUILDHALL_BOT_DELAY="2")
    a.start()
    b.start()
    try:
        made = post(
            a,
            "/api/tables",
            {
                "game": "norenberc",
                "seats": 2,
                "name": "Anna",
                "bots": [None, "random"],
                "clock": {"mode": "untimed"},
            },
        )
        table_id = made["table_id"]
        post(a, f"/api/tables/{table_id}/start", {}, made["token"])  # stored by a
        a.kill()  # while its bot waits out its 2 s
        killed = time.monotonic()

        def bot_moves() -> int:
            found = rows(
                database,
                "SELECT count(*) FROM commands WHERE table_id = %s AND seat = 1",
                table_id,
            )
            return int(found[0][0])

        wait_for("the other process plays the bot", lambda: bot_moves() >= 1, timeout=30)
        after = time.monotonic() - killed
        print(f"\nthe bot moved {after:.1f} s after its process was killed (bot delay 2 s)")
        # "Within a few seconds": the bot's delay, the head start and a sweep or two, with
        # room to spare for a busy machine.
        assert after <= TAKEN_OVER_WITHIN, f"the other process played the bot {after:.1f} s late"
        time.sleep(2)
        assert bot_moves() == 1  # the bot's plan, once
    finally:
        a.stop()
        b.stop()
