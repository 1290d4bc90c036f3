"""Norenberc invariants and hidden-information variants for the random play-out harness."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from server.engine import Rng, clone
from server.games.norenberc.data import components
from server.games.norenberc.setup import GOODS_PER_GUILD, PLAYER_COUNTS

State = dict[str, Any]


def goods_totals(state: State) -> Counter[str]:
    """Every good of every kind: storehouses, players' stock, goods on peddlers."""
    total: Counter[str] = Counter()
    for h in state["houses"]:
        total.update(h["store"])
    for p in state["players"]:
        total.update(p["goods"])
        total.update(g for g in p["peddlers"].values() if g is not None)
    return total


def tile_locations(state: State) -> list[str]:
    """Every tile still tracked by the state (each must appear exactly once)."""
    tiles = list(state["deck"]) + list(state["box"])
    for h in state["houses"]:
        tiles += h["master"] + [t for stack in h["queue"] for t in stack]
        tiles += [t for t in h["guests"] if t is not None] + h["judges"]
    for p in state["players"]:
        tiles += p["craftsmen"] + p["citizens"]
    if state["action"] and state["action"]["choice"]:
        choice = state["action"]["choice"]
        # An unresolved thief/bailiff/peddler/judge is in the hirer's hands, nowhere else yet.
        if choice["tile"] not in tiles:
            tiles.append(choice["tile"])
    return tiles


def check_state(state: State) -> None:
    """Raise AssertionError when an invariant of the rules does not hold."""
    guilds = len(state["houses"])
    assert guilds == PLAYER_COUNTS[state["seats"]][0]
    comps = components()
    assert goods_totals(state) == Counter(
        {comps.good_of(g): GOODS_PER_GUILD for g in range(1, guilds + 1)}
    )
    for seat, p in enumerate(state["players"]):
        assert p["talers"] >= 0, f"seat {seat} has {p['talers']} talers"
        assert all(n > 0 for n in p["goods"].values())
        owned = p["hand"] + p["card"] + sum(h["roof"][seat] for h in state["houses"])
        assert p["hand"] >= 0 and owned <= 8, f"seat {seat} owns {owned} agents"
        assert owned >= 4, "agents never go back to the supply"
    tiles = tile_locations(state)
    assert len(tiles) == len(set(tiles)), "a tile is in two places"
    expected = guilds * 11 + PLAYER_COUNTS[state["seats"]][1]
    assert len(tiles) == expected, f"{len(tiles)} tiles tracked, {expected} in the game"
    assert 1 <= state["round"] <= 4
    assert sorted(state["order"]) == list(range(state["seats"]))
    if state["phase"] == "over":
        check_finished(state)


def check_finished(state: State) -> None:
    assert state["round"] == 4
    for h in state["houses"]:
        assert h["queue"] == [] and h["master"] == [], "workshops must be empty at the end"


def hidden_variant(state: State, seat: int, rng: Rng) -> State:
    """The same state with everything hidden from everyone but ``seat`` changed at once
    (its talers, its uncalled plan) and what is hidden from everyone (deck order, generator)."""
    variant = _other_plan(state, seat) or clone(state)
    if state["phase"] != "over":
        variant["players"][seat]["talers"] += 7 + rng.below(20)
    Rng(rng.next_u64()).shuffle(variant["deck"])
    variant["rng"] = rng.next_u64()
    return variant


def _other_plan(state: State, seat: int) -> State | None:
    """The same state with ``seat``'s not-yet-called guilds replaced by others."""
    called = state["called"]
    last = called[-1] if called else 0
    open_guilds = [g for g in range(1, len(state["houses"]) + 1) if g > last]
    if state["phase"] == "planning":
        plan = state["planning"]["plans"][seat]
    elif state["phase"] == "action":
        plan = state["plans"][seat]
    else:
        return None
    if not plan:
        return None
    hidden = [g for g in plan if g > last]
    for choice in combinations(open_guilds, len(hidden)):
        if hidden and list(choice) != hidden:
            variant = clone(state)
            new_plan = sorted([g for g in plan if g <= last] + list(choice))
            if state["phase"] == "planning":
                variant["planning"]["plans"][seat] = new_plan
            else:
                variant["plans"][seat] = new_plan
            return variant
    return None
