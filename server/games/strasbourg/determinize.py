"""Rebuild a full engine state from one seat's view, sampling what the seat cannot see.

Search bots (ISMCTS) play on such *determinizations*: ``sample_state(view, rng)`` returns a
state whose view for the same seat is identical to ``view``, with every secret of the other
seats drawn at random where the view leaves it open: their deck order and contents (from
the cards they have not been seen to spend), stack values (sizes are kept), coins, goods,
privileges and task cards; and the order of the seat's own deck.

The samples are plausible, not a posterior: coins, goods and privileges of others are drawn
from small ranges, and a seat still drawing in planning is taken to have drawn nothing yet.
"""

from __future__ import annotations

from typing import Any

from server.engine import Rng
from server.engine.phases import sample_from_public

from .data import GUILD_KEYS, components
from .state import DECK, STEPS, State

View = dict[str, Any]


def _without(pool: list[int], cards: list[int]) -> list[int]:
    rest = list(pool)
    for card in cards:
        if card in rest:
            rest.remove(card)
    return rest


def _take(pool: list[int], count: int, rng: Rng) -> list[int]:
    """``count`` random cards out of ``pool`` (removed from it); tops up from a full deck
    in the impossible case that the pool runs short, so a sample is always complete."""
    rng.shuffle(pool)
    taken = pool[:count]
    del pool[:count]
    while len(taken) < count:
        taken.append(DECK[rng.below(len(DECK))])
    return taken


def _own_player(view: View, rng: Rng) -> dict[str, Any]:
    me = view["me"]
    public = view["players"][view["seat"]]
    revealed = public["revealed"] or []
    known = [c for s in me["stacks"] + me["building"] for c in s] + me["hand"] + revealed
    pool = _without(_without(DECK, public["spent"]), known)
    return {
        "deck": _take(pool, me["deck"], rng),
        "hand": list(me["hand"]),
        "building": [list(s) for s in me["building"]],
        "stopped": me["stopped"],
        "stacks": [list(s) for s in me["stacks"]],
        "coins": me["coins"],
        "goods": dict(me["goods"]),
        "privileges": me["privileges"],
        "prestige": public["prestige"],
        "offer": [t["id"] for t in me["offer"]],
        "tasks": [t["id"] for t in me["tasks"]],
        "out": len(DECK) - public["cards_left"] - len(revealed),
        "spent": list(public["spent"]),
    }


def _other_player(view: View, seat: int, rng: Rng) -> dict[str, Any]:
    public = view["players"][seat]
    revealed = public["revealed"] or []
    pool = _without(_without(DECK, public["spent"]), revealed)
    stacks = [_take(pool, size, rng) for size in public["stacks"]]
    deck = _take(pool, public["cards_left"] - sum(public["stacks"]), rng)
    return {
        "deck": deck,
        "hand": [],
        "building": [],
        "stopped": public["planning"] == "committed",
        "stacks": stacks,
        "coins": rng.below(9),
        "goods": {g: rng.below(2) for g in GUILD_KEYS},
        "privileges": rng.below(2),
        "prestige": public["prestige"],
        "offer": [],
        "tasks": [],
        "out": len(DECK) - public["cards_left"] - len(revealed),
        "spent": list(public["spent"]),
    }


def _deal_tasks(view: View, players: list[dict[str, Any]], rng: Rng) -> None:
    """Other seats' task cards: a 5-card offer while tasks are chosen, else 1-3 kept cards,
    all from the cards this seat has not seen."""
    me = view["me"]
    known = {t["id"] for t in me["tasks"] + me["offer"]}
    free = [t.id for t in components().tasks if t.id not in known]
    rng.shuffle(free)
    for s, player in enumerate(players):
        if s == view["seat"]:
            continue
        count = 5 if view["phase"] == "tasks" else 1 + rng.below(3)
        dealt, free[:] = sorted(free[:count]), free[count:]
        player["offer" if view["phase"] == "tasks" else "tasks"] = dealt


def _planning(view: View, state: State, rng: Rng) -> dict[str, Any] | None:
    """The planning record: public order, waiting and sealing order from the view; the
    committed seats' plans are their (sampled) stacks or task choices."""
    public = view["planning"]
    if public is None:
        return None
    seat = view["seat"]

    def plan_for(s: int) -> Any:
        player = state["players"][s]
        if view["phase"] == "tasks":
            offer = player["offer"]
            plan = player["tasks"] if s == seat else sorted(offer[: 1 + rng.below(len(offer))])
            player["tasks"] = []
        else:
            plan, player["stacks"] = player["stacks"], []
        return plan

    return sample_from_public(public, plan_for)


def _influence(view: View) -> dict[str, Any] | None:
    step = view["step"]
    if step is None or step["first"] is None:
        return None
    return {
        "start": step["first"],
        "queue": list(step["queue"]),
        "revealed": [p["revealed"] for p in view["players"]],
        "passed": [p["passed"] for p in view["players"]],
    }


def sample_state(view: View, rng: Rng) -> State:
    """A full state consistent with ``view`` (a seat's view, not a spectator's)."""
    comp = components()
    seat, n = view["seat"], view["seats"]
    players = [
        _own_player(view, rng) if s == seat else _other_player(view, s, rng) for s in range(n)
    ]
    _deal_tasks(view, players, rng)
    edifice_keys = [e.key for e in comp.edifices]
    step = view["step"]
    state: State = {
        "game": "strasbourg",
        "seats": n,
        "options": dict(view["options"]),
        "rng": rng.next_u64(),
        "phase": view["phase"],
        "round": view["round"] - 1,
        "step": STEPS.index(step["letter"]) if step else 0,
        "cards": [card["card"] - 1 for card in view["round_cards"]],
        "edifice_order": [
            edifice_keys.index(card["edifice"]["key"]) for card in view["round_cards"]
        ],
        "start": view["start_player"],
        "council": dict(view["council"]),
        "city": [list(row) for row in view["city"]["members"]],
        "built": [[*e["cell"], edifice_keys.index(e["key"])] for e in view["city"]["edifices"]],
        "chapels": list(view["city"]["chapels"]),
        "players": players,
        "planning": None,
        "influence": _influence(view),
        "ranking": list(step["ranking"]) if step else [],
        "choices": [dict(c) for c in step["choices"]] if step else [],
    }
    state["planning"] = _planning(view, state, rng)
    return state
