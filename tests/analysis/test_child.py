"""The analysis computes each position in a child process, never in the app's own: the figures
are the same as computed here, the child keeps its replay from one position to the next, a
stop kills it mid-position, and a child that dies is replaced (a position that keeps killing
its child fails the analysis, with a log line, instead of trying for ever).

They wait on the wall clock, bounded, by polling; a stop's wait is bounded generously."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.analysis.compute import Params, analyse_step, replay_record
from server.analysis.job import DEATHS, AnalysisJob
from server.analysis.worker import ChildDied, Computed, Worker
from tests.analysis.records import played
from tests.analysis.test_route import analysis_settings, bots_finish
from tests.support.databases import migrated_database
from tests.support.play import running_app
from tests.support.waiting import wait_for

SMALL = Params(playouts=2, samples=2, candidates=2)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has exited and been waited for."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_position_is_computed_in_a_child_that_keeps_its_replay() -> None:
    record = played("norenberc")

    async def two_positions() -> tuple[Worker, Computed, Computed]:
        worker = Worker()
        try:
            first = await worker.compute(record, 4, SMALL, 1.0)
            second = await worker.compute(record, 3, SMALL, 1.0)
        finally:
            await worker.close()
        return worker, first, second

    worker, first, second = asyncio.run(two_positions())
    replayed = replay_record(record)
    assert first.figures == analyse_step(record, replayed, 4, SMALL)
    assert second.figures == analyse_step(record, replayed, 3, SMALL)
    assert first.pid == second.pid == worker.pids[0] != os.getpid()
    assert first.replayed and not second.replayed  # one replay per game, not per position
    assert first.cpu > 0
    assert worker.pid is None and _gone(first.pid)  # closed: the child has exited


def test_a_killed_child_raises_and_the_next_position_starts_a_fresh_one() -> None:
    record = played("norenberc")

    async def killed() -> tuple[Worker, Computed]:
        worker = Worker()
        try:
            # A position that would take hours at 5 % of a core: killed while it runs.
            endless = asyncio.create_task(worker.compute(record, 0, Params(playouts=10**6), 0.05))
            while worker.pid is None:
                await asyncio.sleep(0.01)
            await asyncio.sleep(1.0)
            os.kill(worker.pid, signal.SIGKILL)
            with pytest.raises(ChildDied):
                await asyncio.wait_for(endless, 60)
            assert worker.pid is None
            again = await worker.compute(record, 2, SMALL, 1.0)
        finally:
            await worker.close()
        return worker, again

    worker, again = asyncio.run(killed())
    assert len(worker.pids) == 2 and again.pid == worker.pids[1]
    assert again.replayed  # the fresh child replays the game again
    assert again.figures == analyse_step(record, replay_record(record), 2, SMALL)


ORPHAN = """
import asyncio
from server.analysis.compute import Params
from server.analysis.worker import Worker
from tests.analysis.records import played

async def main() -> None:
    worker = Worker()
    long = asyncio.create_task(worker.compute(played("norenberc"), 0, Params(10**6), 0.05))
    while worker.pid is None:
        await asyncio.sleep(0.01)
    print(worker.pid, flush=True)
    await long

asyncio.run(main())
"""


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has exited (gone, or a zombie its new parent has not reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_child_whose_parent_dies_ends_too() -> None:
    """An app process killed outright (SIGKILL: no shutdown) leaves no child computing on."""
    root = Path(__file__).resolve().parents[2]
    with subprocess.Popen(
        [sys.executable, "-c", ORPHAN], cwd=root, stdout=subprocess.PIPE
    ) as parent:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        try:
            time.sleep(3.0)  # into the position
            parent.kill()
            parent.wait(30)
            wait_for("the orphaned child ends", lambda: _ended(child), timeout=60)
        finally:
            parent.kill()
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


# ---------------------------------------------------------------- the job in an app


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A database holding one finished two-seat Norenberc game, queued for analysis, and
    nothing analysed yet; each test works on its own copy."""
    folder = tmp_path_factory.mktemp("finished")
    with (
        migrated_database("sqlite", folder) as url,
        running_app(analysis_settings(url, analysis_cpu=0)) as client,
    ):
        table_id = bots_finish(client)
    return folder / "guildhall.db", table_id


