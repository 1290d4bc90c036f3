"""Rule audit: one test per clause of docs/rules/strasbourg.md that no other test pinned.

Each test sets up the exact situation through real commands (``helpers.py``) where it can,
and asserts the outcome the rules text demands; the clause is quoted in the docstring."""

from __future__ import annotations

import copy
from typing import Any

from server.engine import Result
from server.games.strasbourg.data import chapel_cells, components
from server.games.strasbourg.scoring import task_fulfilled
from server.games.strasbourg.state import COUNCIL_SEATS

from .helpers import (
    GAME,
    answer,
    everyone_passes,
    expect_error,
    final_board,
    new_game,
    plan_all,
    play,
    set_guilds,
)

NICOLE, PETER, SANDRA, THOMAS = 0, 1, 2, 3
State = dict[str, Any]

# ----- the components exactly as the rules reference prints them -------------------------

RULES_GRID = (
    "MMMVVVSSS",
    "MEMVEVSES",
    "MMMVVVSSS",
    "MKKKEBBSB",
    "MKEKVBEBB",
    "KKKKEBBBB",
)
BASE_PRICE = {"M": 4, "V": 3, "S": 2, "B": 2, "K": 1}


def test_board_grid_and_chapel_sites_are_those_of_the_rules() -> None:
    """S-2.1, S-2.3: City board (R): the 9 x 6 grid and the 8 chapel sites listed in the rules."""
    comp = components()
    assert comp.grid == RULES_GRID
    assert comp.chapel_sites == (
        (0, 2), (0, 5), (2, 0), (2, 3), (2, 7), (3, 5), (4, 0), (4, 3),
    )  # fmt: skip
    # "Chapel sites sit on grid corners and touch the 4 cells around that corner"
    assert sorted(chapel_cells((4, 3))) == [(4, 3), (4, 4), (5, 3), (5, 4)]


