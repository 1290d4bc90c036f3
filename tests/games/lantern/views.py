"""One seat's view, an allowlist: coins and lanterns (public), the shown lantern, how many are
left, the bidding's public status, the seat's own sealed bid. Never: others' bids before the
reveal, the deck order, the generator."""

from __future__ import annotations

from typing import Any

from server.engine import Command, View
from server.engine import planning as pl

from .scoring import final_result
from .state import LanternState


def build_view(
    state: LanternState, seat: int | None, to_act: set[int], legal: list[Command]
) -> View:
    p = state["planning"]
    view: dict[str, Any] = {
        "seats": state["seats"],
        "options": dict(state["options"]),
        "seat": seat,
        "round": state["round"],
        "phase": state["phase"],
        "shown": state["shown"],
        "lanterns_left": len(state["deck"]),
        "players": [
            {"coins": pl_["coins"], "lanterns": list(pl_["lanterns"])} for pl_ in state["players"]
        ],
        "planning": pl.public_view(p) if p is not None else None,
        "my_bid": pl.plan_of(p, seat) if p is not None and seat is not None else None,
        "legal": list(legal),
        "to_act": sorted(to_act),
        "result": final_result(state) if state["phase"] == "over" else None,
    }
    return view
