"""The result: lantern values plus the coins kept; every seat with the best score wins."""

from __future__ import annotations

from server.engine import Result

from .state import LanternState, value_of


def final_result(state: LanternState) -> Result:
    breakdown = [
        {"lanterns": sum(value_of(t) for t in p["lanterns"]), "coins": p["coins"]}
        for p in state["players"]
    ]
    scores = [b["lanterns"] + b["coins"] for b in breakdown]
    winners = [s for s, v in enumerate(scores) if v == max(scores)]
    return {"scores": scores, "breakdown": breakdown, "winners": winners}
