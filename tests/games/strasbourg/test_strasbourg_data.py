"""The component file: the shipped one is valid; malformed ones fail with a clear message."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from server.engine.data import DataError
from server.games.strasbourg.data import DATA_PATH, components, parse, parse_text


def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA_PATH.read_text())
    return data


def test_shipped_board_has_six_rows_of_nine_and_seven_building_spaces() -> None:
    comp = components()
    assert len(comp.grid) == 6 and all(len(row) == 9 for row in comp.grid)
    assert len(comp.building_spaces) == 7
    assert len(comp.guild_of_cell) == 6 * 9 - 7


def test_prices_add_one_next_to_a_building_space() -> None:
    prices = components().prices
    assert prices[(0, 0)] == 4  # Smiths, no building space around
    assert prices[(0, 1)] == 5  # Smiths above the building space (1,1)
    vintners = {p for cell, p in prices.items() if components().guild_of_cell[cell] == "vintners"}
    assert vintners == {3, 4}  # the rulebook example: "paying 3 or 4 coins"
    assert prices[(5, 0)] == 1


def test_goods_values_match_the_rulebook_sum() -> None:
    guilds = components().guilds
    assert (
        guilds["smiths"].good_value
        + guilds["vintners"].good_value
        + guilds["shoemakers"].good_value
        == 12
    )


def test_twenty_five_tasks_of_nine_kinds_with_the_reconstructed_copies() -> None:
    kinds = Counter(t.kind for t in components().tasks)
    assert sum(kinds.values()) == 25
    assert kinds == {
        "edifice_neighbours": 5,
        "guild_members": 5,
        "edifice_cluster": 2,
        "orthogonal_line": 3,
        "council": 2,
        "edifice_variety": 2,
        "diagonal_line": 2,
        "city_majority": 2,
        "all_guilds": 2,
    }


def _broken(change: Any) -> str:
    data = raw()
    change(data)
    with pytest.raises(DataError) as err:
        parse(copy.deepcopy(data))
    return str(err.value)


def test_a_grid_with_a_missing_row_is_rejected() -> None:
    assert "6 rows" in _broken(lambda d: d["grid"].pop())


def test_a_grid_row_of_the_wrong_length_is_rejected() -> None:
    assert "row 2 must be 9" in _broken(lambda d: d["grid"].__setitem__(2, "MMMVVVSS"))


def test_a_grid_without_seven_building_spaces_is_rejected() -> None:
    message = _broken(lambda d: d["grid"].__setitem__(1, "MMMVEVSES"))
    assert "exactly 7 building spaces" in message and "has 6" in message


def test_an_unknown_letter_is_rejected() -> None:
    assert "unknown letter 'X'" in _broken(lambda d: d["grid"].__setitem__(0, "XMMVVVSSS"))


def test_a_non_positive_price_is_rejected() -> None:
    assert "price" in _broken(lambda d: d["guilds"][0].__setitem__("price", 0))


def test_a_price_that_is_not_a_number_is_rejected() -> None:
    assert "guilds[1].price must be int" in _broken(
        lambda d: d["guilds"][1].__setitem__("price", "3")
    )


def test_a_chapel_site_off_the_board_is_rejected() -> None:
    assert "chapel_sites[0]" in _broken(lambda d: d["chapel_sites"].__setitem__(0, [5, 8]))


def test_twenty_four_tasks_are_rejected() -> None:
    assert "25 cards" in _broken(lambda d: d["tasks"].pop())


def test_a_task_of_an_unknown_kind_is_rejected() -> None:
    assert "tasks[3].kind" in _broken(lambda d: d["tasks"][3].__setitem__("kind", "riches"))


def test_a_task_naming_an_unknown_edifice_is_rejected() -> None:
    assert "tasks[0].param" in _broken(lambda d: d["tasks"][0].__setitem__("param", "cathedral"))


def test_a_round_card_repeating_a_guild_is_rejected() -> None:
    change = lambda d: d["round_cards"][0].__setitem__("guilds", ["smiths", "smiths", "bakers"])  # noqa: E731
    assert "round_cards[0].guilds" in _broken(change)


def test_text_that_is_not_json_is_a_data_error() -> None:
    with pytest.raises(DataError) as err:
        parse_text("{ grid: ")
    assert "not valid JSON" in str(err.value)
