"""Sealed planning: private drawing one card at a time, splitting into stacks, waiting,
the ordered variant and taking stacks back — all through server.engine.planning."""

from __future__ import annotations

import copy

from server.engine import is_visible
from server.engine import planning as pl

from .helpers import GAME, expect_error, new_game, plan, play, stack_deck


def test_drawing_shows_the_card_only_to_the_drawer() -> None:
    state = stack_deck(new_game(4), 1, [5])
    state, events = play(state, 1, {"type": "draw"})
    assert [e["text"] for e in events] == ["you drew a 5"]
    assert (
        is_visible(events[0], 1)
        and not is_visible(events[0], 0)
        and not is_visible(events[0], None)
    )
    assert GAME.view(state, 1)["me"]["hand"] == [5]
    assert GAME.view(state, 0)["players"][1]["stacks"] == []


def test_the_rulebook_planning_example_splits_five_cards_into_four_stacks() -> None:
    state = stack_deck(new_game(4), 0, [5, 2, 2, 3, 6])
    for _ in range(5):
        state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 0, {"type": "stop"})
    assert {"type": "draw"} not in GAME.legal(state, 0)  # no more drawing once stopped
    state, _ = play(state, 0, {"type": "stack", "cards": [3, 2]})
    for card in (5, 2, 6):
        state, _ = play(state, 0, {"type": "stack", "cards": [card]})
    assert GAME.legal(state, 0) == [{"type": "seal"}]
    state, events = play(state, 0, {"type": "seal"})
    assert pl.plan_of(state["planning"], 0) == [[2, 3], [5], [2], [6]]
    assert "4 stacks (2 cards, 1 card, 1 card, 1 card)" in events[0]["text"]
    assert GAME.view(state, 2)["players"][0]["stacks"] == [2, 1, 1, 1]
    assert GAME.view(state, 0)["me"]["stacks"] == [[2, 3], [5], [2], [6]]


def test_stack_choices_are_the_sub_multisets_of_the_cards_left() -> None:
    state = stack_deck(new_game(4), 0, [2, 2, 5])
    for _ in range(3):
        state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 0, {"type": "stop"})
    cards = sorted(c["cards"] for c in GAME.legal(state, 0))
    assert cards == [[2], [2, 2], [2, 2, 5], [2, 5], [5]]
    assert expect_error(state, 0, {"type": "stack", "cards": [5, 5]}) == "not_allowed"
    assert expect_error(state, 0, {"type": "seal"}) == "unexpected_command"


def test_stacking_accepts_cards_in_any_order() -> None:
    state = stack_deck(new_game(4), 0, [2, 5])
    for _ in range(2):
        state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 0, {"type": "stop"})
    state, _ = GAME.apply(state, 0, {"type": "stack", "cards": [5, 2]})
    assert state["players"][0]["building"] == [[2, 5]]


def test_the_first_card_is_always_drawn_stop_comes_only_after_a_draw() -> None:
    """S-4.1, S-4.2: before its first draw a seat may draw (or wait), never stop."""
    state = new_game(4)
    assert {"type": "stop"} not in GAME.legal(state, 3)
    assert GAME.legal(state, 3) == [{"type": "draw"}, {"type": "wait"}]
    assert expect_error(state, 3, {"type": "stop"}) == "unexpected_command"
    state, _ = play(state, 3, {"type": "draw"})
    assert GAME.legal(state, 3) == [{"type": "draw"}, {"type": "stop"}]
    state, _ = play(state, 3, {"type": "stop"})
    assert state["players"][3]["stopped"] and len(state["players"][3]["hand"]) == 1


def test_with_an_empty_deck_stop_seals_an_empty_plan() -> None:
    """S-4.2 (decision): a seat with no card left to draw stops with none."""
    state = copy.deepcopy(new_game(4))
    state["players"][3]["deck"] = []
    assert GAME.legal(state, 3) == [{"type": "stop"}, {"type": "wait"}]
    state, _ = play(state, 3, {"type": "stop"})
    assert pl.has_committed(state["planning"], 3) and pl.plan_of(state["planning"], 3) == []


def test_planning_ends_when_everyone_sealed_and_step_a_begins() -> None:
    state = new_game(3, start=1)
    for seat in (0, 1, 2):
        state = plan(state, seat, [[seat + 1]])
    assert state["phase"] == "influence" and state["step"] == 0
    assert state["planning"] is None
    assert [p["stacks"] for p in state["players"]] == [[[1]], [[2]], [[3]]]
    assert GAME.to_act(state) == {1}  # the starting player decides first


