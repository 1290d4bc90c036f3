"""Strasbourg invariants and hidden-information variants for the shared play-out helper."""

from __future__ import annotations

from typing import Any

from server.engine import Command, Event, Rng, clone, is_visible
from server.engine import planning as pl
from server.games.strasbourg.state import DECK, cards_held

from .helpers import GAME

State = dict[str, Any]

PRIVATE_EVENTS = ("CardDrawn", "DrawingStopped", "StackFormed")


def cards_conserved(state: State) -> None:
    """Every player's 24 influence cards are somewhere: held, revealed now, or out."""
    p = state["planning"]
    inf = state["influence"]
    for seat, player in enumerate(state["players"]):
        plan = pl.plan_of(p, seat) if state["phase"] == "planning" and p else None
        revealed = len(inf["revealed"][seat] or []) if inf else 0
        assert cards_held(player, plan) + revealed + player["out"] == len(DECK), seat


def no_negatives(state: State) -> None:
    for player in state["players"]:
        assert player["coins"] >= 0 and player["privileges"] >= 0
        assert all(v >= 0 for v in player["goods"].values())


def check_state(state: State) -> None:
    """Strasbourg's own invariants, checked after every command of a play-out."""
    cards_conserved(state)
    no_negatives(state)
    assert 0 <= state["round"] < 5


def perturb_hidden(state: State, seat: int, rng: Rng) -> State:
    """The same public situation with ``seat``'s secrets changed: deck order and values,
    drawn cards, stack values (sizes kept), coins, goods, privileges and task cards (and
    their count)."""
    s = clone(state)
    player = s["players"][seat]
    rng.shuffle(player["deck"])
    player["deck"] = [7 - c for c in player["deck"]]
    player["hand"] = [7 - c for c in player["hand"]]
    player["building"] = [[7 - c for c in st] for st in player["building"]]
    player["stacks"] = [[7 - c for c in st] for st in player["stacks"]]
    p = s["planning"]
    if s["phase"] == "planning" and p and p["plans"][seat] is not None:
        p["plans"][seat] = [[7 - c for c in st] for st in p["plans"][seat]]
    player["coins"] += 1 + rng.below(9)
    player["goods"] = {g: rng.below(4) for g in player["goods"]}
    player["privileges"] += 1 + rng.below(3)
    tasks = list(range(25))
    rng.shuffle(tasks)
    player["tasks"] = sorted(tasks[: 1 + rng.below(5)])
    if s["phase"] == "tasks":
        player["offer"] = sorted(tasks[5:10])
    return s


def hidden_variant(state: State, seat: int, rng: Rng) -> State | None:
    """The play-out hook: ``seat``'s secrets changed (none once the game is over, when
    final scoring shows tasks and privileges to everyone)."""
    if state["phase"] == "over":
        return None
    return perturb_hidden(state, seat, rng)


def events_private(state: State, seat: int, cmd: Command, events: list[Event]) -> None:
    """What a seat draws and stacks is told to that seat only; everything else to all."""
    for ev in events:
        if ev["type"] in PRIVATE_EVENTS:
            assert ev["to"] == [seat], ev
        else:
            assert ev["to"] is None, ev


def check_finished(state: State) -> None:
    result = GAME.result(state)
    assert result is not None
    assert len(result["scores"]) == state["seats"] == len(result["breakdown"])
    for score, parts in zip(result["scores"], result["breakdown"], strict=True):
        assert score == sum(parts.values())
    assert result["winners"] and set(result["winners"]) <= set(range(state["seats"]))
    assert all(
        is_visible({"type": "x", "text": "", "to": None, "params": {}}, s)
        for s in range(state["seats"])
    )
    assert GAME.to_act(state) == set() and all(
        not GAME.legal(state, s) for s in range(state["seats"])
    )
