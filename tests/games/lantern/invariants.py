"""What always holds in Lantern market, and its hidden-information variant for the play-outs."""

from __future__ import annotations

from server.engine import Rng, State
from server.engine import planning as pl

from .data import components


def check_state(state: State) -> None:
    comps = components()
    won = [t for p in state["players"] for t in p["lanterns"]]
    shown = [state["shown"]] if state["shown"] else []
    every = won + shown + state["deck"]
    assert len(every) == len(set(every)) == comps.rounds  # every dealt lantern in one place
    assert all(0 <= p["coins"] <= comps.coins for p in state["players"])
    assert (state["phase"] == "over") == (state["planning"] is None)


def hidden_variant(state: State, owner: int, rng: Rng) -> State | None:
    """The same public position with ``owner``'s sealed bid and the deck order changed."""
    changed = False
    new = {**state, "deck": list(state["deck"])}
    if len(new["deck"]) > 1:
        new["deck"] = new["deck"][1:] + new["deck"][:1]
        changed = True
    p = state["planning"]
    if p is not None and pl.has_committed(p, owner):
        plans = list(p["plans"])
        coins = state["players"][owner]["coins"]
        plans[owner] = (plans[owner] + 1) % (coins + 1)
        if plans[owner] != p["plans"][owner]:
            new["planning"] = {**p, "plans": plans}
            changed = True
    return new if changed else None