def test_ordered_planning_goes_from_the_starting_player_clockwise() -> None:
    state = new_game(4, start=2, planning="ordered")
    assert GAME.to_act(state) == {2}
    assert expect_error(state, 3, {"type": "draw"}) == "must_wait"
    state = plan(state, 2, [[1]])
    assert GAME.to_act(state) == {3}
    assert GAME.view(state, 3)["players"][2]["stacks"] == [1]  # sees the sizes before it
    state = plan(state, 3, [[1, 1]])
    assert GAME.to_act(state) == {0}


def test_a_wait_orders_the_whole_phase_clockwise_from_the_starting_player() -> None:
    """S-4.6: the starting player cannot wait; one wait makes everyone plan in turn."""
    state = new_game(4, start=0)
    assert {"type": "wait"} not in GAME.legal(state, 0)
    assert expect_error(state, 0, {"type": "wait"}) == "unexpected_command"
    state, _ = play(state, 3, {"type": "draw"})  # seat 3 is drawing when the phase switches
    state, events = play(state, 2, {"type": "wait"})
    assert events[0]["type"] == "PlanningWaited" and events[0]["params"] == {"seat": 2}
    assert events[0]["text"].startswith("{s2} asked to wait")
    assert GAME.to_act(state) == {0}
    assert GAME.legal(state, 3) == [] and GAME.legal(state, 1) == []
    assert expect_error(state, 3, {"type": "draw"}) == "must_wait"
    state = plan(state, 0, [[1]])
    assert GAME.to_act(state) == {1}
    assert GAME.legal(state, 0) == []  # sealed stacks are final once someone waited
    state = plan(state, 1, [[1]])
    assert GAME.to_act(state) == {2}
    state = plan(state, 2, [[2]])
    assert GAME.to_act(state) == {3}
    assert state["players"][3]["hand"] != []  # the card drawn before the switch is kept


def test_stacks_sealed_before_a_wait_are_final() -> None:
    """S-4.6: after a wait no seat may take its stacks back."""
    state = plan(new_game(4, start=0), 3, [[2]])
    assert GAME.legal(state, 3) == [{"type": "retract"}]
    state, _ = play(state, 1, {"type": "wait"})
    assert GAME.legal(state, 3) == []
    assert expect_error(state, 3, {"type": "retract"}) == "already_committed"


def test_no_waiting_once_a_card_is_drawn() -> None:
    state, _ = play(new_game(4), 1, {"type": "draw"})
    assert {"type": "wait"} not in GAME.legal(state, 1)


def test_retract_brings_sealed_cards_back_to_split_again_but_not_to_the_deck() -> None:
    state = plan(new_game(4), 1, [[4], [6]])
    deck = list(state["players"][1]["deck"])
    assert GAME.legal(state, 1) == [{"type": "retract"}]
    assert 1 not in GAME.to_act(state)  # the game is not waiting for a sealed seat
    state, events = play(state, 1, {"type": "retract"})
    assert events[0]["to"] is None and "4" not in events[0]["text"].replace("{s1}", "")
    assert state["players"][1]["hand"] == [4, 6] and state["players"][1]["deck"] == deck
    assert {"type": "draw"} not in GAME.legal(state, 1)
    state, _ = play(state, 1, {"type": "stack", "cards": [4, 6]})
    state, _ = play(state, 1, {"type": "seal"})
    assert pl.plan_of(state["planning"], 1) == [[4, 6]]


def test_no_retract_after_a_waiting_seat_planned_around_the_stacks() -> None:
    state = new_game(3, start=0, planning="ordered")
    state = plan(state, 0, [[3]])
    state = plan(state, 1, [[2]])
    assert GAME.legal(state, 0) == []
    assert expect_error(state, 0, {"type": "retract"}) == "already_committed"


def test_others_see_only_the_status_of_a_seat_still_drawing() -> None:
    state, _ = play(new_game(4), 1, {"type": "draw"})
    public = GAME.view(state, 0)["players"][1]
    assert public["planning"] == "planning" and public["stacks"] == []
    assert GAME.view(state, 0) == GAME.view(new_game(4), 0)
