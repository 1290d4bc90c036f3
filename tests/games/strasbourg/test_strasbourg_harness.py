"""Strasbourg through the generic random play-out harness shared with Norenberc
(JSON round trip, purity, legal == accepted, view independence, replay), plus
Strasbourg's own invariants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.harness import Checks, play_random, playout_count, replay

from .helpers import GAME
from .playout import check_finished, check_state, hidden_variants

FULL = Checks(check=check_state, hidden_variants=hidden_variants, probe_legal=2)
LIGHT = Checks(check=check_state, hidden_variants=hidden_variants, probe_legal=1, every=7)

games = st.tuples(
    st.integers(min_value=3, max_value=5),
    st.text(min_size=1, max_size=12),
    st.sampled_from(["simultaneous", "ordered"]),
)


def _play_and_replay(seats: int, seed: str, mode: str, checks: Checks) -> None:
    record = play_random(GAME, seats, seed, {"planning": mode}, checks)
    assert record.final is not None
    check_finished(record.final)
    assert replay(GAME, record) == record.final


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_invariant_after_every_command(game: tuple[int, str, str]) -> None:
    _play_and_replay(*game, FULL)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_many_random_games_keep_the_invariants(game: tuple[int, str, str]) -> None:
    _play_and_replay(*game, LIGHT)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # longer than the suite's default, for scaled-up soak runs
@settings(
    max_examples=playout_count(100),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(games)
def test_many_fully_checked_random_games_keep_every_invariant(game: tuple[int, str, str]) -> None:
    _play_and_replay(*game, FULL)
