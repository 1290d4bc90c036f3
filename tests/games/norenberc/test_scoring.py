"""Final scoring: the rulebook example, every majority tie rule, each sun citizen, winners."""

from __future__ import annotations

import pytest

from server.games.norenberc.scoring import (
    Holdings,
    crest_vp,
    majority_places,
    score_holdings,
    winners,
)

from .helpers import GAME, citizen, craftsman, fresh


def crafts(totals: list[int], tiles_each: int = 2) -> list[tuple[int, int]]:
    """Craftsmen giving the listed value total per guild (guild 1 first)."""
    found = []
    for guild, total in enumerate(totals, start=1):
        if total == 0:
            continue
        base, extra = divmod(total, tiles_each)
        found += [(guild, base + (1 if i < extra else 0)) for i in range(tiles_each)]
    return found


def test_the_rulebook_example_blue_25_yellow_35() -> None:
    # Totals as in the example (blue 9/0/15/32, orange 10/10/14/4, yellow 13/20/3/4); blue's
    # foreman (4) matches two of its craftsmen; orange and yellow tie in printers on value and
    # tiles. Crests: blue 5 distinct, orange 5 + engraver, yellow 4.
    blue = Holdings(
        talers=10,
        craftsmen=[(1, 4), (1, 5), (3, 5), (3, 5), (3, 5), (4, 4), (4, 7), (4, 7), (4, 7), (4, 7)],
        citizens=[("foreman", 4), ("apprentice", None)],
        guild_crests={1, 3, 4},
        prestige=2,
    )
    orange = Holdings(
        talers=20,
        craftsmen=[(1, 5), (1, 5), (2, 5), (2, 5), (3, 7), (3, 7), (4, 2), (4, 2)],
        citizens=[("engraver", None)],
        guild_crests={1, 2, 3, 4},
        prestige=1,
    )
    yellow = Holdings(
        talers=35,
        craftsmen=[(1, 6), (1, 7), (2, 7), (2, 7), (2, 6), (3, 3), (4, 2), (4, 2)],
        citizens=[("nobleman", 3), ("tax_collector", None)],
        guild_crests={1, 2},
        prestige=2,
    )
    breakdown = score_holdings([blue, orange, yellow], [1, 2, 3, 4])
    assert breakdown[0] == {
        "citizens": 3,
        "majorities": 11,
        "thirty": 2,
        "all_guilds": 0,
        "richest": 0,
        "crests": 9,
    }
    assert breakdown[2] == {
        "citizens": 6,
        "majorities": 14,
        "thirty": 0,
        "all_guilds": 5,
        "richest": 5,
        "crests": 5,
    }
    assert sum(breakdown[0].values()) == 25 and sum(breakdown[2].values()) == 35
    assert breakdown[1]["crests"] == 14 and breakdown[1]["all_guilds"] == 5


@pytest.mark.parametrize(
    ("totals", "vp"),
    [
        ({0: (13, 2), 1: (10, 2), 2: (9, 2)}, {0: 5, 1: 3, 2: 1}),
        ({0: (20, 2), 1: (10, 2)}, {0: 6, 1: 3}),  # empty 3rd goes to the 1st
        ({0: (20, 2)}, {0: 9}),  # empty 2nd and 3rd go to the 1st
        ({0: (10, 2), 1: (10, 3), 2: (9, 2)}, {1: 5, 0: 3, 2: 1}),  # more tiles wins the tie
        ({0: (10, 2), 1: (10, 2), 2: (9, 2)}, {0: 4, 1: 4, 2: 1}),  # tied 1st: no 2nd
        ({0: (10, 2), 1: (10, 2)}, {0: 4, 1: 4}),  # tied 1st: no VP passed on
        ({0: (10, 2), 1: (10, 2), 2: (10, 2), 3: (5, 1)}, {0: 4, 1: 4, 2: 4}),  # 3+ tied
        ({0: (32, 5), 1: (4, 2), 2: (4, 2)}, {0: 5, 1: 2, 2: 2}),  # tied 2nd: no 3rd
        ({0: (9, 2), 1: (8, 2), 2: (4, 2), 3: (4, 2)}, {0: 5, 1: 3, 2: 0, 3: 0}),  # tied 3rd
        ({0: (9, 2), 1: (8, 2), 2: (7, 2), 3: (4, 2)}, {0: 5, 1: 3, 2: 1}),  # 4th scores nothing
    ],
)
def test_majority_places_and_their_ties(
    totals: dict[int, tuple[int, int]], vp: dict[int, int]
) -> None:
    assert majority_places(totals)[0] == vp


