"""A full state consistent with one seat's view: the deck order and other seats' sealed bids
are sampled, everything else is copied from the view."""

from __future__ import annotations

from server.engine import Rng, View
from server.engine import planning as pl

from .data import components
from .state import LanternState, round_order


def sample_state(view: View, seat: int, rng: Rng) -> LanternState:
    comps = components()
    seen = {t for p in view["players"] for t in p["lanterns"]} | {view["shown"]}
    deck = [t for t in comps.values if t not in seen]
    rng.shuffle(deck)
    state: LanternState = {
        "seats": view["seats"],
        "options": dict(view["options"]),
        "rng": rng.next_u64(),
        "round": view["round"],
        "phase": view["phase"],
        "start": 0,
        "deck": deck[: view["lanterns_left"]],
        "shown": view["shown"],
        "players": [
            {"coins": p["coins"], "lanterns": list(p["lanterns"])} for p in view["players"]
        ],
        "planning": None,
    }
    shown = view["planning"]
    if shown is None:
        return state
    state["start"] = shown["order"][0]
    order = round_order(state)
    planning = pl.open_planning(state["seats"], order, order)
    for other in shown["order"]:  # commits in order: an ordered phase's are made so anyway
        if shown["status"][other] == "committed":
            coins = view["players"][other]["coins"]
            bid = view["my_bid"] if other == seat else rng.below(coins + 1)
            planning = pl.commit(planning, other, bid)
    planning["ordered"] = shown["ordered"]
    planning["waited_by"] = shown["waited_by"]
    state["planning"] = planning
    return state
