"""Views: an allowlist that shows each seat its own secrets and nobody else's."""

from __future__ import annotations

import copy
import json

from .helpers import GAME, new_game, plan, plan_all, play, stack_deck

PUBLIC_PLAYER_KEYS = {
    "seat",
    "prestige",
    "stacks",
    "planning",
    "city_members",
    "council_members",
    "revealed",
    "passed",
    "cards_left",
    "spent",
}


def test_every_view_says_the_board_and_cards_are_a_reconstruction_and_where() -> None:
    view = GAME.view(new_game(3), None)
    assert "reconstruction" in view["data_note"] and "seeds/strasbourg.json" in view["data_note"]
    assert view["data_file"] == "seeds/strasbourg.json"


def test_a_spectator_sees_no_holdings_and_no_commands() -> None:
    state = new_game(4)
    view = GAME.view(state, None)
    assert view["seat"] is None and view["me"] is None and view["legal"] == []
    assert view["to_act"] == [0, 1, 2, 3]
    assert all(set(p) == PUBLIC_PLAYER_KEYS for p in view["players"])


def test_a_seat_sees_its_own_coins_goods_privileges_and_tasks() -> None:
    state = copy.deepcopy(new_game(4))
    state["players"][2]["goods"]["bakers"] = 2
    state["players"][2]["privileges"] = 1
    me = GAME.view(state, 2)["me"]
    assert me["coins"] == 5 and me["goods"]["bakers"] == 2 and me["privileges"] == 1
    assert [t["id"] for t in me["tasks"]] == state["players"][2]["tasks"]
    assert me["deck"] == 24  # a count: even the owner does not see the order


def test_others_tasks_and_their_number_do_not_show() -> None:
    state = new_game(4)
    more = copy.deepcopy(state)
    more["players"][1]["tasks"] = list(range(20, 25))
    assert json.dumps(GAME.view(state, 0)) == json.dumps(GAME.view(more, 0))
    assert GAME.view(state, 1) != GAME.view(more, 1)


def test_sealed_stack_sizes_are_public_and_their_values_are_not() -> None:
    state = plan(new_game(4), 1, [[6, 6], [1]])
    other = plan(new_game(4), 1, [[2, 3], [4]])
    assert GAME.view(state, 0)["players"][1]["stacks"] == [2, 1]
    assert json.dumps(GAME.view(state, 0)) == json.dumps(GAME.view(other, 0))
    assert GAME.view(state, 1)["me"]["stacks"] == [[6, 6], [1]]


def test_a_turned_over_stack_is_public_until_the_step_ends() -> None:
    state = plan_all(new_game(4, start=0), {0: [[4, 2], [1]], 1: [[3]]})
    state, _ = play(state, 0, {"type": "reveal", "stack": 0})
    assert GAME.view(state, 3)["players"][0]["revealed"] == [2, 4]
    assert GAME.view(state, 3)["players"][0]["stacks"] == [1]
    assert GAME.view(state, 3)["players"][0]["cards_left"] == 22


def test_legal_commands_go_only_to_the_seat_that_may_act() -> None:
    state = plan_all(new_game(4, start=2), {2: [[5]], 3: [[1]]})
    assert GAME.view(state, 2)["legal"] == [{"type": "reveal", "stack": 0}, {"type": "pass"}]
    assert [GAME.view(state, s)["legal"] for s in (0, 1, 3)] == [[], [], []]
    assert GAME.view(state, 0)["step"]["queue"] == [2, 3, 0, 1]


def test_drawn_cards_are_private_to_the_drawer() -> None:
    state = stack_deck(new_game(4), 3, [6])
    state, _ = play(state, 3, {"type": "draw"})
    assert GAME.view(state, 3)["me"]["hand"] == [6]
    assert "hand" not in GAME.view(state, 0)["players"][3]


def test_while_tasks_are_chosen_a_seat_sees_its_own_sealed_choice_only() -> None:
    state = GAME.new(3, "choose", {})
    kept = state["players"][0]["offer"][:2]
    state, _ = play(state, 0, {"type": "keep", "tasks": kept})
    assert [t["id"] for t in GAME.view(state, 0)["me"]["tasks"]] == kept
    assert GAME.view(state, 1)["me"]["tasks"] == []
    assert GAME.view(state, 1)["players"][0]["planning"] == "committed"


def test_once_the_game_is_over_every_seats_screen_is_everyones() -> None:
    state = copy.deepcopy(new_game(3))
    state["players"][1]["coins"] = 9
    state["players"][1]["goods"]["bakers"] = 2
    state["players"][1]["privileges"] = 1
    before = GAME.view(state, 0)
    assert all(set(p) == PUBLIC_PLAYER_KEYS for p in before["players"])  # still screened
    state["phase"] = "over"
    for viewer in (None, 0, 2):
        shown = GAME.view(state, viewer)["players"]
        assert [p["screen"] for p in shown] == [GAME.view(state, s)["me"] for s in range(3)]
    screen = GAME.view(state, None)["players"][1]["screen"]
    assert screen["coins"] == 9 and screen["goods"]["bakers"] == 2 and screen["privileges"] == 1
    assert [t["id"] for t in screen["tasks"]] == state["players"][1]["tasks"]
