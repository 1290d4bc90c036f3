"""Rule audit: clauses of docs/rules/norenberc.md that no other test pinned.

Each test names the clause it pins; the rest of the clause table is in the audit report.
"""

from __future__ import annotations

from typing import Any

from server.engine import Event
from server.games.norenberc.data import components
from server.games.norenberc.scoring import Holdings, score_holdings

from .helpers import (
    GAME,
    act,
    citizen,
    craftsman,
    finish_round,
    fresh,
    lift,
    plan_all,
    put_guest,
    swap_in,
    types,
)

State = dict[str, Any]


def round_four(seats: int = 3, seed: str = "audit4") -> State:
    """A game at the start of round 4 (everyone passed in rounds 1-3)."""
    state = fresh(seats, seed)
    for _ in range(3):
        state, _ = finish_round(state)
    assert state["round"] == 4 and state["phase"] == "planning"
    return state


def set_stack(state: State, guild: int, top: str, beneath: str) -> None:
    """Make the round-4 master stack of ``guild`` [top, beneath] (tiles stay unique)."""
    swap_in(state, top, state["houses"][guild - 1]["master"][0])
    swap_in(state, beneath, state["houses"][guild - 1]["master"][1])
    assert state["houses"][guild - 1]["master"] == [top, beneath]


def only_goods(state: State, seat: int, goods: dict[str, int]) -> None:
    state["players"][seat]["goods"] = dict(goods)


def hire_window_one(state: State, guild: int, good: str) -> tuple[State, list[Event]]:
    """Seat 0 gets one ``good`` from ``guild``'s storehouse and hires window 1 with it."""
    state["players"][0]["goods"][good] = 1
    state["houses"][guild - 1]["store"][good] -= 1
    cmd = {"type": "hire", "window": 1, "payment": {good: 1}, "to_front": False}
    return act(state, 0, cmd)


def event_of(events: list[Event], kind: str, **params: Any) -> Event:
    return next(
        e
        for e in events
        if e["type"] == kind and all(e["params"].get(k) == v for k, v in params.items())
    )


# --- round 4: the two-tile master stack ---------------------------------------------------


def test_round_four_price_is_the_top_tile_of_the_stack() -> None:
    """N-2.7: 'position 4 holding two tiles stacked (the top one is the round-4 master)'."""
    state = round_four()
    set_stack(state, 1, craftsman(1, 7), craftsman(1, 3))
    state, _ = plan_all(state, {0: [1]})
    only_goods(state, 0, {"beer": 2})
    sells = [c for c in GAME.legal(state, 0) if c["type"] == "sell"]
    assert sells[-1] == {"type": "sell", "count": 2, "total": 14}


def test_round_four_favourite_takes_both_tiles_and_the_lower_agent_symbol_counts() -> None:
    """N-7.1: 'takes the master tile (round 4: both tiles; agent symbol on either gives an
    agent)'."""
    state = round_four()
    top, beneath = craftsman(1, 7), craftsman(1, 2, agent=True)
    set_stack(state, 1, top, beneath)
    only_goods(state, 0, {"beer": 2})
    for seat in (1, 2):
        state["players"][seat]["goods"].pop("beer", None)
        state["players"][seat]["goods"].update({"pastry": 5, "shoes": 5, "paper": 5})
    state["players"][0]["hand"] = 4
    state, events = finish_round(state)
    assert state["phase"] == "over"
    assert top in state["players"][0]["craftsmen"] and beneath in state["players"][0]["craftsmen"]
    fav = event_of(events, "FavouriteChosen", guild=1)
    assert fav["params"]["seat"] == 0 and [t["id"] for t in fav["params"]["tiles"]] == [
        top,
        beneath,
    ]
    after = events[events.index(fav) + 1]
    assert after["type"] == "AgentGained" and after["params"] == {"seat": 0, "variant": "symbol"}
    assert state["players"][0]["hand"] == 5  # 4 + the agent of the lower tile only


def test_round_four_without_a_favourite_both_master_tiles_leave() -> None:
    """N-7.1: 'Nobody has any → ... the master tile (in round 4 with the tile beneath) leaves'."""
    state = round_four()
    stack = list(state["houses"][0]["master"])
    for p in state["players"]:
        p["goods"].pop("beer", None)
    state, events = finish_round(state)
    assert all(t in state["box"] for t in stack)
    assert all(t not in p["craftsmen"] for p in state["players"] for t in stack)
    assert "MasterLeft" in types(events)


