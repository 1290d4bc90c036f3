"""Every refusal is a RuleError with a stable code and a message that helps."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import RuleError

from .helpers import GAME, expect_error, new_game, plan_all


def influence_state() -> dict[str, Any]:
    return plan_all(new_game(4, start=1), {1: [[5]], 2: [[3]]})


def test_a_seat_out_of_turn_is_told_so() -> None:
    assert expect_error(influence_state(), 2, {"type": "pass"}) == "not_your_turn"


def test_a_seat_number_not_at_the_table_is_refused() -> None:
    assert expect_error(influence_state(), 7, {"type": "pass"}) == "not_your_turn"


@pytest.mark.parametrize("cmd", [None, "pass", {"kind": "pass"}, {"type": 3}])
def test_anything_but_an_object_with_a_type_is_a_bad_command(cmd: object) -> None:
    assert expect_error(influence_state(), 1, cmd) == "bad_command"


def test_a_command_of_another_phase_names_the_possible_ones() -> None:
    with pytest.raises(RuleError) as err:
        GAME.apply(influence_state(), 1, {"type": "draw"})
    assert err.value.code == "unexpected_command"
    assert "'pass'" in err.value.message and "'reveal'" in err.value.message


def test_a_missing_stack_is_not_allowed_and_the_message_lists_the_allowed_ones() -> None:
    with pytest.raises(RuleError) as err:
        GAME.apply(influence_state(), 1, {"type": "reveal", "stack": 3})
    assert err.value.code == "not_allowed"
    assert "{'type': 'reveal', 'stack': 0}" in err.value.message
