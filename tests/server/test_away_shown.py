"""How long a player has been away, as the summary shows it: never more than the truth, so
a client that waits until ``away_seconds >= handover_after`` is never refused the hand-over."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from server.api.tables import shown_away


@given(st.floats(min_value=0, max_value=1e7, allow_nan=False))
def test_the_shown_time_is_at_most_the_true_one_and_within_a_tenth(away: float) -> None:
    shown = shown_away(away)
    assert shown is not None
    assert shown <= away < shown + 0.1 + 1e-9


def test_just_short_of_the_hand_over_time_does_not_read_as_reached() -> None:
    # Rounded to nearest, 1.96 s read 2.0: a client saw "2 s away" and was refused.
    assert shown_away(1.96) == 1.9
    assert shown_away(2.0) == 2.0


def test_connected_and_never_seen() -> None:
    assert shown_away(None) is None
    assert shown_away(math.inf) == 1e9