def test_the_fourth_prestige_crest_is_won_at_the_last_round_end() -> None:
    """N-1.3, N-7.1: '4 prestige crests in total (one per round)': round 4 still has one to win."""
    state = round_four()
    assert state["prestige_left"] == 0 and state["prestige_crest"]
    guild = state["prestige_guild"]
    good = components().good_of(guild)
    for p in state["players"]:
        p["goods"].pop(good, None)
    state["players"][2]["goods"][good] = 3
    before = state["players"][2]["prestige"]
    state, events = finish_round(state)
    assert state["players"][2]["prestige"] == before + 1
    assert event_of(events, "PrestigeAwarded")["params"] == {"seat": 2}


def test_tax_collector_counts_the_talers_after_the_last_income() -> None:
    """N-9, N-8.8: 'Final scoring (after round 4 income)' and 'Tax collector: 1 VP per full 10
    talers'."""
    state = round_four()
    state["players"][0]["citizens"] = [citizen("tax_collector")]
    state["players"][0]["talers"] = 37  # 40 after the round-4 income of 3
    state, _ = finish_round(state)
    assert state["players"][0]["talers"] == 40
    result = GAME.result(state)
    assert result is not None and result["breakdown"][0]["citizens"] == 4


def test_chief_judge_pays_at_the_round_four_income_for_both_won_tiles() -> None:
    """N-8.6: 'At every round-end income, rounds 1–4 ... (craftsmen won in this round-end's
    favourite step count)': in round 4 the favourite wins two tiles of the judged guild."""
    state = round_four()
    judge = citizen("chief_judge")
    lift(state, judge)
    state["houses"][1]["judges"] = [judge]
    for seat, p in enumerate(state["players"]):
        p["craftsmen"] = [t for t in p["craftsmen"] if components().tiles[t]["guild"] != 2]
        p["citizens"] = []
        p["goods"].pop("pastry", None)
        if seat == 1:
            p["goods"]["pastry"] = 2
    state, events = finish_round(state)
    income = event_of(events, "IncomePaid")["params"]["talers"]
    assert income == [{"seat": 0, "n": 3}, {"seat": 1, "n": 5}, {"seat": 2, "n": 3}]


# --- hiring -------------------------------------------------------------------------------


def test_window_four_payments_are_exactly_the_two_printed_options() -> None:
    """N-5.3: '4 | 3 own-kind, or 2 own-kind + 2 any' ('any' = any kind, this guild's included)."""
    state = fresh(3, "pay")
    state, _ = plan_all(state, {0: [1]})
    put_guest(state, 1, 4, craftsman(3, 6))
    only_goods(state, 0, {"beer": 3, "shoes": 2})
    payments = [
        c["payment"]
        for c in GAME.legal(state, 0)
        if c["type"] == "hire" and c["window"] == 4 and not c["to_front"]
    ]
    assert sorted(payments, key=str) == sorted(
        [{"beer": 3}, {"beer": 2, "shoes": 2}, {"beer": 3, "shoes": 1}], key=str
    )
    # window 1: exactly one good of this guild's kind
    put_guest(state, 1, 1, craftsman(3, 5))
    window1 = [c["payment"] for c in GAME.legal(state, 0) if c["type"] == "hire"]
    assert [p for p in window1 if sum(p.values()) == 1] == [{"beer": 1}]


def test_a_councillor_agent_keeps_a_seat_in_the_round_for_the_next_turn() -> None:
    """N-8.1, N-6.1: Councillor: '+1 agent ... usable from the next turn on'; end phase: 'a player
    with no
    agent left in hand flips to the moon side' - the new agent is in hand, so it does not."""
    state = fresh(3, "cnc")
    state["players"][0]["hand"] = 1
    state, _ = plan_all(state, {0: [1], 1: [2]})
    put_guest(state, 1, 1, citizen("councillor"))
    state, events = hire_window_one(state, 1, "beer")
    assert state["players"][0]["hand"] == 1
    while state["phase"] == "action":
        seat = min(GAME.to_act(state))
        state, more = act(state, seat, {"type": "nothing"})
        events += more
    assert state["turn"] == 2 and state["players"][0]["disc"] == "agent"
    assert 0 in GAME.to_act(state)
    assert not any(e["type"] == "DiscFlipped" and e["params"]["seat"] == 0 for e in events)


