"""End phase and round end steps 1-7 with every tie-break; game end after round 4."""

from __future__ import annotations

from typing import Any

from server.games.norenberc.data import components

from .helpers import GAME, act, craftsman, finish_round, fresh, plan_all, set_master, swap_in, types
from .invariants import check_state


def texts(events: list[Any], kind: str) -> list[str]:
    return [e["text"] for e in events if e["type"] == kind]


def test_favourite_is_the_player_with_most_goods_and_gets_master_crest_and_prestige() -> None:
    state = fresh(3, "r")
    prestige = state["prestige_guild"]
    good = components().good_of(prestige)
    state["players"][1]["goods"][good] = 3
    state["houses"][prestige - 1]["store"][good] -= 2
    master = list(state["houses"][prestige - 1]["master"])
    store = state["houses"][prestige - 1]["store"][good]
    state, events = finish_round(state)
    p = state["players"][1]
    assert p["goods"][good] == 2 and p["craftsmen"][: len(master)] == master
    assert p["crests"] == {str(prestige): 1} and p["prestige"] == 1
    assert state["houses"][prestige - 1]["store"][good] == store + 1
    assert state["houses"][prestige - 1]["crests"] == 3
    assert "PrestigeAwarded" in types(events)
    check_state(state)


def test_a_goods_tie_is_broken_by_money_revealed_then_by_play_order() -> None:
    state = fresh(3, "tie")
    state["players"][2]["talers"] = 30
    state, events = finish_round(state)
    revealed = texts(events, "MoneyRevealed")
    assert revealed[0] == "tie at the brewers: talers {s0} 25, {s1} 25, {s2} 30"
    assert texts(events, "FavouriteChosen")[0].startswith("{s2} is the favourite of the brewers")
    state = fresh(3, "tie")
    first = state["order"][0]
    state, events = finish_round(state)
    assert texts(events, "FavouriteChosen")[0].startswith(f"{{s{first}}} is the favourite")


def test_nobody_with_the_good_means_the_master_leaves_and_a_prestige_crest_is_lost() -> None:
    state = fresh(2, "none")
    prestige = state["prestige_guild"]
    good = components().good_of(prestige)
    for p in state["players"]:
        p["goods"].pop(good)
    state["houses"][prestige - 1]["store"][good] += 2
    master = state["houses"][prestige - 1]["master"][0]
    state, events = finish_round(state)
    assert master in state["box"] and "MasterLeft" in types(events)
    assert "PrestigeLost" in types(events)
    assert all(p["prestige"] == 0 for p in state["players"])
    assert state["prestige_left"] == 2  # one placed at setup, one after round 1
    check_state(state)


def test_master_with_the_agent_symbol_gives_the_favourite_an_agent() -> None:
    state = fresh(3, "ag")
    swap_in(state, craftsman(1, 2, agent=True), state["houses"][0]["master"][0])
    state["players"][0]["goods"]["beer"] = 2
    state["houses"][0]["store"]["beer"] -= 1
    state, events = finish_round(state)
    assert state["players"][0]["hand"] == 5
    assert any("agent symbol" in t for t in texts(events, "AgentGained"))


def test_no_guild_crest_when_the_four_are_gone() -> None:
    state = fresh(3, "cr")
    state["houses"][0]["crests"] = 0
    state, events = finish_round(state)
    assert "no guild crest left" in texts(events, "FavouriteChosen")[0]
    assert sum(p["crests"].get("1", 0) for p in state["players"]) == 0


def test_agents_return_income_discs_reset_and_new_masters_step_up() -> None:
    state = fresh(3, "inc")
    state, _ = plan_all(state, {0: [1, 2], 1: [2], 2: [3]})
    queue = [list(h["queue"][0]) for h in state["houses"]]
    state, events = finish_round(state)
    gained = [
        sum(t.startswith(f"{{s{s}}} gained") for t in texts(events, "AgentGained"))
        for s in range(3)
    ]
    assert [p["hand"] for p in state["players"]] == [4 + n for n in gained]
    assert all(h["roof"] == [0, 0, 0] for h in state["houses"])
    assert texts(events, "IncomePaid") == ["income: {s0} 3, {s1} 3, {s2} 3"]
    assert [p["disc"] for p in state["players"]] == ["agent"] * 3
    assert [h["master"] for h in state["houses"]] == queue
    assert state["round"] == 2 and state["turn"] == 1 and state["phase"] == "planning"


