"""Random legal play-outs for 2–5 players through the shared play-out helper, with
Norenberc's invariants. Every choice is drawn through Hypothesis, so a failing game shrinks
to a short command list.

The fast tier plays two fully checked games per seat count and mode (every view after every
command); the soak tier (``make soak``) plays thousands of new games a run, the views checked
at every phase or round change and after a fifth of the other commands.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.engine import get_game
from tests.support.playout import (
    PLAYOUT_TIMEOUT,
    Checks,
    Drawn,
    fast_games,
    play,
    replay,
    soak_games,
)

from .invariants import check_state, hidden_variant

GAME = get_game("norenberc")
FULL = Checks(invariants=check_state, hidden_variant=hidden_variant)
SAMPLED = Checks(invariants=check_state, hidden_variant=hidden_variant, views=0.2, probe_legal=1)
SEATS = [2, 3, 4, 5]
MODES = ["simultaneous", "ordered"]


def play_and_replay(data: st.DataObject, seats: int, mode: str, checks: Checks) -> None:
    seed = data.draw(st.text(min_size=1, max_size=12), label="seed")
    record = play(GAME, seats, seed, {"planning": mode}, Drawn(data), checks)
    assert record.final is not None
    result = GAME.result(record.final)
    assert result is not None and len(result["scores"]) == seats
    assert len(result["breakdown"]) == seats and result["winners"]
    assert replay(GAME, record) == record.final


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.timeout(PLAYOUT_TIMEOUT)
@fast_games(2)  # the simplest game Hypothesis draws, and one random game
@given(data=st.data())
def test_random_games_keep_every_invariant_after_every_command(
    seats: int, mode: str, data: st.DataObject
) -> None:
    play_and_replay(data, seats, mode, FULL)


@pytest.mark.soak
@pytest.mark.timeout(0)
@pytest.mark.parametrize("seats", SEATS)
@soak_games(500)  # 4 x 500: 2,000 games a run
@given(data=st.data())
def test_thousands_of_random_games_keep_the_invariants(seats: int, data: st.DataObject) -> None:
    mode = data.draw(st.sampled_from(MODES), label="planning")
    play_and_replay(data, seats, mode, SAMPLED)