def test_a_councillor_gives_no_agent_beyond_eight() -> None:
    """N-8.1: Councillor: '+1 agent from the supply (max 8)'."""
    state = fresh(3, "c8")
    state["players"][0]["hand"] = 8
    state, _ = plan_all(state, {0: [1]})
    put_guest(state, 1, 1, citizen("councillor"))
    state, events = hire_window_one(state, 1, "beer")
    assert state["players"][0]["hand"] == 7  # one stands on the card: still 8 in all
    assert event_of(events, "AgentGained")["params"] == {"seat": 0, "variant": "councillor_full"}
    assert citizen("councillor") in state["deck"]


def test_the_roof_bonus_ignores_the_hiring_agent_and_agents_on_other_roofs() -> None:
    """N-5.3b: 'Bonus: talers equal to the number of agents already on this house's roof (the
    hiring agent is not there yet)'."""
    state = fresh(3, "roof")
    state, _ = plan_all(state, {0: [1]})
    state["houses"][0]["roof"] = [0, 1, 1]
    state["houses"][1]["roof"] = [2, 2, 2]
    put_guest(state, 1, 1, craftsman(2, 5))
    state, events = hire_window_one(state, 1, "beer")
    assert event_of(events, "BonusPaid")["params"] == {"seat": 0, "n": 2}
    assert state["players"][0]["talers"] == 27


def test_bailiff_may_swap_two_queue_tiles_of_one_house() -> None:
    """N-8.3: Bailiff: 'swap two craftsman tiles of the same guild that lie in workshop queues or
    guest rooms' - two queue positions of the same workshop reorder the future masters."""
    state = fresh(3, "bq")
    state, _ = plan_all(state, {0: [2]})
    put_guest(state, 2, 1, citizen("bailiff"))
    state, _ = hire_window_one(state, 2, "pastry")
    first, second = state["houses"][0]["queue"][0][0], state["houses"][0]["queue"][1][0]
    state, events = act(state, 0, {"type": "bailiff", "tiles": sorted([first, second])})
    assert state["houses"][0]["queue"][0] == [second]
    assert state["houses"][0]["queue"][1] == [first]
    assert "TilesSwapped" in types(events)


# --- citizens at the round end ------------------------------------------------------------


def test_a_peddler_counts_as_four_goods_not_five() -> None:
    """N-8.5: Peddler: 'the peddler (with its good) counts as 4 goods of that kind'. A rival with
    4 ties it, and the tie goes to more money."""
    state = fresh(3, "ped4")
    state, _ = plan_all(state, {0: [1]})
    put_guest(state, 1, 1, citizen("peddler"))
    only_goods(state, 0, {"beer": 1, "paper": 1})
    cmd = {"type": "hire", "window": 1, "payment": {"beer": 1}, "to_front": False}
    state, _ = act(state, 0, cmd)
    state, _ = act(state, 0, {"type": "peddler_good", "good": "paper"})
    assert "paper" not in state["players"][0]["goods"]
    state["players"][1]["goods"]["paper"] = 4
    state["players"][2]["goods"].pop("paper", None)
    state["players"][1]["talers"] = 40
    state, events = finish_round(state)
    assert event_of(events, "FavouriteChosen", guild=4)["params"]["seat"] == 1
    revealed = event_of(events, "MoneyRevealed", guild=4)["params"]["talers"]
    assert [a["seat"] for a in revealed] == [0, 1]


def test_a_three_taler_musician_and_a_judge_add_up_with_the_income() -> None:
    """N-7.3, N-8.4, N-8.6: Income: 'every player +3 talers (plus musician / chief judge
    income)'."""
    state = fresh(3, "mus3")
    state["players"][2]["citizens"] = [citizen("musician", 0)]
    assert components().tiles[citizen("musician", 0)]["value"] == 3
    state["houses"][0]["judges"] = [citizen("chief_judge")]
    state["players"][2]["craftsmen"] = [craftsman(1, 4, nth=1)]
    for p in state["players"]:
        p["goods"].pop("beer", None)
    state, events = finish_round(state)
    income = event_of(events, "IncomePaid")["params"]["talers"]
    assert income[2] == {"seat": 2, "n": 3 + 3 + 1}


# --- final scoring ------------------------------------------------------------------------


