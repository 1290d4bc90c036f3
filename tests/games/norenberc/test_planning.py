"""Sealed planning: card limits, passing, waiting in reverse play order, retracting, secrecy."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import RuleError

from .helpers import GAME, act, fresh, plan_all, types


def _error(state: dict[str, Any], seat: int, cmd: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as err:
        act(state, seat, cmd)
    return err.value.code


def test_a_plan_has_at_most_one_card_per_guild_and_at_most_agents_in_hand() -> None:
    state = fresh(3)
    assert _error(state, 0, {"type": "plan", "guilds": [1, 1]}) == "duplicate_guild"
    assert _error(state, 0, {"type": "plan", "guilds": [1, 2, 3, 4, 5]}) in {
        "unknown_guild",
        "too_many_cards",
    }
    state["players"][0]["hand"] = 2
    assert _error(state, 0, {"type": "plan", "guilds": [1, 2, 3]}) == "too_many_cards"
    assert _error(state, 0, {"type": "plan", "guilds": [5]}) == "unknown_guild"
    assert _error(state, 0, {"type": "plan", "guilds": []}) == "no_cards"
    assert _error(state, 0, {"type": "plan", "guilds": "1"}) == "bad_command"
    assert _error(state, 0, {"type": "sell", "count": 1}) == "unexpected_command"
    plans = [c["guilds"] for c in GAME.legal(state, 0) if c["type"] == "plan"]
    assert len(plans) == 4 + 6  # every 1- and 2-card subset of 4 guilds
    assert {"type": "pass"} in GAME.legal(state, 0)


def test_everyone_plans_at_once_and_plans_stay_sealed_until_called() -> None:
    state = fresh(3)
    assert GAME.to_act(state) == {0, 1, 2}
    state, events = act(state, 1, {"type": "plan", "guilds": [2, 4]})
    public = [e for e in events if e["to"] is None]
    assert [e["text"] for e in public] == ["{s1} played 2 cards"]
    assert [e["params"] for e in public] == [{"seat": 1, "n": 2}]  # no guild in a public event
    private = [e for e in events if e["to"] is not None]
    assert private == [
        {
            "type": "PlanSealed",
            "text": "your plan: bakers, printers",
            "to": [1],
            "params": {"guilds": [2, 4]},
        }
    ]
    other, _ = act(fresh(3), 1, {"type": "plan", "guilds": [1, 3]})
    for viewer in (0, 2, None):
        view = GAME.view(state, viewer)
        assert view["players"][1]["cards"] == 2 and view["players"][1]["planning"] == "committed"
        assert view["my_plan"] is None
        assert view == GAME.view(other, viewer)
    assert GAME.view(state, 1)["my_plan"] == [2, 4]
    assert GAME.to_act(state) == {0, 2}
    assert _error(state, 1, {"type": "plan", "guilds": [1]}) == "already_committed"


def test_only_the_called_guilds_cards_are_revealed() -> None:
    state = fresh(3)
    state, _ = plan_all(state, {0: [1, 3], 1: [3], 2: [2]})
    assert state["phase"] == "action"
    view = GAME.view(state, 1)
    assert view["action"]["guild"] == 1 and view["action"]["cards"] == [0]
    assert view["players"][0]["revealed"] == [1] and view["players"][0]["cards"] == 2
    assert view["players"][2]["revealed"] == [] and view["players"][2]["cards"] == 1


def test_passing_turns_the_disc_and_keeps_the_seat_out_for_the_round() -> None:
    state = fresh(3)
    state, events = plan_all(state, {0: [1], 1: [], 2: [2]})
    assert "Passed" in types(events) and state["players"][1]["disc"] == "moon"
    order = state["order"]
    for _ in range(2):
        seat = next(iter(GAME.to_act(state)))
        state, _ = act(state, seat, {"type": "nothing"})
    assert state["phase"] == "planning" and state["turn"] == 2
    assert GAME.to_act(state) == {0, 2}
    assert GAME.legal(state, 1) == []
    assert state["order"] == order


def test_the_last_in_play_order_cannot_wait() -> None:
    """N-4.7: in reverse play order the last player plans first, so asking to wait is not
    offered."""
    state = fresh(3, "w")
    last = state["order"][-1]
    assert {"type": "wait"} not in GAME.legal(state, last)
    assert _error(state, last, {"type": "wait"}) == "cannot_wait"


def test_one_wait_makes_everyone_plan_one_at_a_time_in_reverse_play_order() -> None:
    """N-4.5, N-4.6: the first player's wait orders the whole phase: last, middle, then first."""
    state = fresh(3, "w")
    first, middle, last = state["order"]
    state, events = act(state, first, {"type": "wait"})
    assert types(events) == ["PlanningWaited"] and events[0]["params"] == {"seat": first}
    assert GAME.to_act(state) == {last}
    assert _error(state, middle, {"type": "plan", "guilds": [1]}) == "must_wait"
    assert _error(state, first, {"type": "plan", "guilds": [1]}) == "must_wait"
    assert GAME.legal(state, middle) == [] and GAME.legal(state, first) == []
    assert _error(state, middle, {"type": "wait"}) == "cannot_wait"
    planning = GAME.view(state, None)["planning"]
    assert planning["ordered"] and planning["waited_by"] == first
    assert [planning["status"][s] for s in (first, middle, last)] == [
        "waiting",
        "waiting",
        "planning",
    ]
    state, _ = act(state, last, {"type": "plan", "guilds": [1, 2]})
    assert GAME.to_act(state) == {middle}
    # Each sees the card counts of those before it, never their guilds.
    assert GAME.view(state, middle)["players"][last]["cards"] == 2
    state, _ = act(state, middle, {"type": "pass"})
    assert GAME.to_act(state) == {first}
    state, _ = act(state, first, {"type": "plan", "guilds": [3]})
    assert state["phase"] == "action"