def test_guest_rooms_drop_window_one_slide_left_and_refill_in_guild_order() -> None:
    state = fresh(3, "gr")
    h = state["houses"][0]
    h["guests"] = [h["guests"][1], None, h["guests"][2], h["guests"][3]]
    leaving, staying = h["guests"][0], h["guests"][2:]
    deck = list(state["deck"])
    state, _ = finish_round(state)
    assert leaving in state["box"]
    assert state["houses"][0]["guests"][:2] == staying
    # guild 1 takes the top two deck tiles, then guild 2 one for each of its empty windows
    assert state["houses"][0]["guests"][2:] == [deck[-1], deck[-2]]
    assert state["houses"][1]["guests"][3] == deck[-3]


def test_an_exhausted_deck_leaves_windows_empty() -> None:
    state = fresh(2, "ex")
    state["box"] += state["deck"]
    state["deck"] = []
    state, _ = finish_round(state)
    assert all(h["guests"][3] is None for h in state["houses"])


def test_the_next_most_prestigious_guild_is_never_the_current_one() -> None:
    state = fresh(3, "pr")
    current = state["prestige_guild"]
    for guild in range(1, 5):
        set_master(state, guild, 3)
    # the round-2 masters: current guild gets a 7, guilds 2 and 3 a 6, others lower
    for guild, value in [(1, 4), (2, 6), (3, 6), (4, 5)]:
        stack = state["houses"][guild - 1]["queue"][0]
        wanted = next(
            t
            for t in components().craftsmen[guild]
            if components().tiles[t]["value"] == value
            and t not in state["houses"][guild - 1]["master"]
        )
        swap_in(state, wanted, stack[0])
    state, events = finish_round(state)
    expected = 2 if current != 2 else 3
    assert state["prestige_guild"] == expected
    assert "PrestigeMoved" in types(events)


def test_a_player_without_agents_in_hand_is_out_and_the_round_ends_when_all_are() -> None:
    state = fresh(2, "end")
    state, _ = plan_all(state, {0: [1, 2, 3], 1: [1]})
    while state["phase"] == "action":
        seat = min(GAME.to_act(state))
        state, events = act(state, seat, {"type": "nothing"})
    assert state["turn"] == 2 and state["players"][0]["disc"] == "agent"
    assert state["players"][0]["hand"] == 1
    state, _ = plan_all(state, {0: [2], 1: [2, 3]})
    while state["phase"] == "action":
        seat = min(GAME.to_act(state))
        state, events = act(state, seat, {"type": "nothing"})
    assert state["players"][0]["disc"] == "moon" and GAME.to_act(state) == {1}
    assert "DiscFlipped" in types(events)
    state, _ = plan_all(state, {1: []})
    assert state["round"] == 2


def test_the_game_ends_after_round_four_income_with_empty_workshops() -> None:
    state = fresh(4, "fin")
    for expected_round in (1, 2, 3):
        state, _ = finish_round(state)
        assert state["round"] == expected_round + 1
    assert [len(h["master"]) for h in state["houses"]] == [2] * 5
    state, events = finish_round(state)
    assert state["phase"] == "over" and types(events)[-1] == "GameEnded"
    assert "MasterRevealed" not in types(events) and "PrestigeMoved" not in types(events)
    assert " and " in texts(events, "FavouriteChosen")[0].split("took ")[1]  # both tiles
    assert GAME.to_act(state) == set()
    result = GAME.result(state)
    assert result is not None and len(result["scores"]) == 4
    assert GAME.view(state, None)["players"][1]["talers"] == state["players"][1]["talers"]
    check_state(state)