def test_apprentice_counts_second_and_third_places_tied_or_not() -> None:
    _, place = majority_places({0: (9, 2), 1: (8, 2), 2: (4, 2), 3: (4, 2)})
    assert place == {0: 1, 1: 2, 2: 3, 3: 3}
    _, place = majority_places({0: (10, 2), 1: (10, 2), 2: (9, 2)})
    assert place == {0: 1, 1: 1, 2: 3}


def test_crest_table() -> None:
    assert [crest_vp(n) for n in range(9)] == [0, 0, 0, 2, 5, 9, 14, 20, 20]


def test_prestige_crests_and_engravers_are_distinct_crests() -> None:
    h = Holdings(guild_crests={1}, prestige=2, citizens=[("engraver", None)])
    assert score_holdings([h, Holdings()], [1, 2, 3])[0]["crests"] == crest_vp(4)


def test_thirty_plus_all_guilds_and_richest() -> None:
    a = Holdings(talers=40, craftsmen=[(1, 7), (1, 7), (1, 6), (1, 6), (1, 3), (2, 2), (3, 2)])
    b = Holdings(talers=40, craftsmen=[(2, 7)])
    c = Holdings(talers=12, craftsmen=[(3, 3)])
    breakdown = score_holdings([a, b, c], [1, 2, 3])
    assert breakdown[0]["thirty"] == 0 and breakdown[0]["all_guilds"] == 5
    a.craftsmen.append((1, 2))
    breakdown = score_holdings([a, b, c], [1, 2, 3])
    assert breakdown[0]["thirty"] == 2
    assert [b["richest"] for b in breakdown] == [2, 2, 0]
    breakdown = score_holdings([a, Holdings(talers=1), c], [1, 2, 3])
    assert [b["richest"] for b in breakdown] == [5, 0, 0]


def test_sun_citizens() -> None:
    h = Holdings(
        talers=39,
        craftsmen=[(1, 2), (2, 2), (3, 3)],
        citizens=[("nobleman", 2), ("nobleman", 3), ("tax_collector", None), ("foreman", 2)],
    )
    assert score_holdings([h], [1, 2, 3])[0]["citizens"] == 2 + 3 + 3 + 2


def test_winner_ties_break_on_tiles_then_value_then_share() -> None:
    a = Holdings(craftsmen=[(1, 5), (1, 5)])
    b = Holdings(craftsmen=[(1, 7)])
    c = Holdings(craftsmen=[(1, 4), (1, 5)])
    assert winners([10, 10, 9], [a, b, c]) == [0]
    assert winners([10, 9, 10], [a, b, c]) == [0]
    assert winners([10, 9, 10], [a, b, Holdings(craftsmen=[(2, 6), (2, 4)])]) == [0, 2]


def test_result_is_none_until_the_end_and_scores_every_seat() -> None:
    state = fresh(3)
    assert GAME.result(state) is None
    state["phase"] = "over"
    state["players"][0]["craftsmen"] = [craftsman(1, 7)]
    state["players"][0]["citizens"] = [citizen("nobleman", 2)]
    result = GAME.result(state)
    assert result is not None
    assert result["breakdown"][0]["citizens"] == 3 and result["breakdown"][0]["majorities"] == 9
    assert result["scores"] == [sum(b.values()) for b in result["breakdown"]]