def test_guild_crests_of_one_guild_count_once_prestige_crests_each() -> None:
    """N-9.6: Crests: 'count distinct crests; every prestige crest is distinct from all others'."""
    state = fresh(3, "crest")
    state["phase"] = "over"
    state["players"][0]["crests"] = {"1": 2, "2": 1}
    state["players"][0]["prestige"] = 1
    state["players"][1]["crests"] = {"1": 1}
    state["players"][1]["prestige"] = 3
    result = GAME.result(state)
    assert result is not None
    assert result["breakdown"][0]["crests"] == 2  # 3 distinct
    assert result["breakdown"][1]["crests"] == 5  # 4 distinct


def test_an_apprentice_scores_a_tied_third_place_that_itself_scores_nothing() -> None:
    """N-8.10, N-9.2: Apprentice: '+1 VP for each 2nd and each 3rd place'; tied for 3rd → 0 each
    (docs decision: the apprentice still counts that place)."""
    holdings = [
        Holdings(craftsmen=[(1, 5), (1, 4)]),
        Holdings(craftsmen=[(1, 4), (1, 4)]),
        Holdings(craftsmen=[(1, 2), (1, 2)], citizens=[("apprentice", None)]),
        Holdings(craftsmen=[(1, 2), (1, 2)]),
    ]
    breakdown = score_holdings(holdings, [1])
    assert [b["majorities"] for b in breakdown] == [5, 3, 0, 0]
    assert breakdown[2]["citizens"] == 1 and breakdown[3]["citizens"] == 0


def test_thirty_plus_scores_in_every_guild_and_all_guilds_needs_every_guild_in_play() -> None:
    """N-9.3, N-9.4: '30+: 2 VP per guild' and 'All guilds: at least one craftsman of every guild
    in play'."""
    big = [(g, v) for g in (1, 2) for v in (7, 6, 6, 5, 5, 4)]  # 33 in guilds 1 and 2
    h = Holdings(craftsmen=big)
    assert score_holdings([h], [1, 2])[0]["thirty"] == 4
    assert score_holdings([h], [1, 2])[0]["all_guilds"] == 5
    assert score_holdings([h], [1, 2, 3])[0]["all_guilds"] == 0


def test_three_richest_tied_get_two_each() -> None:
    """N-9.5: Richest: '5 VP to the player with most talers; tied → 2 VP each'."""
    holdings = [Holdings(talers=30), Holdings(talers=30), Holdings(talers=30), Holdings(talers=2)]
    assert [b["richest"] for b in score_holdings(holdings, [1])] == [2, 2, 2, 0]


def test_the_tiles_tie_break_comes_before_the_shared_places() -> None:
    """N-9.2: Majorities: 'A tie is broken by number of tiles of that guild; if still tied ...
    tied for 2nd → 2 VP each and no 3rd'."""
    holdings = [
        Holdings(craftsmen=[(1, 5), (1, 5)]),
        Holdings(craftsmen=[(1, 7), (1, 3)]),
        Holdings(craftsmen=[(1, 4), (1, 3), (1, 3)]),  # 10 in three tiles: wins the tie
    ]
    # seats 0 and 1 stay tied (10 in two tiles) for 2nd: 2 VP each, no 3rd
    assert [b["majorities"] for b in score_holdings(holdings, [1])] == [2, 2, 5]


def test_favourites_are_named_in_guild_order_and_a_won_agent_respects_eight() -> None:
    """N-7.1: Round end: '1. Favourites, in guild order'; a won master's agent symbol gives an
    agent only while fewer than 8 are out of the supply (agents on roofs count)."""
    state = fresh(3, "order")
    swap_in(state, craftsman(2, 2, agent=True), state["houses"][1]["master"][0])
    state["players"][0]["hand"] = 6  # with 2 more on a roof below: all 8 out of the supply
    state["houses"][0]["roof"] = [2, 0, 0]
    for p in state["players"][1:]:
        p["goods"].pop("pastry", None)
    state, events = finish_round(state)
    guilds = [e["params"]["guild"] for e in events if e["type"] == "FavouriteChosen"]
    assert guilds == sorted(guilds) == [1, 2, 3, 4]
    gained = event_of(events, "AgentGained", seat=0)
    assert gained["params"]["variant"] == "symbol_full"
    assert state["players"][0]["hand"] == 8
