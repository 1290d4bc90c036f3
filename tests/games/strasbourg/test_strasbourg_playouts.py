"""Hypothesis random play-outs of whole games with Strasbourg's invariants: influence cards
conserved per player, nothing negative, exactly 5 rounds, every seat scored, views that
leak nothing, pure apply, JSON round trips, exact replay, legal == accepted."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import RuleError

from .helpers import GAME
from .playout import check_finished, play_out, replay

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    seats=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 10**9),
    planning=st.sampled_from(["simultaneous", "ordered"]),
)
def test_random_games_keep_every_invariant_and_replay_exactly(
    seats: int, seed: int, planning: str
) -> None:
    state, record = play_out(seats, seed, planning, deep_every=9)
    check_finished(state)
    assert replay(seats, seed, planning, record) == state


def test_every_legal_command_is_accepted_in_reachable_states() -> None:
    state, record = play_out(4, 11, "simultaneous")
    state = GAME.new(4, "playout-11", {"planning": "simultaneous"})
    for seat, cmd in record[:150]:
        for option in GAME.legal(state, seat)[:40]:
            GAME.apply(state, seat, option)  # raises if legal listed something apply refuses
        state, _ = GAME.apply(state, seat, cmd)


def test_a_finished_game_refuses_commands_and_shows_the_result() -> None:
    state, _ = play_out(3, 5, "ordered")
    try:
        GAME.apply(state, 0, {"type": "pass"})
    except RuleError as err:
        assert err.code == "game_over"
    else:
        raise AssertionError("a finished game accepted a command")
    view = GAME.view(state, 1)
    assert view["phase"] == "over" and view["result"] == GAME.result(state)
    assert json.loads(json.dumps(view)) == view


def test_play_outs_exercise_taking_stacks_back() -> None:
    retracted = 0
    for seed in range(6):
        _, record = play_out(4, seed, "simultaneous")
        retracted += sum(1 for _, cmd in record if cmd["type"] == "retract")
    assert retracted > 0
