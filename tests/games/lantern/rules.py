"""Lantern market's rules: its components (``lantern.json`` beside this module: a test game keeps
its data with it, a real one in ``seeds/``), the shape of its state and commands, the deal, the
sealed bid on each round's lantern and its sale, the score, and what a seat may see. The rest
(command shapes, legality and refusals, waiting, taking a bid back, who acts) is the engine's,
derived from ``BIDDING``."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal, TypedDict

from server.engine import Event, Result, Rng, State, View, event, own, own_item, seed_to_state
from server.engine import phases as kit
from server.engine import planning as pl
from server.engine.data import DataError, read_shaped
from server.engine.schema import Fields, Int, ListOf, Record, Str

DATA_PATH = Path(__file__).with_name("lantern.json")
LANTERN = Record({"id": Str(16), "value": Int(1, 99)})
SHAPE = Record({"coins": Int(1, 99), "rounds": Int(1, 99), "lanterns": ListOf(LANTERN, 99, 1)})


@cache
def components() -> dict[str, Any]:
    """The data (read once), ``lanterns`` as ``{id: value}`` in the file's order; DataError
    naming what is wrong."""
    raw = read_shaped(DATA_PATH, SHAPE)
    values = {entry["id"]: entry["value"] for entry in raw["lanterns"]}
    if len(values) < len(raw["lanterns"]) or raw["rounds"] > len(values):
        raise DataError(f"{DATA_PATH.name}: lantern ids repeat, or more rounds than lanterns")
    return {**raw, "lanterns": values}


def value_of(lantern: str) -> int:
    return int(components()["lanterns"][lantern])


class Player(TypedDict):
    coins: int  # public
    lanterns: list[str]  # won, public


class LanternState(TypedDict):
    seats: int
    options: dict[str, Any]
    rng: int  # the generator's state (nobody sees it)
    round: int  # 1-based
    phase: Literal["planning", "over"]
    deck: list[str]  # lanterns still to come, top first (hidden order)
    shown: str | None  # this round's lantern
    players: list[Player]
    planning: dict[str, Any] | None  # ``server.engine.planning``'s record; plans are bids


class BidCommand(TypedDict):
    type: Literal["bid"]
    amount: int


LanternCommand = BidCommand | kit.PlanningCommand  # the kit's: wait, retract


def new_state(seats: int, seed: str, options: dict[str, Any]) -> tuple[State, list[Event]]:
    """The deal (coins to everyone, the deck shuffled) and round 1 opened, with its events."""
    rng, comps = Rng(seed_to_state(seed)), components()
    deck = list(comps["lanterns"])
    rng.shuffle(deck)
    players = [{"coins": comps["coins"], "lanterns": []} for _ in range(seats)]
    state: State = {"seats": seats, "options": options, "rng": rng.state, "round": 0}
    state |= {"phase": "planning", "deck": deck[: comps["rounds"]], "shown": None}
    state |= {"players": players, "planning": None}
    return state, start_round(state)


def round_order(state: State) -> list[int]:
    """This round's planning order: clockwise, from one seat further on each round."""
    n = state["seats"]
    return [(state["round"] - 1 + i) % n for i in range(n)]


def start_round(state: State) -> list[Event]:
    """Show the next lantern and open the bidding."""
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
    won = {"seat": winner, "lantern": lantern, "price": bids[winner]}
    text = f"{{s{winner}}} bought the {lantern} lantern for {bids[winner]}"
    events = [
        event(pl.PLANNING_ENDED, f"Bids: {listed}", params={"bids": bids}),
        event("LanternWon", text, params=won),
    ]
    if not state["deck"]:
        state["phase"], state["shown"] = "over", None
        return [*events, event("GameEnded", "The market has closed", params={})]
    return events + start_round(state)


BIDDING = kit.SealedPlanning(
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
PHASES = {"planning": BIDDING.phase()}
COMMANDS = kit.command_table(BIDDING.commands)


def final_result(state: State) -> Result:
    """Lantern values plus coins kept, as they stand (the bots score unfinished games too; the
    game's result once it is over); every seat with the best score wins."""
    breakdown = [
        {"lanterns": sum(value_of(t) for t in p["lanterns"]), "coins": p["coins"]}
        for p in state["players"]
    ]
    scores = [b["lanterns"] + b["coins"] for b in breakdown]
    winners = [s for s, v in enumerate(scores) if v == max(scores)]
    return {"scores": scores, "breakdown": breakdown, "winners": winners}


def build_view(state: State, seat: int | None) -> View:
    """An allowlist: coins and lanterns, the shown lantern, how many are left, the bidding's
    public status and the seat's own bid; never others' bids, the deck order, the generator."""
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
        "legal": kit.legal_in(PHASES, state, seat),
        "to_act": sorted(kit.to_act_in(PHASES, state)),
        "result": final_result(state) if state["phase"] == "over" else None,
    }
