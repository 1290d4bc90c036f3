"""``guildhall loadtest``: its player logic on scripted messages, and short real runs."""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from typing import Any

import pytest

from server.devtools.load.measure import ResourceWatch, Stats, percentile
from server.devtools.load.players import Budget, Player
from server.devtools.load.runs import configurations


class FakeSocket:
    """Records what a Player sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def doc(version: int, legal: list[dict[str, Any]], status: str = "playing") -> dict[str, Any]:
    return {"table": {"status": status, "version": version}, "game": {"legal": legal}}


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile([3.0], 95) == 3.0
    assert math.isnan(percentile([], 50))


def test_sqlite_runs_only_with_one_process() -> None:
    args = argparse.Namespace(databases="sqlite,postgres", instances="1,2")
    assert configurations(args) == [("sqlite", 1), ("postgres", 1), ("postgres", 2)]


async def test_a_player_acts_once_then_measures_ack_and_patch() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats)
    await player.on_message(
        ws, {"type": "snapshot", "version": 3, "doc": doc(3, [{"type": "pass"}])}
    )
    await player.on_message(ws, {"type": "presence", "seats": []})
    assert [m["type"] for m in ws.sent] == ["command"]  # one command in flight at a time
    sent = ws.sent[0]
    await player.on_message(ws, {"type": "ack", "id": sent["id"], "version": 4})
    assert stats.acked == 1 and stats.latencies == []  # the patch has not come yet
    ops = [{"op": "replace", "path": "/table/status", "value": "finished"}]
    await player.on_message(ws, {"type": "patch", "base": 3, "version": 4, "ops": ops})
    assert len(stats.latencies) == 1 and player.done
    assert player.acked == {sent["id"]: 4}


async def test_a_patched_document_leaves_the_command_sent_as_it_was() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats)
    legal = [{"type": "buy", "goods": ["salt"]}]
    await player.on_message(ws, {"type": "snapshot", "version": 3, "doc": doc(3, legal)})
    ops = [{"op": "add", "path": "/game/legal/0/goods/-", "value": "wine"}]
    await player.on_message(ws, {"type": "patch", "base": 3, "version": 4, "ops": ops})
    assert player.doc is not None and player.doc["game"]["legal"][0]["goods"] == ["salt", "wine"]
    assert player.pending is not None and player.pending["cmd"] == {
        "type": "buy",
        "goods": ["salt"],
    }


async def test_a_patch_that_does_not_fit_is_counted_and_a_snapshot_asked_for() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats)
    await player.on_message(ws, {"type": "snapshot", "version": 3, "doc": doc(3, [])})
    ops = [{"op": "replace", "path": "/game/missing", "value": 1}]
    await player.on_message(ws, {"type": "patch", "base": 3, "version": 4, "ops": ops})
    assert stats.errors == {"bad_patch": 1}
    assert ws.sent == [{"type": "snapshot_request"}]
    assert player.doc is None and player.version == -1
    await player.on_message(
        ws, {"type": "snapshot", "version": 4, "doc": doc(4, [{"type": "pass"}])}
    )
    assert player.version == 4 and ws.sent[-1]["type"] == "command"


async def test_a_document_message_carrying_the_ack_settles_the_command() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats)
    legal = [{"type": "pass"}]
    await player.on_message(ws, {"type": "snapshot", "version": 3, "doc": doc(3, legal)})
    first = ws.sent[-1]["id"]
    ops = [{"op": "replace", "path": "/table/version", "value": 4}]
    await player.on_message(
        ws, {"type": "patch", "base": 3, "version": 4, "ops": ops, "ack": first}
    )
    assert player.acked == {first: 4} and len(stats.latencies) == 1
    second = ws.sent[-1]["id"]
    assert second != first  # settled, so the next command went out
    # A patch that cannot be applied still acknowledges; the snapshot asked for settles it.
    await player.on_message(
        ws, {"type": "patch", "base": 9, "version": 10, "ops": [], "ack": second}
    )
    assert ws.sent[-1] == {"type": "snapshot_request"} and player.acked[second] == 10
    assert len(stats.latencies) == 1
    await player.on_message(ws, {"type": "snapshot", "version": 10, "doc": doc(10, legal)})
    assert len(stats.latencies) == 2 and ws.sent[-1]["type"] == "command"


class FakeProcess:
    def __init__(self) -> None:
        self.cpu = 1.0

    def rss_bytes(self) -> int:
        return 1

    def cpu_seconds(self) -> float:
        return self.cpu


def test_the_cpu_time_of_a_run_counts_from_its_restart() -> None:
    process = FakeProcess()
    watch = ResourceWatch([process])
    process.cpu = 3.0  # making the tables
    watch.restart_cpu()
    process.cpu = 3.5
    assert watch.cpu_used() == 0.5


async def test_a_player_asks_for_a_snapshot_on_a_version_gap() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 1, "tok", "seed", stats)
    await player.on_message(ws, {"type": "snapshot", "version": 3, "doc": doc(3, [])})
    await player.on_message(ws, {"type": "patch", "base": 5, "version": 6, "ops": []})
    assert ws.sent == [{"type": "snapshot_request"}]
    assert player.version == 3


async def test_after_a_refusal_a_player_waits_for_a_newer_document() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats)
    legal: list[dict[str, Any]] = [
        {"type": "plan", "guilds": [1]},
        {"type": "retract"},
        {"type": "wait"},
    ]
    await player.on_message(ws, {"type": "snapshot", "version": 3, "doc": doc(3, legal)})
    assert ws.sent[0]["cmd"] == {"type": "plan", "guilds": [1]}  # never retract or wait
    refusal = {"type": "error", "id": ws.sent[0]["id"], "code": "not_your_turn", "message": "-"}
    await player.on_message(ws, refusal)
    assert len(ws.sent) == 1 and stats.errors == {"not_your_turn": 1}
    ops = [{"op": "replace", "path": "/table/version", "value": 4}]
    await player.on_message(ws, {"type": "patch", "base": 3, "version": 4, "ops": ops})
    assert len(ws.sent) == 2 and ws.sent[1]["id"] != ws.sent[0]["id"]


async def test_silence_resends_the_pending_command_with_its_id_and_first_send_time() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats)
    await player.on_message(
        ws, {"type": "snapshot", "version": 3, "doc": doc(3, [{"type": "pass"}])}
    )
    assert player.pending is not None
    first_sent = player.pending["sent"]
    await player.on_silence(ws)
    assert [m["id"] for m in ws.sent] == [ws.sent[0]["id"]] * 2
    assert player.pending["sent"] == first_sent  # latency counts from the first send


def test_budget_stops_at_the_command_cap() -> None:
    stats = Stats()
    budget = Budget(stats, commands=2, deadline=float("inf"))
    assert budget.left()
    stats.acked = 2
    assert not budget.left()


def loadtest(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "server.cli", "loadtest", "--tables", "2", "--seconds", "4"]
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=240)


@pytest.mark.slow
def test_a_short_sqlite_run_reports_its_figures() -> None:
    done = loadtest("--databases", "sqlite", "--instances", "1,2", "--json")
    assert done.returncode == 0, done.stderr
    (run,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert run["run"] == "sqlite x1" and run["tables"] == 2
    assert run["acked"] > 0 and run["commands_per_s"] > 0
    assert run["latency_ms"]["p50"] <= run["latency_ms"]["p99"]
    assert run["rss_mb"][0] > 10 and run["server_cpu_ms_per_command"] > 0
    assert not [code for code in run["errors"] if code.startswith("client:")]


@pytest.mark.slow
@pytest.mark.postgres
def test_a_short_two_process_postgres_run_reports_the_commit_ratio() -> None:
    done = loadtest("--databases", "postgres", "--instances", "2", "--json")
    assert done.returncode == 0, done.stderr
    run, probe = [json.loads(line) for line in done.stdout.splitlines()]
    assert run["run"] == "postgres x2" and run["acked"] > 0 and len(run["rss_mb"]) == 2
    assert probe["insert_commit_per_s"]["1"] > 0
    ratio = probe["ratio"]["postgres x2"]
    assert ratio["serial"] == pytest.approx(
        run["commands_per_s"] / probe["insert_commit_per_s"]["1"], rel=0.01
    )
