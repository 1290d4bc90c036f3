"""Random legal play-outs for 2–5 players with the generic harness and Norenberc invariants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import get_game
from tests.games.harness import Checks, play_random, playout_count, replay

from .invariants import check_state, hidden_variants

GAME = get_game("norenberc")
FULL = Checks(check=check_state, hidden_variants=hidden_variants, probe_legal=2)
SLOW = Checks(check=check_state, hidden_variants=hidden_variants, probe_legal=1, every=5)
LIGHT = Checks(check=check_state, hidden_variants=hidden_variants, probe_legal=1, every=10)

games = st.tuples(
    st.integers(min_value=2, max_value=5),
    st.text(min_size=1, max_size=12),
    st.sampled_from(["simultaneous", "ordered"]),
)


def _play_and_replay(seats: int, seed: str, mode: str, checks: Checks) -> None:
    record = play_random(GAME, seats, seed, {"planning": mode}, checks)
    assert record.final is not None
    result = GAME.result(record.final)
    assert result is not None and len(result["scores"]) == seats
    assert len(result["breakdown"]) == seats and result["winners"]
    assert replay(GAME, record) == record.final


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_invariant_after_every_command(game: tuple[int, str, str]) -> None:
    _play_and_replay(*game, FULL)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_many_random_games_keep_the_invariants(game: tuple[int, str, str]) -> None:
    _play_and_replay(*game, LIGHT)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
# 4 x 150 games checked every 5th command, plus the 225 above: over 800 games a run
# (about 4 minutes of a CI run; GUILDHALL_PLAYOUT_SCALE=10 for a soak run).
@settings(
    max_examples=playout_count(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.text(min_size=1, max_size=12), mode=st.sampled_from(["simultaneous", "ordered"]))
def test_thousands_of_random_games_keep_the_invariants(seats: int, seed: str, mode: str) -> None:
    _play_and_replay(seats, seed, mode, SLOW)
