"""Final scoring: the rulebook's end-game example, every task kind, and the tie rules."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import Result
from server.games.strasbourg.data import Task, components
from server.games.strasbourg.scoring import task_fulfilled

from .helpers import GAME, final_board

NICOLE, PETER, SANDRA, THOMAS = 0, 1, 2, 3


def scored(state: dict[str, Any]) -> Result:
    """The result of a finished game."""
    result = GAME.result(state)
    assert result is not None, "the game is over"
    return result


def build(state: dict[str, Any], cell: tuple[int, int], key: str) -> None:
    state["built"].append([cell[0], cell[1], components().edifice_index(key)])


def test_rulebook_end_game_example_points_per_player() -> None:
    state = final_board({
        (2, 4): THOMAS, (3, 5): THOMAS, (4, 7): THOMAS,  # two next to the Inn, one by the Fountain
        (4, 4): PETER, (0, 0): PETER,  # one next to the Inn and the chapel
        (4, 3): SANDRA, (5, 3): SANDRA,  # both next to the chapel
        (2, 5): NICOLE,  # diagonal to the Inn
    })  # fmt: skip
    build(state, (3, 4), "inn")
    build(state, (4, 6), "fountain")
    state["chapels"] = [components().chapel_sites.index((4, 3))]
    parts = scored(state)["breakdown"]
    assert (parts[PETER]["city"], parts[PETER]["chapels"], parts[PETER]["edifices"]) == (2, 1, 4)
    assert (parts[SANDRA]["city"], parts[SANDRA]["chapels"], parts[SANDRA]["edifices"]) == (2, 2, 0)
    assert (parts[THOMAS]["city"], parts[THOMAS]["edifices"]) == (3, 8 + 3)
    assert (parts[NICOLE]["city"], parts[NICOLE]["edifices"]) == (1, 0)


def test_scores_add_council_prestige_privileges_and_tasks() -> None:
    state = final_board({(0, 0): 0, (0, 1): 0, (0, 2): 0})
    line = next(t.id for t in components().tasks if t.kind == "orthogonal_line")
    majority = next(t.id for t in components().tasks if t.kind == "all_guilds")
    state["players"][0].update(prestige=7, privileges=2, tasks=[line, majority])
    result = scored(state)
    assert result["breakdown"][0] == {
        "council": 7,
        "city": 3,
        "chapels": 0,
        "edifices": 0,
        "privileges": 2,
        "tasks": 5 - 3,
    }
    assert result["scores"][0] == 7 + 3 + 2 + 2
    assert result["winners"] == [0]


def task(kind: str, param: str | None = None) -> Task:
    return next(t for t in components().tasks if t.kind == kind and t.param == param)


CASES = [
    # (kind, param, own cells, extra setup, fulfilled)
    ("orthogonal_line", None, [(0, 0), (0, 1), (0, 2)], None, True),
    ("orthogonal_line", None, [(0, 3), (1, 3), (2, 3)], None, True),
    ("orthogonal_line", None, [(0, 0), (0, 1), (0, 3)], None, False),
    ("orthogonal_line", None, [(0, 0), (0, 1), (1, 2)], None, False),
    ("diagonal_line", None, [(0, 2), (1, 3), (2, 4)], None, True),
    ("diagonal_line", None, [(0, 6), (1, 5), (2, 4)], None, True),
    ("diagonal_line", None, [(0, 2), (1, 3), (3, 5)], None, False),
    ("guild_members", "bakers", [(5, 0), (5, 1), (3, 1)], None, True),
    ("guild_members", "bakers", [(5, 0), (5, 1), (0, 0)], None, False),
    ("all_guilds", None, [(0, 0), (0, 3), (0, 6), (3, 5), (5, 0)], None, True),
    ("all_guilds", None, [(0, 0), (0, 3), (0, 6), (3, 5), (3, 6)], None, False),
    ("edifice_neighbours", "inn", [(2, 4), (3, 3)], "inn_at_3_4", True),
    ("edifice_neighbours", "inn", [(2, 4), (2, 5)], "inn_at_3_4", False),
    ("edifice_cluster", None, [(2, 4), (3, 3), (4, 4)], "inn_at_3_4", True),
    ("edifice_cluster", None, [(2, 4), (3, 3), (0, 0)], "inn_at_3_4", False),
    ("edifice_variety", None, [(0, 1), (0, 4), (0, 7), (3, 3)], "four_edifices", True),
    ("edifice_variety", None, [(0, 1), (0, 4), (0, 7), (0, 0)], "four_edifices", False),
    ("city_majority", None, [(0, 0), (0, 1)], "rival_has_one", True),
    ("city_majority", None, [(0, 0)], "rival_has_one", False),
    ("council", None, [], "three_seats", True),
    ("council", None, [], "two_seats", False),
]


def _extra(state: dict[str, Any], extra: str | None) -> None:
    if extra == "inn_at_3_4":
        build(state, (3, 4), "inn")
    elif extra == "four_edifices":
        for cell, key in zip(
            [(1, 1), (1, 4), (1, 7), (3, 4)],
            ["inn", "granary", "fountain", "bathhouse"],
            strict=True,
        ):
            build(state, cell, key)
    elif extra == "rival_has_one":
        state["city"][5][8] = 1
    elif extra in ("three_seats", "two_seats"):
        for key in ["smiths", "bakers", "church"][: 3 if extra == "three_seats" else 2]:
            state["council"][key] = 0


@pytest.mark.parametrize(("kind", "param", "cells", "extra", "fulfilled"), CASES)
def test_task_kinds(
    kind: str, param: str | None, cells: list[tuple[int, int]], extra: str | None, fulfilled: bool
) -> None:
    state = final_board(dict.fromkeys(cells, 0))
    _extra(state, extra)
    assert task_fulfilled(state, 0, task(kind, param)) is fulfilled


def test_council_task_needs_four_members_with_three_players_and_two_with_five() -> None:
    for seats, need in ((3, 4), (5, 2)):
        state = final_board({}, seats=seats)
        for key in ["smiths", "bakers", "church", "nobility"][:need]:
            state["council"][key] = 0
        assert task_fulfilled(state, 0, task("council"))
        state["council"][["smiths", "bakers", "church", "nobility"][need - 1]] = None
        assert not task_fulfilled(state, 0, task("council"))


def test_a_task_scores_once_even_if_fulfilled_twice() -> None:
    state = final_board(dict.fromkeys([(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)], 0))
    state["players"][0]["tasks"] = [task("orthogonal_line").id]
    assert scored(state)["breakdown"][0]["tasks"] == 5


def test_a_tie_goes_to_more_city_members() -> None:
    state = final_board({(0, 0): 0, (0, 1): 0, (5, 8): 1})
    state["players"][1]["prestige"] = 1
    result = scored(state)
    assert result["scores"][:2] == [2, 2]
    assert result["winners"] == [0]


def test_a_full_tie_is_a_shared_win() -> None:
    state = final_board({(0, 0): 0, (5, 8): 1})
    state["players"][2]["privileges"] = 1
    state["players"][3]["privileges"] = 1
    assert scored(state)["winners"] == [0, 1]


def test_no_result_before_the_game_ends() -> None:
    assert GAME.result(GAME.new(3, "x", {})) is None
