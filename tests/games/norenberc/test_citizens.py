"""Every citizen type with its star / moon / sun timing, including the interactive ones."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import RuleError
from server.games.norenberc.data import components

from .helpers import (
    GAME,
    act,
    citizen,
    craftsman,
    finish_round,
    fresh,
    plan_all,
    put_guest,
    set_master,
    types,
)
from .invariants import check_state


def hire_at(seats: int, guild: int, tile_id: str, seed: str = "c", seat: int = 0) -> dict[str, Any]:
    """A game where ``seat`` alone acts at ``guild`` with ``tile_id`` in window 1."""
    state = fresh(seats, seed)
    state, _ = plan_all(state, {seat: [guild]})
    put_guest(state, guild, 1, tile_id)
    return state


def hire(
    state: dict[str, Any], guild: int, seat: int = 0, to_front: bool = False
) -> tuple[dict[str, Any], list[Any]]:
    good = components().good_of(guild)
    state["players"][seat]["goods"][good] = state["players"][seat]["goods"].get(good, 0) + 1
    state["houses"][guild - 1]["store"][good] -= 1
    cmd = {"type": "hire", "window": 1, "payment": {good: 1}, "to_front": to_front}
    return act(state, seat, cmd)


def error(state: dict[str, Any], seat: int, cmd: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as err:
        act(state, seat, cmd)
    return err.value.code


def test_councillor_gives_an_agent_and_goes_back_into_the_deck() -> None:
    state = hire_at(3, 1, citizen("councillor"))
    deck = len(state["deck"])
    after, events = hire(state, 1)
    assert types(events)[:3] == ["GuestHired", "AgentGained", "CitizenReturned"]
    assert after["players"][0]["hand"] == 3 + 1
    assert len(after["deck"]) == deck + 1 and citizen("councillor") in after["deck"]
    assert citizen("councillor") not in after["players"][0]["citizens"]


def test_thief_takes_two_goods_from_one_player_who_is_paid_by_the_bank() -> None:
    state = hire_at(3, 1, citizen("thief"), seat=0)
    set_master(state, 1, 6)
    set_master(state, 3, 4)
    check_state(state)
    state, events = hire(state, 1, to_front=True)
    assert GAME.to_act(state) == {0}
    assert GAME.view(state, 1)["action"]["choice"] == {
        "seat": 0,
        "citizen": "thief",
        "tile": citizen("thief"),
        "to_front": True,
    }  # the hire was public: the tile and the move to the front are shown to all
    assert "MovedToFront" not in types(events)  # after the power, in the rulebook's order
    legal = GAME.legal(state, 0)
    assert {"type": "decline"} in legal
    steal = {"type": "steal", "victim": 2, "goods": {"beer": 1, "shoes": 1}, "paid": 10}
    assert steal in legal
    assert not [c for c in legal if c["type"] == "steal" and c["victim"] == 0]
    assert error(state, 0, {"type": "nothing"}) == "choice_pending"
    assert error(state, 0, {**steal, "goods": {"beer": 2}}) == "bad_loot"
    assert error(state, 0, {**steal, "goods": {"beer": 1}}) == "bad_loot"
    assert error(state, 0, {**steal, "victim": 0}) == "bad_victim"
    after, events = act(state, 0, steal)
    assert after["players"][2]["talers"] == 25 + 10
    assert after["players"][2]["goods"] == {"pastry": 1, "paper": 1}
    assert after["players"][0]["goods"]["beer"] == 2 and after["players"][0]["goods"]["shoes"] == 2
    assert types(events)[:3] == ["GoodsStolen", "CitizenReturned", "MovedToFront"]
    assert after["order"][0] == 0
    check_state(after)


def test_thief_victim_with_one_good_loses_just_that_one() -> None:
    state = hire_at(3, 1, citizen("thief"))
    state["players"][1]["goods"] = {"paper": 1}
    state["players"][2]["goods"] = {}
    state["houses"][3]["store"]["paper"] += 3
    state["houses"][0]["store"]["beer"] += 1
    state["houses"][1]["store"]["pastry"] += 2
    state["houses"][2]["store"]["shoes"] += 2
    state, _ = hire(state, 1)
    steals = [c for c in GAME.legal(state, 0) if c["type"] == "steal"]
    assert [(c["victim"], c["goods"]) for c in steals] == [(1, {"paper": 1})]


def test_thief_does_nothing_when_no_other_player_has_goods() -> None:
    state = hire_at(2, 1, citizen("thief"))
    state["houses"][0]["store"]["beer"] += 1
    state["houses"][1]["store"]["pastry"] += 1
    state["houses"][2]["store"]["shoes"] += 1
    state["players"][1]["goods"] = {}
    after, events = hire(state, 1)
    assert ("PowerDeclined" in types(events) and after["action"] is None) or after["phase"]
    assert citizen("thief") in after["deck"]


def test_thief_may_be_declined() -> None:
    state, _ = hire(hire_at(3, 1, citizen("thief")), 1)
    after, events = act(state, 0, {"type": "decline"})
    assert types(events)[:2] == ["PowerDeclined", "CitizenReturned"]
    assert after["players"][1]["goods"] == state["players"][1]["goods"]


def test_bailiff_swaps_two_craftsmen_of_one_guild_but_never_a_master() -> None:
    state = hire_at(3, 2, citizen("bailiff"))
    guest = next(t for t in state["deck"] if t.startswith("c1-"))
    put_guest(state, 3, 4, guest)
    queue_tile = state["houses"][0]["queue"][0][0]
    beneath = state["houses"][0]["queue"][2][1]
    master = state["houses"][0]["master"][0]
    state, _ = hire(state, 2)
    legal = GAME.legal(state, 0)
    swaps = [sorted(c["tiles"]) for c in legal if c["type"] == "bailiff"]
    assert sorted([guest, queue_tile]) in swaps
    assert not any(master in s or beneath in s for s in swaps)
    assert all(s[0][1] == s[1][1] for s in swaps)  # same guild
    assert {"type": "decline"} in legal
    assert error(state, 0, {"type": "bailiff", "tiles": [guest, master]}) == "bad_tiles"
    other_guild = craftsman(2, 2, agent=True)
    assert error(state, 0, {"type": "bailiff", "tiles": [guest, other_guild]}) == "bad_tiles"
    after, events = act(state, 0, {"type": "bailiff", "tiles": [queue_tile, guest]})
    assert after["houses"][0]["queue"][0] == [guest]
    assert after["houses"][2]["guests"][3] == queue_tile
    assert types(events)[:2] == ["TilesSwapped", "CitizenReturned"]


def test_bailiff_may_swap_only_the_top_tile_of_the_two_tile_stack() -> None:
    state = hire_at(3, 2, citizen("bailiff"))
    top, beneath = state["houses"][0]["queue"][2]
    state, _ = hire(state, 2)
    swaps = [c["tiles"] for c in GAME.legal(state, 0) if c["type"] == "bailiff"]
    assert any(top in s for s in swaps) and not any(beneath in s for s in swaps)


def test_musician_pays_at_every_round_end_income() -> None:
    state = hire_at(3, 1, citizen("musician", 2))  # the 5-taler musician
    state, _ = hire(state, 1)
    assert citizen("musician", 2) in state["players"][0]["citizens"]
    before = [p["talers"] for p in state["players"]]
    state, events = finish_round(state)
    income = next(e["text"] for e in events if e["type"] == "IncomePaid")
    assert income == "income: {s0} 8, {s1} 3, {s2} 3"
    assert state["players"][1]["talers"] - before[1] == 3
    assert state["players"][0]["citizens"] == [citizen("musician", 2)]


def test_peddler_counts_as_four_goods_then_returns_its_good_and_goes_back() -> None:
    state = hire_at(3, 1, citizen("peddler"))
    state, _ = hire(state, 1)
    assert [c["type"] for c in GAME.legal(state, 0)] == ["peddler_good"] * 4
    assert error(state, 0, {"type": "decline"}) == "choice_pending"
    assert error(state, 0, {"type": "peddler_good", "good": "hats"}) == "no_goods"
    state, events = act(state, 0, {"type": "peddler_good", "good": "paper"})
    assert "PeddlerLoaded" in types(events)
    check_state(state)
    view = GAME.view(state, 2)
    assert view["players"][0]["citizens"][0]["good"] == "paper"
    for seat in (1, 2):  # both hold 3 paper: more than seat 0's stock, fewer than the peddler
        state["players"][seat]["goods"]["paper"] = 3
    state["players"][0]["goods"]["paper"] = 1
    state["houses"][3]["store"]["paper"] -= 5
    state, events = finish_round(state)
    fav = next(
        e["text"] for e in events if "printers" in e["text"] and e["type"] == "FavouriteChosen"
    )
    assert fav.startswith("{s0} is the favourite of the printers: gave 1 paper")
    # seat 0 had 1 paper in stock besides the peddler: that one went back, the peddler's returned
    assert state["players"][0]["goods"].get("paper", 0) == 1
    assert citizen("peddler") in state["deck"] and state["players"][0]["citizens"] == []
    assert "PeddlerReturned" in types(events)
    check_state(state)


def test_a_favourite_without_stock_gives_the_good_on_the_peddler() -> None:
    state = hire_at(3, 1, citizen("peddler"))
    state, _ = hire(state, 1)
    state, _ = act(state, 0, {"type": "peddler_good", "good": "paper"})
    state["houses"][3]["store"]["paper"] += 2
    state["players"][1]["goods"].pop("paper")
    state["players"][2]["goods"].pop("paper")
    state, events = finish_round(state)
    assert "paper" not in state["players"][0]["goods"]
    assert any(e["text"] == "{s0}'s peddler gave back no good" for e in events)
    check_state(state)


def test_peddler_goes_back_at_once_without_goods() -> None:
    state = hire_at(3, 1, citizen("peddler"))
    state, _ = hire(state, 1)  # pays with a beer bought into stock
    state["players"][0]["goods"] = {}
    state2 = hire_at(3, 1, citizen("peddler"))
    for good in list(state2["players"][0]["goods"]):
        state2["houses"][0]["store"][good] = state2["houses"][0]["store"].get(good, 0) + 1
    state2["players"][0]["goods"] = {}
    state2["players"][0]["goods"]["beer"] = 1
    state2["houses"][0]["store"]["beer"] -= 1
    cmd = {"type": "hire", "window": 1, "payment": {"beer": 1}, "to_front": False}
    after, events = act(state2, 0, cmd)
    assert "PowerDeclined" in types(events) and citizen("peddler") in after["deck"]
    assert after["action"] is None or after["action"]["choice"] is None


def test_chief_judge_pays_every_player_per_craftsman_of_its_guild() -> None:
    state = hire_at(3, 1, citizen("chief_judge"))
    state, _ = hire(state, 1)
    assert [c["guild"] for c in GAME.legal(state, 0)] == [1, 2, 3, 4]
    state, events = act(state, 0, {"type": "judge_house", "guild": 2})
    assert "JudgePlaced" in types(events) and GAME.view(state, None)["guilds"][1]["judges"] == 1
    state["houses"][2 - 1]["judges"].append(citizen("chief_judge", 1))  # a second judge
    state["deck"].remove(citizen("chief_judge", 1)) if citizen("chief_judge", 1) in state[
        "deck"
    ] else None
    baker = craftsman(2, 5)
    put_guest(state, 4, 4, baker)
    state["houses"][3]["guests"][3] = None
    state["players"][1]["craftsmen"].append(baker)
    # Seat 2 holds the only pastry beyond the others: it wins the bakers' master this round end.
    state["players"][2]["goods"]["pastry"] = 3
    state["houses"][1]["store"]["pastry"] -= 2
    state, events = finish_round(state)
    income = next(e["text"] for e in events if e["type"] == "IncomePaid")
    assert income == "income: {s0} 3, {s1} 5, {s2} 5"


def test_sun_citizens_are_kept_until_the_end() -> None:
    for kind in ("nobleman", "tax_collector", "engraver", "apprentice", "foreman"):
        state, _ = hire(hire_at(3, 1, citizen(kind)), 1)
        assert state["players"][0]["citizens"] == [citizen(kind)]
        assert citizen(kind) not in state["deck"]
