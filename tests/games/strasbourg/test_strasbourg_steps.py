"""Steps A–I: revealing, passing, privileges, ranking, actions, returns, chapel and edifice,
and the council phase — including the rulebook's examples."""

from __future__ import annotations

import copy
from typing import Any

from server.games.strasbourg.data import components

from .helpers import (
    GAME,
    answer,
    everyone_passes,
    expect_error,
    new_game,
    plan_all,
    play,
    set_guilds,
)

NICOLE, PETER, SANDRA, THOMAS = 0, 1, 2, 3


def vintners_step_b(
    stacks: dict[int, list[list[int]]], seats: int = 4, start: int = 0
) -> dict[str, Any]:
    """Round 1 at step B (Vintners) after everyone passed step A."""
    state = set_guilds(new_game(seats, start=start), 0)  # card 1: Vintners, Smiths, Bakers
    state = plan_all(state, stacks)
    state = everyone_passes(state)
    assert components().round_cards[state["cards"][0]][0] == "vintners"
    return state


def reveal_all(state: dict[str, Any], which: dict[int, int] | None = None) -> dict[str, Any]:
    for _ in range(state["seats"]):
        (seat,) = GAME.to_act(state)
        state, _ = play(state, seat, {"type": "reveal", "stack": (which or {}).get(seat, 0)})
    return state


def test_rulebook_ranking_example_thomas_nicole_sandra_peter() -> None:
    state = vintners_step_b({NICOLE: [[5]], PETER: [[2, 1]], SANDRA: [[5]], THOMAS: [[6]]})
    assert GAME.to_act(state) == {NICOLE}
    state = reveal_all(state)
    assert state["ranking"] == [THOMAS, NICOLE, SANDRA, PETER]
    assert state["start"] == THOMAS  # 1st place takes the starting player marker at once
    assert state["council"]["vintners"] == THOMAS
    goods = [p["goods"]["vintners"] for p in state["players"]]
    assert goods == [1, 0, 0, 1]  # master and journeyman took a cask
    kinds = [(c["seat"], c["kind"], c["role"]) for c in state["choices"]]
    assert kinds == [
        (THOMAS, "build", "master"),
        (NICOLE, "build", "journeyman"),
        (SANDRA, "apprentice", "apprentice"),
        (PETER, "return", None),
    ]


def test_rulebook_guild_actions_and_peter_returning_his_two() -> None:
    stacks = {NICOLE: [[5]], PETER: [[2, 1]], SANDRA: [[5]], THOMAS: [[6], [1]]}
    state = reveal_all(vintners_step_b(stacks))
    prices = components().prices
    four = next(
        c["cell"]
        for c in GAME.legal(state, THOMAS)
        if c["type"] == "build" and prices[tuple(c["cell"])] == 4
    )
    state = answer(state, {"type": "build", "cell": four})
    assert state["players"][THOMAS]["coins"] == 1 and state["city"][four[0]][four[1]] == THOMAS
    nicole_cells = [c["cell"] for c in GAME.legal(state, NICOLE) if c["type"] == "build"]
    assert four not in nicole_cells and {prices[tuple(c)] for c in nicole_cells} == {3, 4}
    state = answer(state, {"type": "build", "cell": nicole_cells[0]})
    assert GAME.legal(state, SANDRA)[-1] == {"type": "take_good"}
    state = answer(state, {"type": "take_good"})
    assert state["players"][SANDRA]["goods"]["vintners"] == 1
    assert state["players"][SANDRA]["coins"] == 5
    assert GAME.legal(state, PETER) == [
        {"type": "return_card", "card": 1},
        {"type": "return_card", "card": 2},
        {"type": "return_none"},
    ]
    out_before = state["players"][PETER]["out"]
    state = answer(state, {"type": "return_card", "card": 2})
    assert state["players"][PETER]["deck"][-1] == 2  # bottom of the deck
    assert state["players"][PETER]["out"] == out_before + 1  # the 1 goes in the box
    assert state["step"] == 2 and GAME.to_act(state) == {THOMAS}  # step C, Thomas first


def test_the_apprentice_builds_or_takes_a_good_not_both() -> None:
    state = reveal_all(
        vintners_step_b({NICOLE: [[5]], PETER: [[2, 1]], SANDRA: [[5]], THOMAS: [[6]]})
    )
    state = answer(state, {"type": "decline"})
    state = answer(state, {"type": "decline"})
    cell = GAME.legal(state, SANDRA)[0]["cell"]
    state = answer(state, {"type": "build", "cell": cell})
    assert state["players"][SANDRA]["goods"]["vintners"] == 0
    assert state["choices"][0]["seat"] == PETER


def test_the_starting_player_wins_every_tie() -> None:
    state = vintners_step_b({NICOLE: [[1]], PETER: [[4]], SANDRA: [[4]], THOMAS: [[1]]}, start=2)
    state = reveal_all(state)
    assert state["ranking"] == [SANDRA, PETER, THOMAS, NICOLE]


