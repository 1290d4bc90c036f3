"""Real ``guildhall serve`` processes analysing finished games: a process killed in the
middle of an analysis leaves it to the restarted one, which does not compute the stored
positions again; two processes on one Postgres never analyse the same game.

Each stored position writes a log line ``analysed position STEP of N of table ID by analyst
OWNER``; the tests read those. They wait on the wall clock, bounded, by polling what is
stored: never by asserting how long something took.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.devtools.load.servers import ServerProcess, run_migrate, server_env
from tests.support import waiting
from tests.support.databases import fresh_postgres

pytestmark = pytest.mark.slow

LINE = re.compile(r"analysed position (\d+) of (\d+) of table ([\w-]+) by analyst (\w+)")


def wait_for(what: str, check: Any, timeout: float = 180.0) -> Any:
    """Whole server processes: a slower poll and a longer bound than in-process tests need."""
    return waiting.wait_for(what, check, timeout, every=0.2)


def call(server: ServerProcess, method: str, path: str, body: Any = None, token: str = "") -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.request(method, server.url + path, json=body, headers=headers, timeout=30)
    assert answer.status_code < 300, answer.text
    return answer.json()


def finished_table(server: ServerProcess) -> str:
    """A Norenberc table of two bots (its creator hands seat 0 over), played to the end."""
    made = call(
        server,
        "POST",
        "/api/tables",
        {"game": "norenberc", "seats": 2, "bots": [None, "greedy"], "name": "Anna"},
    )
    table_id, token = made["table_id"], made["token"]
    call(server, "POST", f"/api/tables/{table_id}/start", {}, token)
    call(server, "POST", f"/api/tables/{table_id}/seats/0/bot", {"kind": "greedy"}, token)
    wait_for(
        "the bots finish",
        lambda: call(server, "GET", f"/api/tables/{table_id}")["status"] == "finished",
    )
    return str(table_id)


def analysed(logs: list[Path]) -> list[tuple[str, int, str]]:
    """(table, step, analyst) of every position the processes stored, in log order."""
    found = []
    for path in logs:
        for match in LINE.finditer(path.read_text(errors="replace")):
            found.append((match[3], int(match[1]), match[4]))
    return found


def servers(url: str, tmp_path: Path, count: int, **extra: str) -> list[ServerProcess]:
    env = server_env(url, GUILDHALL_BOT_DELAY="0", **extra)
    run_migrate(env)
    return [ServerProcess(env, tmp_path / f"server-{i}.log") for i in range(count)]


def status(server: ServerProcess, table_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = call(server, "GET", f"/api/tables/{table_id}/analysis")
    return answer


def stored_steps(db_file: Path, table_id: str) -> set[int]:
    """The positions of a table the database holds, read from the file itself."""
    with contextlib.closing(sqlite3.connect(db_file)) as db:
        rows = db.execute("SELECT step FROM analysis_positions WHERE table_id = ?", (table_id,))
        return {step for (step,) in rows}


def test_a_killed_analysis_resumes_without_redoing_stored_positions(tmp_path: Path) -> None:
    db_file = tmp_path / "guildhall.db"
    (server,) = servers(
        f"sqlite:///{db_file}",
        tmp_path,
        1,
        GUILDHALL_ANALYSIS_CPU="0.5",
        GUILDHALL_ANALYSIS_PLAYOUTS="4",
    )
    log = server.log_path
    server.start()
    try:
        table_id = finished_table(server)
        wait_for("a few positions stored", lambda: len(analysed([log])) >= 5)
        server.kill()
        # What the killed process stored: what it logged, and perhaps one position more
        # (killed between storing a position and logging it).
        first_life = analysed([log])
        stored = stored_steps(db_file, table_id)
        assert {step for _table, step, _analyst in first_life} <= stored
        steps = status_total = int(LINE.search(log.read_text())[2])  # type: ignore[index]
        assert len(stored) < steps, "the machine was too fast: the analysis ended before the kill"
        server.start()
        done = wait_for(
            "the restarted server finishes the analysis",
            lambda: (s := status(server, table_id))["status"] == "done" and s,
        )
        assert done["done"] == done["steps"] == status_total
        second_life = analysed([log])[len(first_life) :]
        analysts = {analyst for _t, _s, analyst in second_life}
        assert len(analysts) == 1 and not analysts & {a for _t, _s, a in first_life}
        redone = Counter(step for _table, step, _analyst in second_life)
        assert set(redone.values()) == {1}, "a position was computed twice"
        assert set(redone) == set(range(steps)) - stored, "a stored position was computed again"
        assert stored_steps(db_file, table_id) == set(range(steps))
    finally:
        server.stop()


@pytest.fixture
def postgres() -> Iterator[str]:
    with fresh_postgres() as url:
        yield url


@pytest.mark.postgres
def test_two_processes_on_one_postgres_never_analyse_the_same_game(
    postgres: str, tmp_path: Path
) -> None:
    a, b = servers(
        postgres, tmp_path, 2, GUILDHALL_ANALYSIS_CPU="1", GUILDHALL_ANALYSIS_PLAYOUTS="1"
    )
    a.start()
    b.start()
    try:
        tables = [finished_table(a), finished_table(b), finished_table(a)]
        for table_id in tables:
            wait_for(
                f"the analysis of {table_id}",
                lambda table_id=table_id: status(b, table_id)["status"] == "done",
            )
        every = analysed([a.log_path, b.log_path])
        for table_id in tables:
            mine = [(step, analyst) for t, step, analyst in every if t == table_id]
            assert len({analyst for _step, analyst in mine}) == 1, "two processes analysed it"
            assert Counter(step for step, _analyst in mine) == Counter(
                range(status(a, table_id)["steps"])
            )
    finally:
        a.stop()
        b.stop()
