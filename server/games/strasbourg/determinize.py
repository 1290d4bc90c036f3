"""Rebuild a full engine state from one seat's view, sampling what the seat cannot see.

Search bots (ISMCTS) play on such *determinizations*: ``sample_state(view, rng)`` returns a
state whose view for the same seat is identical to ``view``, with every secret of the other
seats drawn at random where the view leaves it open: their deck order and contents (from
the cards they have not been seen to spend), stack values (sizes are kept), coins, goods,
privileges and task cards; and the order of the seat's own deck.

The others' goods, privileges, kept task cards and coins are drawn from what seats really
held at that round in self-play (``PRIORS``, measured by ``server.bots.strasbourg_priors``),
not a posterior over this game's events, which the view does not keep. Coins follow from
the view in part: every coin a seat has comes from the 5 it started with or from selling,
and every coin it spent bought one of its members in the city at that space's public price,
so only what it earned by selling is drawn, and never less than it must have earned to pay
for its members. A seat still drawing in planning is taken to have drawn nothing yet.
"""

from __future__ import annotations

from typing import Any

from server.engine import Rng
from server.engine.phases import sample_from_public

from .data import GUILD_KEYS, ROUNDS, components
from .state import DECK, STEPS, State

START_COINS = 5  # S-1.2

# What other seats hold, by round (index 0 = round 1): how often, per 1000, each count 0, 1,
# 2, … was seen at a deciding seat's decisions in greedy self-play, 40 games at each of 3, 4
# and 5 seats (``python -m server.bots.strasbourg_priors 40``: 132,073 observations).
# ``earned``: coins earned by selling so far (coins + what the seat's city members cost - 5).
# ``tasks``: task cards kept. Means by round: goods 0.26, 0.73, 0.85, 0.88, 0.83;
# privileges 0, 0.38, 0.79, 1.11, 1.50; earned 0.3, 2.6, 6.0, 9.5, 13.3; tasks 1.93.
# fmt: off
PRIORS: dict[str, list[list[int]]] = {
    "goods": [
        [782, 175, 44],
        [455, 371, 158, 15],
        [408, 379, 170, 39, 5],
        [428, 341, 162, 57, 11],
        [457, 332, 151, 50, 9, 1],
    ],
    "privileges": [
        [1000],
        [615, 385],
        [409, 398, 194],
        [311, 366, 223, 100],
        [196, 351, 252, 157, 44],
    ],
    "earned": [
        [950, 3, 1, 3, 7, 8, 13, 1, 1, 13],
        [537, 46, 21, 39, 57, 66, 94, 30, 26, 62, 5, 9, 4, 1, 2, 1],
        [147, 43, 28, 62, 65, 105, 146, 71, 61, 97, 36, 43, 29, 17, 19, 15, 10, 2, 2, 1, 0, 1],
        [
            28, 20, 18, 32, 39, 72, 78, 84, 68, 97, 60, 57, 76, 51, 61, 51, 45, 17, 14, 10, 6, 8, 2,
            4, 0, 1, 0, 0, 1
        ],
        [
            2, 5, 9, 12, 10, 31, 29, 45, 45, 68, 49, 67, 82, 58, 81, 77, 65, 56, 42, 33, 35, 32, 19,
            22, 4, 10, 1, 3, 2, 2, 1
        ],
    ],
    "tasks": [
        [0, 66, 934],
        [0, 66, 934],
        [0, 67, 933],
        [0, 66, 934],
        [0, 66, 934],
    ],
}
# fmt: on

View = dict[str, Any]


def _without(pool: list[int], cards: list[int]) -> list[int]:
    rest = list(pool)
    for card in cards:
        if card in rest:
            rest.remove(card)
    return rest


def _take(pool: list[int], count: int, rng: Rng) -> list[int]:
    """``count`` random cards out of ``pool`` (removed from it); tops up from a full deck
    in the impossible case that the pool runs short, so a sample is always complete."""
    rng.shuffle(pool)
    taken = pool[:count]
    del pool[:count]
    while len(taken) < count:
        taken.append(DECK[rng.below(len(DECK))])
    return taken


def _own_player(view: View, rng: Rng) -> dict[str, Any]:
    me = view["me"]
    public = view["players"][view["seat"]]
    revealed = public["revealed"] or []
    known = [c for s in me["stacks"] + me["building"] for c in s] + me["hand"] + revealed
    pool = _without(_without(DECK, public["spent"]), known)
    return {
        "deck": _take(pool, me["deck"], rng),
        "hand": list(me["hand"]),
        "building": [list(s) for s in me["building"]],
        "stopped": me["stopped"],
        "stacks": [list(s) for s in me["stacks"]],
        "coins": me["coins"],
        "goods": dict(me["goods"]),
        "privileges": me["privileges"],
        "prestige": public["prestige"],
        "offer": [t["id"] for t in me["offer"]],
        "tasks": [t["id"] for t in me["tasks"]],
        "out": len(DECK) - public["cards_left"] - len(revealed),
        "spent": list(public["spent"]),
    }


def spent_on_city(city: list[list[int | None]], seat: int) -> int:
    """Coins ``seat`` paid for its members in the city (public: their spaces' prices)."""
    prices = components().prices
    return sum(
        prices.get((r, c), 0)
        for r, row in enumerate(city)
        for c, who in enumerate(row)
        if who == seat
    )


