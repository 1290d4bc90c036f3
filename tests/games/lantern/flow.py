"""The one phase: sealed bidding on the shown lantern. When every bid is in, the bids are
revealed and the lantern sold; after the last round the game is over."""

from __future__ import annotations

from server.engine import Event, State, event, own, own_item
from server.engine import planning as pl
from server.engine.phases import SealedPlanning
from server.engine.schema import Fields, Int

from .state import round_order, value_of


def start_round(state: State) -> list[Event]:
    """Show the next lantern and open the bidding (clockwise from ``start``)."""
    state["round"] += 1
    state["shown"] = lantern = own(state, "deck").pop(0)
    BIDDING.open(state)
    text = f"Round {state['round']}: a {lantern} lantern ({value_of(lantern)}) is for sale"
    return [event("LanternShown", text, params={"round": state["round"], "lantern": lantern})]


def sell(state: State) -> list[Event]:
    """Every bid is in: the highest buys, a tie goes to the bidder first in order."""
    order, lantern = round_order(state), state["shown"]
    bids = [pl.plan_of(state["planning"], s) for s in range(state["seats"])]
    winner = max(order, key=lambda s: (bids[s], -order.index(s)))
    buyer = own_item(state, "players", winner)
    buyer["coins"] -= bids[winner]
    buyer["lanterns"].append(lantern)
    state["planning"] = None
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


BIDDING = SealedPlanning(
    commits={"bid": Fields({"amount": Int(0, 99)})},
    choices=lambda state, seat: [
        {"type": "bid", "amount": a} for a in range(state["players"][seat]["coins"] + 1)
    ],
    plan_of=lambda state, seat, cmd: cmd["amount"],
    sealed=lambda state, seat, bid: [
        event("BidSealed", f"{{s{seat}}} sealed a bid", params={"seat": seat})
    ],
    reveal=sell,
    order=round_order,
    order_words="clockwise from this round's first bidder",
)