def test_passers_get_nothing_and_no_card_back() -> None:
    state = vintners_step_b({NICOLE: [[2]], PETER: [[3]], SANDRA: [[4]], THOMAS: [[5]]})
    state, _ = play(state, NICOLE, {"type": "pass"})
    state, _ = play(state, PETER, {"type": "reveal", "stack": 0})
    state, _ = play(state, SANDRA, {"type": "pass"})
    state, _ = play(state, THOMAS, {"type": "reveal", "stack": 0})
    assert state["ranking"] == [THOMAS, PETER]
    assert [c["seat"] for c in state["choices"]] == [THOMAS, PETER]
    assert state["players"][NICOLE]["stacks"] == [[2]]


def test_when_everyone_passes_the_starting_player_stays() -> None:
    state = vintners_step_b({NICOLE: [[2]], PETER: [[3]]}, start=1)
    state = everyone_passes(state)
    assert state["start"] == PETER and state["step"] == 2


def test_seats_without_stacks_pass_automatically() -> None:
    state = vintners_step_b({PETER: [[3]]})
    assert GAME.to_act(state) == {PETER}
    assert state["influence"]["passed"] == [True, False, False, False]


def test_step_a_gives_nobility_to_first_and_church_to_second() -> None:
    state = new_game(4, start=0)
    state = plan_all(state, {1: [[3]], 2: [[5]], 3: [[1]]})  # seat 0 passes automatically
    for seat in (1, 2, 3):
        state, _ = play(state, seat, {"type": "reveal", "stack": 0})
    assert state["council"]["nobility"] == SANDRA and state["council"]["church"] == PETER
    assert [c["seat"] for c in state["choices"]] == [THOMAS]  # 3rd revealed, no action
    assert state["start"] == SANDRA


def test_three_players_have_no_journeyman() -> None:
    state = vintners_step_b({0: [[5]], 1: [[4]], 2: [[3]]}, seats=3)
    state = reveal_all(state)
    roles = [(c["seat"], c["kind"], c["role"]) for c in state["choices"]]
    assert roles == [(0, "build", "master"), (1, "apprentice", "apprentice"), (2, "return", None)]
    assert [p["goods"]["vintners"] for p in state["players"]] == [1, 0, 0]


def test_a_master_who_cannot_pay_may_only_decline() -> None:
    state = copy.deepcopy(vintners_step_b({NICOLE: [[5]]}))
    state["players"][NICOLE]["coins"] = 2
    state, _ = play(state, NICOLE, {"type": "reveal", "stack": 0})
    assert GAME.legal(state, NICOLE) == [{"type": "decline"}]
    assert expect_error(state, NICOLE, {"type": "build", "cell": [0, 3]}) == "cannot_afford"


def test_privileges_defer_a_decision_repeatedly_as_in_the_rulebook() -> None:
    # Thomas starts; Thomas and Nicole give up privileges, Peter reveals, Sandra passes,
    # Thomas gives up another, Nicole has none left and must decide before Thomas.
    state = vintners_step_b({NICOLE: [[1]], PETER: [[2]], SANDRA: [[3]], THOMAS: [[4]]}, start=3)
    state = copy.deepcopy(state)
    state["players"][THOMAS]["privileges"] = 2
    state["players"][NICOLE]["privileges"] = 1
    state["start"] = THOMAS
    state["influence"]["start"] = THOMAS
    state["influence"]["queue"] = [THOMAS, NICOLE, PETER, SANDRA]
    state, events = play(state, THOMAS, {"type": "privilege"})
    assert events[0]["text"] == "{s3} gave up a privilege to decide later"
    state, _ = play(state, NICOLE, {"type": "privilege"})
    state, _ = play(state, PETER, {"type": "reveal", "stack": 0})
    state, _ = play(state, SANDRA, {"type": "pass"})
    state, _ = play(state, THOMAS, {"type": "privilege"})
    assert GAME.to_act(state) == {NICOLE}
    assert {"type": "privilege"} not in GAME.legal(state, NICOLE)
    state, _ = play(state, NICOLE, {"type": "reveal", "stack": 0})
    assert {"type": "privilege"} not in GAME.legal(state, THOMAS)  # nobody left to wait for
    state, _ = play(state, THOMAS, {"type": "reveal", "stack": 0})
    assert state["players"][THOMAS]["privileges"] == 0
    assert state["ranking"] == [THOMAS, PETER, NICOLE]


def test_merchant_sells_weapon_cask_and_shoe_for_twelve_coins() -> None:
    state = everyone_passes(vintners_step_b({NICOLE: [[5], [6]]}))  # step B: nobody
    assert state["step"] == 2
    state = copy.deepcopy(state)
    state["players"][NICOLE]["goods"].update(smiths=1, vintners=1, shoemakers=1)
    coins = state["players"][NICOLE]["coins"]
    state, _ = play(state, NICOLE, {"type": "reveal", "stack": 0})
    assert state["council"]["merchants"] is None  # step C gives no council seat
    for guild in ("smiths", "vintners", "shoemakers"):
        state = answer(state, {"type": "sell", "guild": guild})
    assert GAME.legal(state, NICOLE) == [{"type": "done"}]
    state = answer(state, {"type": "done"})
    assert state["players"][NICOLE]["coins"] == coins + 12
    assert state["step"] == 3