def draw_from(counts: list[int], rng: Rng, least: int = 0) -> int:
    """A value drawn from the histogram ``counts`` (value i seen counts[i] times), never
    below ``least`` (the histogram's tail from ``least`` on; ``least`` itself if empty)."""
    tail = counts[least:]
    total = sum(tail)
    if total <= 0:
        return least
    pick = rng.below(total)
    for offset, count in enumerate(tail):
        if pick < count:
            return least + offset
        pick -= count
    return len(counts) - 1  # not reached: the picks add up to ``total``


def prior(kind: str, view: View) -> list[int]:
    """The histogram of ``kind`` (a key of ``PRIORS``) at the view's round."""
    return PRIORS[kind][min(max(view["round"], 1), ROUNDS) - 1]


def _goods(total: int, rng: Rng) -> dict[str, int]:
    goods = dict.fromkeys(GUILD_KEYS, 0)
    for _ in range(total):
        goods[GUILD_KEYS[rng.below(len(GUILD_KEYS))]] += 1
    return goods


def _coins(view: View, seat: int, rng: Rng) -> int:
    spent = spent_on_city(view["city"]["members"], seat)
    earned = draw_from(prior("earned", view), rng, least=max(0, spent - START_COINS))
    return START_COINS + earned - spent


def _other_player(view: View, seat: int, rng: Rng) -> dict[str, Any]:
    public = view["players"][seat]
    revealed = public["revealed"] or []
    pool = _without(_without(DECK, public["spent"]), revealed)
    stacks = [_take(pool, size, rng) for size in public["stacks"]]
    deck = _take(pool, public["cards_left"] - sum(public["stacks"]), rng)
    return {
        "deck": deck,
        "hand": [],
        "building": [],
        "stopped": public["planning"] == "committed",
        "stacks": stacks,
        "coins": _coins(view, seat, rng),
        "goods": _goods(draw_from(prior("goods", view), rng), rng),
        "privileges": draw_from(prior("privileges", view), rng),
        "prestige": public["prestige"],
        "offer": [],
        "tasks": [],
        "out": len(DECK) - public["cards_left"] - len(revealed),
        "spent": list(public["spent"]),
    }


def _deal_tasks(view: View, players: list[dict[str, Any]], rng: Rng) -> None:
    """Other seats' task cards: a 5-card offer while tasks are chosen, else as many kept cards
    as ``PRIORS`` says (at least one), all from the cards this seat has not seen."""
    me = view["me"]
    known = {t["id"] for t in me["tasks"] + me["offer"]}
    free = [t.id for t in components().tasks if t.id not in known]
    rng.shuffle(free)
    for s, player in enumerate(players):
        if s == view["seat"]:
            continue
        count = 5 if view["phase"] == "tasks" else draw_from(prior("tasks", view), rng, least=1)
        count = min(count, len(free))
        dealt, free[:] = sorted(free[:count]), free[count:]
        player["offer" if view["phase"] == "tasks" else "tasks"] = dealt


def _planning(view: View, state: State, rng: Rng) -> dict[str, Any] | None:
    """The planning record: public order, waiting and sealing order from the view; the
    committed seats' plans are their (sampled) stacks or task choices."""
    public = view["planning"]
    if public is None:
        return None
    seat = view["seat"]

    def plan_for(s: int) -> Any:
        player = state["players"][s]
        if view["phase"] == "tasks":
            offer = player["offer"]
            plan = player["tasks"] if s == seat else sorted(offer[: 1 + rng.below(len(offer))])
            player["tasks"] = []
        else:
            plan, player["stacks"] = player["stacks"], []
        return plan

    return sample_from_public(public, plan_for)


def _influence(view: View) -> dict[str, Any] | None:
    step = view["step"]
    if step is None or step["first"] is None:
        return None
    return {
        "start": step["first"],
        "queue": list(step["queue"]),
        "revealed": [p["revealed"] for p in view["players"]],
        "passed": [p["passed"] for p in view["players"]],
    }


def sample_state(view: View, rng: Rng) -> State:
    """A full state consistent with ``view`` (a seat's view, not a spectator's)."""
    comp = components()
    seat, n = view["seat"], view["seats"]
    players = [
        _own_player(view, rng) if s == seat else _other_player(view, s, rng) for s in range(n)
    ]
    _deal_tasks(view, players, rng)
    edifice_keys = [e.key for e in comp.edifices]
    step = view["step"]
    state: State = {
        "game": "strasbourg",
        "seats": n,
        "options": dict(view["options"]),
        "rng": rng.next_u64(),
        "phase": view["phase"],
        "round": view["round"] - 1,
        "step": STEPS.index(step["letter"]) if step else 0,
        "cards": [card["card"] - 1 for card in view["round_cards"]],
        "edifice_order": [
            edifice_keys.index(card["edifice"]["key"]) for card in view["round_cards"]
        ],
        "start": view["start_player"],
        "council": dict(view["council"]),
        "city": [list(row) for row in view["city"]["members"]],
        "built": [[*e["cell"], edifice_keys.index(e["key"])] for e in view["city"]["edifices"]],
        "chapels": list(view["city"]["chapels"]),
        "players": players,
        "planning": None,
        "influence": _influence(view),
        "ranking": list(step["ranking"]) if step else [],
        "choices": [dict(c) for c in step["choices"]] if step else [],
    }
    state["planning"] = _planning(view, state, rng)
    return state
