"""The phase sequence: a round opens sealed bidding on the shown lantern; when every bid is
in, the bids are revealed and the lantern sold; after the last round the game is over."""

from __future__ import annotations

from server.engine import Event, event
from server.engine import planning as pl

from .state import BidCommand, LanternCommand, LanternState, round_order, value_of


def start_round(state: LanternState) -> list[Event]:
    """Show the next lantern and open the bidding (clockwise from ``start``)."""
    state["round"] += 1
    state["shown"] = lantern = state["deck"].pop(0)
    order = round_order(state)
    ordered = state["options"]["planning"] == "ordered"
    state["planning"] = pl.open_planning(state["seats"], order, order, ordered=ordered)
    text = f"Round {state['round']}: a {lantern} lantern ({value_of(lantern)}) is for sale"
    return [event("LanternShown", text, params={"round": state["round"], "lantern": lantern})]


def apply_planning(state: LanternState, seat: int, cmd: LanternCommand) -> list[Event]:
    """bid / wait / retract (already checked legal); ends the bidding when all are in."""
    p = state["planning"]
    assert p is not None
    if cmd["type"] == "wait":
        state["planning"] = pl.wait(p, seat)
        return [pl.waited_event(seat, "clockwise from this round's first bidder")]
    if cmd["type"] == "retract":
        state["planning"] = pl.retract(p, seat)
        return [pl.retracted_event(seat)]
    bid: BidCommand = cmd
    state["planning"] = p = pl.commit(p, seat, bid["amount"])
    events = [event("BidSealed", f"{{s{seat}}} sealed a bid", params={"seat": seat})]
    if pl.is_complete(p):
        events += _sell(state)
    return events


def _sell(state: LanternState) -> list[Event]:
    p = state["planning"]
    assert p is not None and state["shown"] is not None
    order = round_order(state)
    bids = [pl.plan_of(p, s) for s in range(state["seats"])]
    winner = max(order, key=lambda s: (bids[s], -order.index(s)))
    state["players"][winner]["coins"] -= bids[winner]
    state["players"][winner]["lanterns"].append(state["shown"])
    state["planning"], lantern = None, state["shown"]
    listed = ", ".join(f"{{s{s}}} {bids[s]}" for s in order)
    events = [
        event(pl.PLANNING_ENDED, f"Bids: {listed}", params={"bids": bids}),
        event(
            "LanternWon",
            f"{{s{winner}}} bought the {lantern} lantern for {bids[winner]}",
            params={"seat": winner, "lantern": lantern, "price": bids[winner]},
        ),
    ]
    if not state["deck"]:
        state["phase"], state["shown"] = "over", None
        return [*events, event("GameEnded", "The market has closed", params={})]
    state["start"] = (state["start"] + 1) % state["seats"]
    return events + start_round(state)