@pytest.fixture
def database(finished_game: tuple[Path, str], tmp_path: Path) -> Iterator[tuple[Path, str]]:
    original, table_id = finished_game
    for part in original.parent.glob("guildhall.db*"):
        shutil.copyfile(part, tmp_path / part.name)
    yield tmp_path / "guildhall.db", table_id


def _row(path: Path, table_id: str) -> tuple[Any, ...]:
    with sqlite3.connect(path) as db:
        query = "SELECT status, lease_until, done, steps FROM analyses WHERE table_id = ?"
        found = db.execute(query, (table_id,)).fetchone()
    return tuple(found) if found else ()


def test_a_stop_mid_position_kills_the_child_at_once(database: tuple[Path, str]) -> None:
    path, table_id = database
    with running_app(analysis_settings(f"sqlite+aiosqlite:///{path}", analysis_cpu=0)) as client:
        job: AnalysisJob = client.app.state.analysis  # type: ignore[attr-defined]
        # Positions that would take hours at 5 % of a core (more play-outs than the setting
        # allows).
        job.share, job.params = 0.05, Params(playouts=10**6)
        assert client.portal is not None
        client.portal.call(job.start)
        # The final position is the result itself, computed at once; the next one is long.
        pid = wait_for("the final position computed", lambda: job.computed and job.worker.pid)
        assert job.current == table_id and pid != os.getpid()
        time.sleep(1.0)  # well into the next position
        started = time.monotonic()
        client.portal.call(job.stop)
        stopping = time.monotonic() - started
        assert job.worker.pid is None and _gone(pid)
    assert stopping < 10, f"stop() took {stopping:.1f} s"  # generous: it kills, never waits
    # Given up for the next one at once, with the final position stored and not the killed.
    assert _row(path, table_id)[:3] == ("running", 0, 1)


def test_a_child_killed_mid_analysis_is_replaced_and_the_analysis_completes(
    database: tuple[Path, str], caplog: pytest.LogCaptureFixture
) -> None:
    path, table_id = database
    settings = analysis_settings(f"sqlite+aiosqlite:///{path}", analysis_playouts=2)
    with running_app(settings) as client:
        job: AnalysisJob = client.app.state.analysis  # type: ignore[attr-defined]
        first = wait_for("a few positions computed", lambda: job.computed >= 3 and job.worker.pid)
        os.kill(first, signal.SIGKILL)
        wait_for("the analysis is done", lambda: _row(path, table_id)[0] == "done", timeout=240)
        pids = list(job.worker.pids)
    assert len(pids) >= 2 and pids[0] == first, "no fresh child after the kill"
    assert os.getpid() not in pids
    assert f"the analysis child {first} ended (exit code -9) (1 of {DEATHS}); trying again" in (
        caplog.text
    )
    _status, _lease, stored, steps = _row(path, table_id)
    assert stored == steps


class Dying(Worker):
    """A worker whose child always dies on the position."""

    def __init__(self) -> None:
        super().__init__()
        self.tries = 0

    async def compute(
        self, record: dict[str, Any], step: int, params: Params, share: float
    ) -> Computed:
        self.tries += 1
        raise ChildDied("the analysis child 1 ended (exit code -9)")


def test_a_position_that_keeps_killing_its_child_fails_the_analysis(
    database: tuple[Path, str], caplog: pytest.LogCaptureFixture
) -> None:
    path, table_id = database
    with running_app(analysis_settings(f"sqlite+aiosqlite:///{path}", analysis_cpu=0)) as client:
        job: AnalysisJob = client.app.state.analysis  # type: ignore[attr-defined]
        job.worker = dying = Dying()
        assert client.portal is not None
        client.portal.call(job.queue, table_id)  # if the game's end was not queued already
        assert client.portal.call(job.work_once) is True
    assert dying.tries == DEATHS
    assert _row(path, table_id)[0] == "failed"
    assert f"ended its child process {DEATHS} times" in caplog.text