def test_step_g_also_takes_the_merchants_seat() -> None:
    state = vintners_step_b({PETER: [[1], [2], [3], [4], [5], [6]]})
    while state["step"] < 6:
        if GAME.to_act(state) == {PETER} and state["phase"] == "influence":
            state, _ = play(state, PETER, {"type": "pass"})
        else:
            state = answer(state, GAME.legal(state, next(iter(GAME.to_act(state))))[-1])
    state, _ = play(state, PETER, {"type": "reveal", "stack": 0})
    assert state["council"]["merchants"] == PETER
    assert state["choices"] == [{"seat": PETER, "kind": "sell", "guild": None, "role": None}]


def _to_step(state: dict[str, Any], step: int) -> dict[str, Any]:
    while state["step"] < step:
        state = everyone_passes(state)
    return state


def test_church_holder_builds_a_chapel_and_nobility_holder_the_rounds_edifice() -> None:
    state = _to_step(vintners_step_b({}, start=2), 7)
    assert state["council"]["church"] == THOMAS
    assert GAME.to_act(state) == {THOMAS}
    sites = GAME.legal(state, THOMAS)
    assert len(sites) == len(components().chapel_sites)
    state = answer(state, {"type": "chapel", "site": 4})
    assert state["chapels"] == [4] and state["step"] == 8
    assert GAME.to_act(state) == {SANDRA}
    assert len(GAME.legal(state, SANDRA)) == 7
    state = answer(state, {"type": "edifice", "cell": [3, 4]})
    assert state["built"] == [[3, 4, state["edifice_order"][0]]]
    assert state["round"] == 1 and state["phase"] == "planning"


def test_council_phase_scores_members_and_gives_privileges_to_the_most() -> None:
    state = _to_step(vintners_step_b({}, start=2), 7)
    state = copy.deepcopy(state)
    state["council"]["smiths"] = SANDRA
    state["council"]["bakers"] = THOMAS
    state = answer(state, {"type": "chapel", "site": 0})
    state = answer(state, {"type": "edifice", "cell": [1, 1]})
    assert [p["prestige"] for p in state["players"]] == [0, 0, 2, 2]
    assert [p["privileges"] for p in state["players"]] == [0, 0, 1, 1]


def test_unrevealed_stacks_leave_the_game_at_round_end() -> None:
    state = vintners_step_b({NICOLE: [[3, 4], [6]]})
    state = _to_step(state, 7)
    state = answer(state, {"type": "chapel", "site": 0})
    state = answer(state, {"type": "edifice", "cell": [1, 1]})
    assert state["players"][NICOLE]["stacks"] == [] and state["players"][NICOLE]["out"] == 3
    assert len(state["players"][NICOLE]["deck"]) == 21


def test_a_seat_placing_on_an_occupied_council_seat_returns_the_occupant() -> None:
    state = new_game(4, start=0)
    state = plan_all(state, {2: [[6]], 3: [[5]]})  # seats 0 and 1 pass automatically
    state, _ = play(state, 2, {"type": "reveal", "stack": 0})
    state, events = play(state, 3, {"type": "reveal", "stack": 0})
    texts = [e["text"] for e in events]
    assert "{s2} took the Nobility seat (returning {s0}'s member)" in texts
    assert "{s3} took the Church seat (returning {s1}'s member)" in texts


def test_rulebook_council_example_two_points_each_and_privileges_for_the_tied_leaders() -> None:
    state = _to_step(vintners_step_b({}, start=2), 7)
    state = copy.deepcopy(state)
    state["council"].update(
        nobility=THOMAS,
        vintners=THOMAS,
        church=NICOLE,
        smiths=NICOLE,
        bakers=PETER,
        butchers=SANDRA,
    )
    state = answer(state, {"type": "chapel", "site": 0})
    state = answer(state, {"type": "edifice", "cell": [1, 1]})
    assert [p["prestige"] for p in state["players"]] == [
        2,
        1,
        1,
        2,
    ]  # Nicole, Peter, Sandra, Thomas
    assert [p["privileges"] for p in state["players"]] == [1, 0, 0, 1]


def test_no_privilege_when_everyone_else_left_to_decide_has_no_stack() -> None:
    state = copy.deepcopy(vintners_step_b({NICOLE: [[2]], PETER: [[3]]}))
    state["players"][NICOLE]["privileges"] = 1
    state["players"][PETER]["privileges"] = 1
    assert {"type": "privilege"} in GAME.legal(state, NICOLE)  # Peter still has a stack
    state, _ = play(state, NICOLE, {"type": "reveal", "stack": 0})
    assert GAME.legal(state, PETER) == [{"type": "reveal", "stack": 0}, {"type": "pass"}]
