"""Per-seat views: what each viewer may know, and nothing more."""

from __future__ import annotations

import copy
import json

from .helpers import GAME, act, fresh, plan_all

PUBLIC_KEYS = {
    "game", "seat", "seats", "options", "data_note", "phase", "round", "turn", "play_order",
    "prestige_guild", "prestige_crests_left", "guest_deck", "guilds", "players", "planning",
    "action", "my_plan", "to_act", "legal", "result",
}  # fmt: skip


def dump(view: dict) -> str:
    return json.dumps(view, sort_keys=True)


def test_every_view_has_the_documented_keys_and_the_data_note() -> None:
    state = fresh(3)
    for seat in (0, 1, 2, None):
        view = GAME.view(state, seat)
        assert set(view) == PUBLIC_KEYS
        assert "reconstruction" in view["data_note"] and "seeds/norenberc.json" in view["data_note"]


def test_other_players_talers_are_hidden_from_seats_and_spectators() -> None:
    state = fresh(3)
    state["players"][1]["talers"] = 31
    assert GAME.view(state, 1)["players"][1]["talers"] == 31
    for viewer in (0, 2, None):
        assert [p["talers"] for p in GAME.view(state, viewer)["players"]] == [
            25 if s == viewer else None for s in range(3)
        ]


def test_a_view_is_byte_identical_whatever_another_seats_hidden_information_is() -> None:
    state = fresh(4, "hid")
    state, _ = act(state, 2, {"type": "plan", "guilds": [1, 4]})
    other = copy.deepcopy(state)
    other["players"][2]["talers"] = 99
    other["planning"]["plans"][2] = [2, 3]
    other["deck"].reverse()
    other["rng"] += 1
    for viewer in (0, 1, 3, None):
        assert dump(GAME.view(state, viewer)) == dump(GAME.view(other, viewer))
    assert dump(GAME.view(state, 2)) != dump(GAME.view(other, 2))


def test_legal_commands_go_only_to_the_seat_that_may_act() -> None:
    state = fresh(3)
    state, _ = plan_all(state, {1: [2]})
    assert GAME.to_act(state) == {1}
    assert GAME.view(state, 1)["legal"] == GAME.legal(state, 1) != []
    assert GAME.view(state, 0)["legal"] == [] and GAME.view(state, None)["legal"] == []
    assert GAME.view(state, None)["action"] == {
        "guild": 2,
        "cards": [1],
        "acted": [],
        "actor": 1,
        "choice": None,
    }


def test_events_never_carry_a_plan_to_other_seats() -> None:
    state = fresh(3)
    _, events = act(state, 0, {"type": "plan", "guilds": [3]})
    for e in events:
        if "shoemakers" in e["text"]:
            assert e["to"] == [0]


def test_everyones_talers_are_shown_once_the_game_is_over() -> None:
    state = fresh(2)
    state["phase"] = "over"
    view = GAME.view(state, None)
    assert [p["talers"] for p in view["players"]] == [25, 25]
    assert view["result"] == GAME.result(state)
