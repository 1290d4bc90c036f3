"""A full state consistent with one seat's view: the deck order and other seats' sealed bids
are sampled, everything else is copied from the view."""

from __future__ import annotations

from server.engine import Rng, State, View
from server.engine.phases import sample_from_public

from .data import components


def sample_state(view: View, seat: int, rng: Rng) -> State:
    seen = {t for p in view["players"] for t in p["lanterns"]} | {view["shown"]}
    deck = [t for t in components().values if t not in seen]
    rng.shuffle(deck)
    shown = view["planning"]
    state: State = {
        **{key: view[key] for key in ("seats", "round", "phase", "shown")},
        "options": dict(view["options"]),
        "rng": rng.next_u64(),
        "start": shown["order"][0] if shown else 0,
        "deck": deck[: view["lanterns_left"]],
        "players": [
            {"coins": p["coins"], "lanterns": list(p["lanterns"])} for p in view["players"]
        ],
    }
    coins = [p["coins"] for p in view["players"]]
    mine = view["my_bid"]
    state["planning"] = None
    if shown is not None:
        state["planning"] = sample_from_public(
            shown, lambda s: mine if s == seat else rng.below(coins[s] + 1)
        )
    return state