def test_every_guild_space_costs_its_base_price_plus_one_next_to_a_building_space() -> None:
    """S-2.2: 'Smiths 4, Vintners 3, Shoemakers 2, Butchers 2, Bakers 1; +1 if the space is
    orthogonally adjacent to a building space.'"""
    building = {(r, c) for r, row in enumerate(RULES_GRID) for c, x in enumerate(row) if x == "E"}
    expected = {}
    for r, row in enumerate(RULES_GRID):
        for c, letter in enumerate(row):
            if letter == "E":
                continue
            near = {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & building
            expected[(r, c)] = BASE_PRICE[letter] + (1 if near else 0)
    assert components().prices == expected
    # spot checks that the formula above cannot hide
    prices = components().prices
    assert (prices[(1, 0)], prices[(0, 6)], prices[(0, 7)]) == (5, 2, 3)
    assert (prices[(3, 5)], prices[(5, 8)], prices[(4, 1)], prices[(3, 1)]) == (3, 2, 2, 1)
    assert prices[(0, 0)] == 4 and prices[(2, 2)] == 4  # diagonal to (1,1) is no surcharge


def test_council_has_eight_seats() -> None:
    """S-1.1: 'Council: 8 seats — Nobility, Church, Merchants, and one per guild.'"""
    assert sorted(COUNCIL_SEATS) == sorted(
        [
            "nobility",
            "church",
            "merchants",
            "smiths",
            "vintners",
            "shoemakers",
            "butchers",
            "bakers",
        ]
    )


def test_goods_values_are_those_of_the_rules() -> None:
    """S-1.3: 'Smiths weapon 5, Vintners cask 4, Shoemakers shoe 3, Butchers meat 2, Bakers bread
    1.'"""
    goods = {k: (g.good, g.good_value) for k, g in components().guilds.items()}
    assert goods == {
        "smiths": ("weapon", 5),
        "vintners": ("cask", 4),
        "shoemakers": ("shoe", 3),
        "butchers": ("meat", 2),
        "bakers": ("bread", 1),
    }


def test_round_cards_and_edifices_are_those_of_the_rules() -> None:
    """S-R.1, S-R.2: Round cards (R): B, D, F guilds per card; edifice values 6, 5, 4, 3, 2."""
    assert components().round_cards == (
        ("vintners", "smiths", "bakers"),
        ("shoemakers", "butchers", "vintners"),
        ("bakers", "shoemakers", "smiths"),
        ("butchers", "vintners", "shoemakers"),
        ("smiths", "bakers", "butchers"),
    )
    values = {e.name: e.value for e in components().edifices}
    assert values == {"Town Hall": 6, "Granary": 5, "Inn": 4, "Fountain": 3, "Bathhouse": 2}


def test_task_card_values_are_those_of_the_table() -> None:
    """S-T.1 … S-T.9: Task cards (25): the value column of the rules table, per kind (and per
    guild)."""
    by_kind: dict[str, set[int]] = {}
    for t in components().tasks:
        key = f"{t.kind}:{t.param}" if t.kind == "guild_members" else t.kind
        by_kind.setdefault(key, set()).add(t.value)
    assert by_kind == {
        "edifice_neighbours": {4},
        "guild_members:smiths": {7},
        "guild_members:vintners": {6},
        "guild_members:shoemakers": {5},
        "guild_members:butchers": {4},
        "guild_members:bakers": {3},
        "edifice_cluster": {7},
        "orthogonal_line": {5},
        "council": {6},
        "edifice_variety": {9},
        "diagonal_line": {6},
        "city_majority": {8},
        "all_guilds": {12},
    }
    named = sorted(t.param or "" for t in components().tasks if t.kind == "edifice_neighbours")
    assert named == sorted(e.key for e in components().edifices)  # one per edifice


# ----- planning --------------------------------------------------------------------------


def test_no_drawing_from_an_empty_deck() -> None:
    """S-4.2, S-4.3: 'Drawn cards never go back; the deck must last five rounds': an empty deck
    offers
    only stopping."""
    state = copy.deepcopy(new_game(4, start=0))
    state["players"][0]["deck"] = []
    assert GAME.legal(state, 0) == [{"type": "stop"}]  # S-4.2: stopping at once is allowed here
    assert expect_error(state, 0, {"type": "draw"}) == "unexpected_command"


def test_the_new_starting_player_acts_first_in_later_steps_and_plans_first_next_round() -> None:
    """S-5.3, S-4.7: '1st place becomes starting player at once' and ordered planning is 'starting
    player
    first, then clockwise'."""
    state = new_game(4, start=0, planning="ordered")
    state = plan_all(state, {SANDRA: [[6]], THOMAS: [[2]]})
    assert GAME.to_act(state) == {SANDRA}  # seats 0 and 1 had no stack
    state, _ = play(state, SANDRA, {"type": "reveal", "stack": 0})
    state, events = play(state, THOMAS, {"type": "reveal", "stack": 0})
    assert state["start"] == SANDRA
    assert (state["council"]["nobility"], state["council"]["church"]) == (SANDRA, THOMAS)
    step_b = next(e for e in events if e["type"] == "StepStarted" and e["params"]["step"] == 1)
    assert step_b["params"]["seat"] == SANDRA
    # H and I go to whoever holds the Church and Nobility seats now
    assert state["step"] == 7 and GAME.to_act(state) == {THOMAS}
    state = answer(state, {"type": "chapel", "site": 0})
    assert GAME.to_act(state) == {SANDRA}
    state = answer(state, {"type": "edifice", "cell": [1, 1]})
    assert state["round"] == 1 and state["phase"] == "planning"
    assert GAME.to_act(state) == {SANDRA}


# ----- steps A–G -------------------------------------------------------------------------


def vintners_step_b(stacks: dict[int, list[list[int]]], seats: int = 4, start: int = 0) -> State:
    """Round 1 at step B (Vintners) after everyone passed step A."""
    state = set_guilds(new_game(seats, start=start), 0)
    state = plan_all(state, stacks)
    return copy.deepcopy(everyone_passes(state))


def reveal_all(state: State) -> tuple[State, list[Any]]:
    events: list[Any] = []
    step = state["step"]
    while state["phase"] == "influence" and state["step"] == step:
        (seat,) = GAME.to_act(state)
        state, events = play(state, seat, {"type": "reveal", "stack": 0})
    return state, events


def test_privileges_do_not_change_tie_order_the_starting_player_still_wins() -> None:
    """S-5.1, S-5.2: 'Ties go to the player closer to the starting player clockwise (the starting
    player
    wins all ties)' — also when tied players gave up a privilege and decided last."""
    stacks = {NICOLE: [[5]], PETER: [[1]], SANDRA: [[5]], THOMAS: [[5]]}
    state = vintners_step_b(stacks, start=SANDRA)
    state["players"][SANDRA]["privileges"] = 1
    state["players"][THOMAS]["privileges"] = 1
    state, _ = play(state, SANDRA, {"type": "privilege"})
    state, _ = play(state, THOMAS, {"type": "privilege"})
    state, _ = play(state, NICOLE, {"type": "reveal", "stack": 0})
    state, _ = play(state, PETER, {"type": "reveal", "stack": 0})
    state, _ = play(state, SANDRA, {"type": "reveal", "stack": 0})
    state, _ = play(state, THOMAS, {"type": "reveal", "stack": 0})
    assert state["ranking"] == [SANDRA, THOMAS, NICOLE, PETER]
    assert [p["privileges"] for p in state["players"]] == [0, 0, 0, 0]


def test_five_players_master_journeyman_apprentice_and_two_sit_out() -> None:
    """S-B.1 … S-B.3: B/D/F with 4–5 players: 1st Master, 2nd Journeyman, 3rd Apprentice; the rest
    get no
    action and may put one card back."""
    state = vintners_step_b({0: [[6]], 1: [[5]], 2: [[4]], 3: [[3]], 4: [[2]]}, seats=5)
    state, _ = reveal_all(state)
    assert state["ranking"] == [0, 1, 2, 3, 4]
    roles = [(c["seat"], c["kind"], c["role"]) for c in state["choices"]]
    assert roles == [
        (0, "build", "master"),
        (1, "build", "journeyman"),
        (2, "apprentice", "apprentice"),
        (3, "return", None),
        (4, "return", None),
    ]
    assert [p["goods"]["vintners"] for p in state["players"]] == [1, 1, 0, 0, 0]
    assert state["council"]["vintners"] == 0


def test_the_master_takes_the_guild_seat_returning_its_holder() -> None:
    """S-B.1, S-1.1: 'Master: member on that guild's council seat' and 'placing a family member on
    an
    occupied seat returns the previous one to its owner'."""
    state = vintners_step_b({NICOLE: [[2]], PETER: [[6]]})
    state["council"]["vintners"] = NICOLE
    state, _ = play(state, NICOLE, {"type": "reveal", "stack": 0})
    state, events = play(state, PETER, {"type": "reveal", "stack": 0})
    assert state["council"]["vintners"] == PETER
    taken = [e["params"] for e in events if e["type"] == "CouncilSeatTaken"]
    assert taken == [{"variant": "back", "seat": PETER, "council": "vintners", "returned": 0}]


def test_placement_needs_enough_coins_the_journeyman_keeps_his_good() -> None:
    """S-B.2, S-B.5: 'If you do not have sufficient Coins, you cannot perform this action': with 3
    coins
    only the 3-coin Vintners spaces; with 2 none (the journeyman has his cask anyway)."""
    state = vintners_step_b({NICOLE: [[6]], PETER: [[5]]})
    state["players"][NICOLE]["coins"] = 3
    state["players"][PETER]["coins"] = 2
    state, _ = reveal_all(state)
    prices = components().prices
    cells = [c["cell"] for c in GAME.legal(state, NICOLE) if c["type"] == "build"]
    assert cells and {prices[tuple(c)] for c in cells} == {3}
    state = answer(state, {"type": "build", "cell": cells[0]})
    assert state["players"][NICOLE]["coins"] == 0
    assert GAME.legal(state, PETER) == [{"type": "decline"}]
    assert state["players"][PETER]["goods"]["vintners"] == 1


def test_an_apprentice_who_cannot_pay_takes_the_good() -> None:
    """S-B.3: 'Apprentice: either 1 good or a placement' — without coins only the good."""
    state = vintners_step_b({NICOLE: [[6]], PETER: [[5]], SANDRA: [[4]]})
    state["players"][SANDRA]["coins"] = 2
    state, _ = reveal_all(state)
    state = answer(state, {"type": "decline"})
    state = answer(state, {"type": "decline"})
    assert GAME.legal(state, SANDRA) == [{"type": "take_good"}]
    assert expect_error(state, SANDRA, {"type": "decline"}) == "unexpected_command"
    state = answer(state, {"type": "take_good"})
    assert state["players"][SANDRA]["goods"]["vintners"] == 1


def test_acting_players_turned_over_cards_leave_the_game() -> None:
    """S-5.4: 'Turned-over cards leave the game' (only non-actors may keep one)."""
    state = vintners_step_b({NICOLE: [[6, 1], [2]], PETER: [[5]]})
    out = [p["out"] for p in state["players"]]
    state, _ = reveal_all(state)
    state = answer(state, {"type": "decline"})
    state = answer(state, {"type": "decline"})
    assert state["step"] == 2
    assert state["players"][NICOLE]["out"] == out[NICOLE] + 2
    assert state["players"][PETER]["out"] == out[PETER] + 1
    assert state["players"][NICOLE]["spent"] == [1, 6]
    assert not state["choices"]  # nobody was offered to put a card back


def _to_merchants_step(state: State, step: int) -> State:
    while state["step"] < step:
        if state["phase"] == "influence":
            state = everyone_passes(state)
        else:
            (seat,) = GAME.to_act(state)
            state, _ = play(state, seat, GAME.legal(state, seat)[-1])
    return state


def test_step_e_sells_without_a_council_seat_and_second_place_may_keep_a_card() -> None:
    """S-C.1, S-C.2, S-5.4: 'C/E/G: 1st may sell any of their goods for their values; in G also
    takes the
    Merchants' seat' — in E no seat; the 2nd gets no action."""
    state = _to_merchants_step(vintners_step_b({NICOLE: [[5], [1]], PETER: [[2, 3]]}), 4)
    assert state["step"] == 4 and GAME.to_act(state) == {NICOLE}
    state["players"][NICOLE]["goods"].update(butchers=2, bakers=1)
    coins = state["players"][NICOLE]["coins"]
    state, _ = reveal_all(state)
    assert state["council"]["merchants"] is None
    assert [(c["seat"], c["kind"]) for c in state["choices"]] == [
        (NICOLE, "sell"),
        (PETER, "return"),
    ]
    state = answer(state, {"type": "sell", "guild": "butchers"})
    state = answer(state, {"type": "sell", "guild": "butchers"})
    state = answer(state, {"type": "sell", "guild": "bakers"})
    assert GAME.legal(state, NICOLE) == [{"type": "done"}]
    state = answer(state, {"type": "done"})
    assert state["players"][NICOLE]["coins"] == coins + 2 + 2 + 1
    assert state["players"][NICOLE]["goods"]["butchers"] == 0
    state = answer(state, {"type": "return_card", "card": 3})
    assert state["players"][PETER]["deck"][-1] == 3 and state["step"] == 5


# ----- H, I and the council phase --------------------------------------------------------


def _at_step_h(start: int = 2) -> State:
    state = set_guilds(new_game(4, start=start), 0)
    state = plan_all(state, {})  # nobody has a stack: steps A–G pass by themselves
    assert state["step"] == 7 and state["phase"] == "choice"
    return copy.deepcopy(state)


def test_chapel_and_edifice_go_only_on_open_sites_and_are_mandatory() -> None:
    """S-H.1, S-I.1: 'H: the Church seat holder places a chapel on an open chapel site. I: the
    Nobility
    seat holder places this round's edifice on an open building space.'"""
    state = _at_step_h()
    state["chapels"] = [4]
    state["built"] = [[3, 4, state["edifice_order"][1]]]
    sites = [c["site"] for c in GAME.legal(state, THOMAS)]
    assert sites == [0, 1, 2, 3, 5, 6, 7]
    assert expect_error(state, THOMAS, {"type": "chapel", "site": 4}) == "not_allowed"
    assert expect_error(state, THOMAS, {"type": "decline"}) == "unexpected_command"
    state = answer(state, {"type": "chapel", "site": 2})
    cells = [c["cell"] for c in GAME.legal(state, SANDRA)]
    assert [3, 4] not in cells and len(cells) == 6
    assert all(c["type"] == "edifice" for c in GAME.legal(state, SANDRA))
    state = answer(state, {"type": "edifice", "cell": [5, 4]})
    assert state["built"][-1] == [5, 4, state["edifice_order"][0]]  # this round's edifice


def test_council_privilege_goes_only_to_the_single_leader() -> None:
    """S-6.2: 'The player(s) with the most members there get 1 privilege each' — one leader: one."""
    state = _at_step_h()
    state["council"].update(nobility=SANDRA, church=THOMAS, smiths=SANDRA, bakers=SANDRA)
    state = answer(state, {"type": "chapel", "site": 0})
    state = answer(state, {"type": "edifice", "cell": [1, 1]})
    assert [p["prestige"] for p in state["players"]] == [0, 0, 3, 1]
    assert [p["privileges"] for p in state["players"]] == [0, 0, 1, 0]


def test_the_game_ends_after_the_council_phase_of_round_five() -> None:
    """S-7: 'Game end (after round 5)': round 5's council phase still scores, then no round 6."""
    state = set_guilds(new_game(4, start=2), 0)
    state["round"] = 4
    state = plan_all(state, {})
    state = answer(state, {"type": "chapel", "site": 0})
    (seat,) = GAME.to_act(state)
    state, events = play(state, seat, {"type": "edifice", "cell": [1, 1]})
    assert state["built"][-1] == [1, 1, state["edifice_order"][4]]
    types = [e["type"] for e in events]
    assert "CouncilScored" in types and types[-1] == "GameEnded" and "RoundStarted" not in types
    assert state["phase"] == "over" and GAME.to_act(state) == set()
    result = GAME.result(state)
    assert result is not None
    assert [b["council"] for b in result["breakdown"]] == [0, 0, 1, 1]
    assert expect_error(state, 0, {"type": "draw"}) == "game_over"


# ----- final scoring ---------------------------------------------------------------------


def _result(state: State) -> Result:
    result = GAME.result(state)
    assert result is not None
    return result


def _edifice(state: State, cell: tuple[int, int], key: str) -> None:
    state["built"].append([cell[0], cell[1], components().edifice_index(key)])


def test_a_member_between_two_edifices_scores_both() -> None:
    """S-7.3: 'Each edifice its value x own members orthogonally adjacent.'"""
    state = final_board({(4, 4): 0, (3, 3): 0})
    _edifice(state, (3, 4), "inn")
    _edifice(state, (5, 4), "bathhouse")
    assert _result(state)["breakdown"][0]["edifices"] == 4 * 2 + 2 * 1


def test_every_unfulfilled_task_costs_three_and_a_fulfilled_one_scores_its_value() -> None:
    """S-7.5: 'Each kept task card its value if fulfilled, -3 if not.'"""
    state = final_board({(5, 0): 0, (5, 1): 0, (5, 2): 0})  # three bakers in a row
    tasks = {(t.kind, t.param): t.id for t in components().tasks}
    state["players"][0]["tasks"] = [
        tasks[("guild_members", "bakers")],  # fulfilled: 3
        tasks[("guild_members", "smiths")],  # -3
        tasks[("edifice_neighbours", "inn")],  # the Inn was never built: -3
    ]
    assert _result(state)["breakdown"][0]["tasks"] == 3 - 3 - 3


def test_council_task_needs_three_members_with_four_players() -> None:
    """S-T.5: 'Own members on the council: >=4 (3 players), >=3 (4), >=2 (5).'"""
    council = next(t for t in components().tasks if t.kind == "council")
    for seats, members, fulfilled in ((4, 3, True), (4, 2, False), (5, 2, True), (5, 1, False)):
        state = final_board({}, seats=seats)
        for key in ("smiths", "bakers", "church")[:members]:
            state["council"][key] = 0
        assert task_fulfilled(state, 0, council) is fulfilled, (seats, members)


def test_winner_by_points_even_with_fewer_city_members() -> None:
    """S-7.6: 'Most points wins; ties -> more members in the City' — the city only breaks ties."""
    state = final_board({(0, 0): 0, (0, 1): 0, (5, 8): 1})
    state["players"][1]["prestige"] = 2
    result = _result(state)
    assert result["scores"][:2] == [2, 3] and result["winners"] == [1]
