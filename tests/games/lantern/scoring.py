"""The result: lantern values plus the coins kept; every seat with the best score wins."""

from __future__ import annotations

from server.engine import Result, State

from .state import value_of


def result(state: State) -> Result | None:
    return final_result(state) if state["phase"] == "over" else None


def final_result(state: State) -> Result:
    """The scores as they stand (the bots also score unfinished games)."""
    breakdown = [
        {"lanterns": sum(value_of(t) for t in p["lanterns"]), "coins": p["coins"]}
        for p in state["players"]
    ]
    scores = [b["lanterns"] + b["coins"] for b in breakdown]
    winners = [s for s, v in enumerate(scores) if v == max(scores)]
    return {"scores": scores, "breakdown": breakdown, "winners": winners}
