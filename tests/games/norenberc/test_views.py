"""Per-seat views: what each viewer may know, and nothing more."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from server.engine import Rng, seed_to_state
from server.games.norenberc.data import components
from server.games.norenberc.game import board_view
from server.games.norenberc.views import BOARD_PARTS

from .helpers import GAME, act, finish_round, fresh, plan_all

PUBLIC_KEYS = {
    "game", "seat", "seats", "options", "data_note", "phase", "round", "turn", "rule", "play_order",
    "prestige_guild", "prestige_crests_left", "guest_deck", "gone", "guilds", "players", "planning",
    "action", "my_plan", "to_act", "legal", "result", "score_rules", "score_now",
}  # fmt: skip


def dump(view: dict[str, Any]) -> str:
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


def _after_a_round_with_a_master_leaving() -> dict[str, Any]:
    """A 3-player game after round 1 in which nobody had the first guild's good."""
    state = fresh(3, "gone")
    good = components().good_of(1)
    for p in state["players"]:
        p["goods"].pop(good)
    state["houses"][0]["store"][good] += 3
    state, _ = finish_round(state)
    return state


def test_tiles_that_left_the_game_are_listed_for_everyone_in_order() -> None:
    start = fresh(3, "gone")
    assert all(GAME.view(start, v)["gone"] == [] for v in (0, 1, 2, None))
    master = start["houses"][0]["master"][0]
    window_one = [h["guests"][0] for h in start["houses"] if h["guests"][0] is not None]
    state = _after_a_round_with_a_master_leaving()
    assert state["box"] == [master, *window_one]
    for viewer in (0, 1, 2, None):
        gone = GAME.view(state, viewer)["gone"]
        assert [t["id"] for t in gone] == state["box"]
        assert gone[0] == {"id": master, **components().tiles[master]}


def test_citizens_left_unseen_at_setup_are_never_listed() -> None:
    state = _after_a_round_with_a_master_leaving()
    comps = components()
    in_play = set(state["deck"]) | set(state["box"])
    for h in state["houses"]:
        in_play |= {t for t in h["guests"] if t}
    unseen = [t for t in comps.citizens if t not in in_play]
    assert unseen  # 12 of the 26 citizens were drawn for 3 players
    listed = {t["id"] for t in GAME.view(state, None)["gone"]}
    assert not listed & set(unseen)


def test_gone_and_the_view_stay_identical_whatever_another_seats_hidden_information_is() -> None:
    state = _after_a_round_with_a_master_leaving()
    state, _ = act(state, 1, {"type": "plan", "guilds": [2, 3]})
    other = copy.deepcopy(state)
    other["players"][1]["talers"] += 40
    other["planning"]["plans"][1] = [1, 4]
    other["deck"].reverse()
    other["rng"] += 1
    for viewer in (0, 2, None):
        assert GAME.view(state, viewer)["gone"] != []
        assert dump(GAME.view(state, viewer)) == dump(GAME.view(other, viewer))
    assert dump(GAME.view(state, 1)) != dump(GAME.view(other, 1))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_board_view_is_the_full_view_in_every_part_it_has(seats: int) -> None:
    # The bots' play-outs read the board view instead of the full one: it must show them
    # exactly what the full view shows, in every state of a game (choices open, promo tiles,
    # a seat out for the round, the end).
    state = GAME.new(seats, f"board-{seats}", {**GAME.default_options(), "promo": seats % 2 == 1})
    rng = Rng(seed_to_state(f"board-{seats}"))
    checked = 0
    while True:
        for seat in range(seats):
            full = GAME.view(state, seat)
            board = board_view(state, seat)
            assert set(board) == set(BOARD_PARTS)
            assert board == {part: full[part] for part in BOARD_PARTS}
            checked += 1
        if GAME.result(state) is not None:
            break
        seat = min(GAME.to_act(state))
        legal = GAME.legal(state, seat)
        state, _ = GAME.apply(state, seat, legal[rng.below(len(legal))])
    assert checked > 50 * seats
