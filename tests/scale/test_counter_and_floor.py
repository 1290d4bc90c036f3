"""The benchmark-only counter game, and the floor server ``loadtest --floor`` measures against."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from server.devtools.load.counter import COUNTER, RECENT, Counter
from server.devtools.load.measure import Stats
from server.devtools.load.players import Player
from server.engine import RuleError, game_names
from server.engine.registry import KNOWN_GAMES
from tests.scale.test_loadtest import FakeSocket


def test_counter_turns_rotate_and_apply_leaves_the_old_state_alone() -> None:
    state = COUNTER.new(3, "seed", {"target": 10})
    assert COUNTER.to_act(state) == {0}
    assert COUNTER.legal(state, 1) == []
    before = json.dumps(state)
    new, events = COUNTER.apply(state, 0, {"type": "add", "n": 3})
    assert json.dumps(state) == before
    assert (new["count"], new["turn"], COUNTER.to_act(new)) == (3, 1, {1})
    assert events[0]["params"] == {"seat": 0, "n": 3}
    view = COUNTER.view(new, 1)
    assert view["legal"] == [{"type": "add", "n": n} for n in (1, 2, 3)]
    assert COUNTER.view(new, None)["legal"] == []
    spectator = COUNTER.view(new, None)
    assert isinstance(COUNTER, Counter)  # the game itself, with its view_from
    for seat in range(3):  # each seat's view made from the spectator's is its own view
        assert COUNTER.view_from(new, seat, spectator) == COUNTER.view(new, seat)
    assert spectator == COUNTER.view(new, None)  # and the spectator's is left as it was


def test_counter_refuses_bad_moves_and_ends_at_its_target() -> None:
    state = COUNTER.new(2, "seed", {"target": 4})
    for bad_seat, bad in [(1, {"type": "add", "n": 1}), (0, {"type": "add", "n": 4})]:
        with pytest.raises(RuleError):
            COUNTER.apply(state, bad_seat, bad)
    with pytest.raises(RuleError):
        COUNTER.apply(state, 0, {"type": "add", "n": True})
    with pytest.raises(RuleError):
        COUNTER.new(2, "seed", {"target": 0})
    for seat in (0, 1):
        state, _ = COUNTER.apply(state, seat, {"type": "add", "n": 2})
    assert COUNTER.to_act(state) == set() and COUNTER.legal(state, 0) == []
    result = COUNTER.result(state)
    assert result is not None and result["winners"] == [1]


def test_counter_state_weighs_about_two_kilobytes_and_stays_bounded() -> None:
    state = COUNTER.new(4, "seed", {})
    for _ in range(3 * RECENT):
        state, _ = COUNTER.apply(state, state["turn"], {"type": "add", "n": 3})
    size = len(json.dumps(state, separators=(",", ":")))
    assert len(state["recent"]) == RECENT and 1500 < size < 3000


def test_the_counter_game_is_not_offered_in_the_lobby() -> None:
    assert "counter" not in KNOWN_GAMES
    assert "counter" in game_names()  # registered here by importing it, as the bench servers do


async def test_a_player_takes_an_ack_inside_a_patch_and_thinks_before_acting() -> None:
    ws, stats = FakeSocket(), Stats()
    player = Player("ws://x", "t", 0, "tok", "seed", stats, think=60.0)
    legal = [{"type": "add", "n": 1}]
    snapshot = {"table": {"status": "playing", "version": 3}, "game": {"legal": legal}}
    await player.on_message(ws, {"type": "snapshot", "version": 3, "doc": snapshot})
    assert ws.sent == [] and player.act_at is not None  # thinking, not sending
    player.act_at = 0.0  # the thinking time is over
    await player.maybe_act(ws)
    (sent,) = ws.sent
    ops = [{"op": "replace", "path": "/table/version", "value": 4}]
    await player.on_message(
        ws, {"type": "patch", "base": 3, "version": 4, "ops": ops, "ack": sent["id"]}
    )
    assert stats.acked == 1 and len(stats.latencies) == 1 and player.pending is None


async def test_players_think_for_different_times_around_the_pace_given() -> None:
    """Seats do not all send in the same instant: each wait lies within half to one and a
    half times ``think``, and the waits differ from player to player."""
    legal = [{"type": "add", "n": 1}]
    snapshot = {"table": {"status": "playing", "version": 3}, "game": {"legal": legal}}
    waits = []
    for n in range(40):
        player = Player("ws://x", "t", 0, "tok", f"seed-{n}", Stats(), think=2.0)
        before = time.monotonic()
        await player.on_message(FakeSocket(), {"type": "snapshot", "version": 3, "doc": snapshot})
        assert player.act_at is not None
        waits.append(player.act_at - before)
    assert all(0.99 <= w <= 3.01 for w in waits), waits
    assert max(waits) - min(waits) > 1.0, waits


@pytest.mark.slow
@pytest.mark.postgres
def test_loadtest_floor_prints_guildhall_cpu_as_a_multiple_of_the_floor() -> None:
    argv = [sys.executable, "-m", "server.cli", "loadtest", "--floor", "--tables", "2"]
    # A few hundred moves make every figure; a run stops at whichever cap comes first.
    argv += ["--seconds", "4", "--commands", "400", "--databases", "postgres"]
    argv += ["--instances", "1", "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    guildhall, floor, ratio, _probe = [json.loads(line) for line in done.stdout.splitlines()]
    assert guildhall["run"] == "postgres x1" and floor["run"] == "floor x1"
    assert guildhall["acked"] > 0 and floor["acked"] > 0 and not floor["errors"]
    assert ratio["cpu_vs_floor"]["postgres x1"] == pytest.approx(
        guildhall["server_cpu_ms_per_command"] / floor["server_cpu_ms_per_command"]
    )
