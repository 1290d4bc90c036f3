"""A tiny game with the shape of Norenberc's hard parts, for testing the bots without it.

*Sealed bid*: every seat is dealt a hidden hand of bid cards from a deck ``1 .. 4*seats+3``
(the rest leave unseen); a shuffled prize deck ``1 .. 6`` is hidden. Each round the top prize
is shown, every seat seals one bid card (``server.engine.planning``: commit or wait), then the
bids are revealed, the highest card wins the prize and the bid cards are discarded face up.
After four rounds the most prize points wins.

Hidden: other hands, sealed bids, the prize deck order. ``SealedBidBots`` is its bot adapter.
"""

from __future__ import annotations

import copy
from typing import Any

from server.bots.ismcts import outcome
from server.engine import (
    Command,
    Event,
    Result,
    Rng,
    RuleError,
    State,
    View,
    event,
    seed_to_state,
)
from server.engine import planning as pl

HAND = 4
PRIZES = list(range(1, 7))


def bid_deck(seats: int) -> list[int]:
    return list(range(1, HAND * seats + 4))


class SealedBid:
    name = "sealedbid"
    title = "Sealed bid"
    min_seats = 2
    max_seats = 5

    def default_options(self) -> dict[str, Any]:
        return {}

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        rng = Rng(seed_to_state(seed))
        deck, prizes = bid_deck(seats), list(PRIZES)
        rng.shuffle(deck)
        rng.shuffle(prizes)
        hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(seats)]
        return {
            "seats": seats,
            "hands": hands,
            "out": sorted(deck[seats * HAND :]),
            "prizes": prizes[1:],
            "prize": prizes[0],
            "discards": [],
            "scores": [0] * seats,
            "round": 1,
            "planning": pl.open_planning(seats, list(range(seats)), list(range(seats))),
            "rng": rng.state,
        }

    def to_act(self, state: State) -> set[int]:
        if state["round"] > HAND:
            return set()
        p = state["planning"]
        return {s for s in range(state["seats"]) if pl.may_commit(p, s) or pl.may_wait(p, s)}

    def legal(self, state: State, seat: int) -> list[Command]:
        if seat not in self.to_act(state):
            return []
        p = state["planning"]
        cmds: list[Command] = []
        if pl.may_commit(p, seat):
            cmds += [{"type": "bid", "card": c} for c in state["hands"][seat]]
        if pl.may_wait(p, seat):
            cmds.append({"type": "wait"})
        return cmds

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        if cmd not in self.legal(state, seat):
            raise RuleError("illegal_command", f"{cmd!r} is not legal for seat {seat} now")
        s = copy.deepcopy(state)
        if cmd["type"] == "wait":
            s["planning"] = pl.wait(s["planning"], seat)
            return s, [pl.waited_event(seat, "in seat order")]
        s["planning"] = pl.commit(s["planning"], seat, cmd["card"])
        events = [event("BidSealed", f"{{s{seat}}} sealed a bid")]
        if pl.is_complete(s["planning"]):
            events += self._reveal(s)
        return s, events

    def _reveal(self, s: State) -> list[Event]:
        bids = [pl.plan_of(s["planning"], seat) for seat in range(s["seats"])]
        winner = bids.index(max(bids))
        s["scores"][winner] += s["prize"]
        for seat, card in enumerate(bids):
            s["hands"][seat].remove(card)
        s["discards"] = sorted(s["discards"] + bids)
        s["round"] += 1
        s["prize"] = s["prizes"].pop(0) if s["round"] <= HAND else None
        seats = list(range(s["seats"]))
        s["planning"] = pl.open_planning(s["seats"], seats, seats if s["round"] <= HAND else [])
        return [event("PrizeWon", f"{{s{winner}}} won the prize with {max(bids)}")]

    def view(self, state: State, seat: int | None) -> View:
        return {
            "seat": seat,
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state["hands"]],
            "prize": state["prize"],
            "prizes_left": len(state["prizes"]),
            "prizes_gone": sorted(set(PRIZES) - set(state["prizes"]) - {state["prize"]}),
            "discards": list(state["discards"]),
            "scores": list(state["scores"]),
            "round": state["round"],
            "planning": pl.public_status(state["planning"]),
            "ordered": pl.is_ordered(state["planning"]),
            "to_act": sorted(self.to_act(state)),
            "legal": self.legal(state, seat) if seat is not None else [],
        }

    def result(self, state: State) -> Result | None:
        if state["round"] <= HAND:
            return None
        best = max(state["scores"])
        winners = [s for s, v in enumerate(state["scores"]) if v == best]
        return {
            "scores": list(state["scores"]),
            "breakdown": [{"prizes": v} for v in state["scores"]],
            "winners": winners,
        }


GAME = SealedBid()


def _rank_bid(hand: list[int], prize: int, prizes_unseen: list[int]) -> int:
    """The card whose rank in the hand matches the prize's rank among the prizes to come."""
    higher = sum(1 for p in prizes_unseen if p > prize)
    ordered = sorted(hand, reverse=True)
    share = higher * len(ordered) // (len(prizes_unseen) + 1)
    return ordered[min(share, len(ordered) - 1)]


class SealedBidBots:
    """Bot knowledge of the sealed-bid game: rank-matching heuristic and a determinizer."""

    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        unseen = [p for p in PRIZES if p not in view["prizes_gone"] and p != view["prize"]]
        card = _rank_bid(view["hand"], view["prize"], unseen)
        return {"type": "bid", "card": card}

    def candidates(self, view: View, seat: int) -> list[Command]:
        return list(view["legal"])

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        seats = len(view["hand_counts"])
        unknown = [
            c for c in bid_deck(seats) if c not in view["hand"] and c not in view["discards"]
        ]
        rng.shuffle(unknown)
        hands: list[list[int]] = []
        for other, count in enumerate(view["hand_counts"]):
            if other == seat:
                hands.append(list(view["hand"]))
            else:
                hands.append(sorted(unknown[:count]))
                unknown = unknown[count:]
        prizes = [p for p in PRIZES if p not in view["prizes_gone"] and p != view["prize"]]
        rng.shuffle(prizes)
        planning = pl.open_planning(seats, list(range(seats)), list(range(seats)))
        for other, status in enumerate(view["planning"]):
            if status == "committed":
                planning = pl.commit(planning, other, hands[other][rng.below(len(hands[other]))])
        # Ordered only after the commits above: they were made before or in turn.
        planning["ordered"] = view["ordered"]
        return {
            "seats": seats,
            "hands": hands,
            "out": sorted(unknown),
            "prizes": prizes[: view["prizes_left"]],
            "prize": view["prize"],
            "discards": list(view["discards"]),
            "scores": list(view["scores"]),
            "round": view["round"],
            "planning": planning,
            "rng": rng.next_u64(),
        }

    def rollout(self, game: Any, state: State, seat: int, rng: Rng) -> Command:
        legal = [c for c in game.legal(state, seat) if c["type"] == "bid"]
        return rng.choice(legal)

    def evaluate(self, game: Any, state: State, seat: int) -> float:
        scores = state["scores"]
        fake: Result = {
            "scores": scores,
            "breakdown": [],
            "winners": [s for s, v in enumerate(scores) if v == max(scores)],
        }
        return outcome(fake, seat)


BOTS = SealedBidBots()
