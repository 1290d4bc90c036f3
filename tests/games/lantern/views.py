"""One seat's view, an allowlist: coins and lanterns (public), the shown lantern, how many are
left, the bidding's public status, the seat's own sealed bid. Never: others' bids before the
reveal, the deck order, the generator."""

from __future__ import annotations

from server.engine import State, View
from server.engine import planning as pl

from .legal import legal, to_act
from .scoring import result


def build_view(state: State, seat: int | None) -> View:
    p = state["planning"]
    return {
        **{key: state[key] for key in ("seats", "round", "phase", "shown")},
        "options": dict(state["options"]),
        "seat": seat,
        "lanterns_left": len(state["deck"]),
        "players": [
            {"coins": s["coins"], "lanterns": list(s["lanterns"])} for s in state["players"]
        ],
        "planning": pl.public_view(p) if p is not None else None,
        "my_bid": pl.plan_of(p, seat) if p is not None and seat is not None else None,
        "legal": legal(state, seat),
        "to_act": sorted(to_act(state)),
        "result": result(state),
    }