def test_before_anyone_waits_a_plan_can_be_taken_back() -> None:
    """N-4.4: while everyone plans at once a committed plan may be retracted and made again."""
    state = fresh(3, "w")
    first, middle, last = state["order"]
    state, _ = act(state, middle, {"type": "plan", "guilds": [2]})
    assert {"type": "retract"} in GAME.legal(state, middle)
    state, events = act(state, middle, {"type": "retract"})
    assert types(events) == ["PlanRetracted"] and GAME.to_act(state) == {first, middle, last}
    assert events[0]["params"] == {"seat": middle}
    state, _ = act(state, middle, {"type": "plan", "guilds": [1]})
    state, _ = act(state, last, {"type": "plan", "guilds": [1]})
    assert state["phase"] == "planning"
    assert {"type": "retract"} in GAME.legal(state, middle)
    assert {"type": "retract"} in GAME.legal(state, last)


def test_after_a_wait_no_plan_can_be_taken_back_by_anyone() -> None:
    """N-4.6: plans committed before the wait are final, also for seats after the waiter."""
    state = fresh(4, "w")
    first, second, third, last = state["order"]
    state, _ = act(state, last, {"type": "plan", "guilds": [2]})
    state, _ = act(state, first, {"type": "plan", "guilds": [1]})  # after the waiter in order
    state, _ = act(state, second, {"type": "wait"})
    for seat in (first, last):
        assert GAME.legal(state, seat) == []
        assert _error(state, seat, {"type": "retract"}) == "cannot_retract"
    assert GAME.to_act(state) == {third}
    state, _ = act(state, third, {"type": "plan", "guilds": [3]})
    assert GAME.to_act(state) == {second}
    state, _ = act(state, second, {"type": "pass"})
    assert state["phase"] == "action"


def test_ordered_mode_starts_every_turn_in_reverse_play_order() -> None:
    """N-4.8: an ordered table plans one at a time from the start, without anyone waiting."""
    state = fresh(3, "o", planning="ordered")
    first, middle, last = state["order"]
    assert GAME.to_act(state) == {last}
    assert {"type": "wait"} not in GAME.legal(state, last)
    state, _ = act(state, last, {"type": "plan", "guilds": [1]})
    assert GAME.to_act(state) == {middle}
    assert GAME.legal(state, last) == []  # final: no retract in an ordered phase
    state, _ = act(state, middle, {"type": "plan", "guilds": [1]})
    state, _ = act(state, first, {"type": "plan", "guilds": [1]})
    assert state["phase"] == "action"
