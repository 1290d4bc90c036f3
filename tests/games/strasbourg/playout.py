"""Random play-outs of whole Strasbourg games and the invariants checked along the way."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from server.engine import Rng, RuleError, is_visible
from server.engine import planning as pl
from server.engine.replay import final_state
from server.games.strasbourg.rules import DECK, cards_held

from .helpers import GAME

State = dict[str, Any]


def cards_conserved(state: State) -> None:
    """Every player's 24 influence cards are somewhere: held, revealed now, or out."""
    p = state["planning"]
    inf = state["influence"]
    for seat, player in enumerate(state["players"]):
        plan = pl.plan_of(p, seat) if state["phase"] == "planning" and p else None
        revealed = len(inf["revealed"][seat] or []) if inf else 0
        assert cards_held(player, plan) + revealed + player["out"] == len(DECK), seat


def no_negatives(state: State) -> None:
    for player in state["players"]:
        assert player["coins"] >= 0 and player["privileges"] >= 0
        assert all(v >= 0 for v in player["goods"].values())


def perturb_hidden(state: State, seat: int, rng: Rng) -> State:
    """The same public situation with ``seat``'s secrets changed: deck order and values,
    drawn cards, stack values (sizes kept), coins, goods, privileges and task cards (and
    their count)."""
    s = copy.deepcopy(state)
    player = s["players"][seat]
    rng.shuffle(player["deck"])
    player["deck"] = [7 - c for c in player["deck"]]
    player["hand"] = [7 - c for c in player["hand"]]
    player["building"] = [[7 - c for c in st] for st in player["building"]]
    player["stacks"] = [[7 - c for c in st] for st in player["stacks"]]
    p = s["planning"]
    if s["phase"] == "planning" and p and p["plans"][seat] is not None:
        p["plans"][seat] = [[7 - c for c in st] for st in p["plans"][seat]]
    player["coins"] += 1 + rng.below(9)
    player["goods"] = {g: rng.below(4) for g in player["goods"]}
    player["privileges"] += 1 + rng.below(3)
    tasks = list(range(25))
    rng.shuffle(tasks)
    player["tasks"] = sorted(tasks[: 1 + rng.below(5)])
    if s["phase"] == "tasks":
        player["offer"] = sorted(tasks[5:10])
    return s


def hidden_variants(state: State, seat: int, rng: Rng) -> list[State]:
    """The harness hook: variants of ``seat``'s hidden information (none once the game is
    over, when final scoring shows tasks and privileges to everyone)."""
    if state["phase"] == "over":
        return []
    return [perturb_hidden(state, seat, rng), perturb_hidden(state, seat, rng)]


def check_state(state: State) -> None:
    """Strasbourg's own invariants, for the generic harness."""
    cards_conserved(state)
    no_negatives(state)
    assert 0 <= state["round"] < 5


def views_independent(state: State, rng: Rng) -> None:
    """Seat A's view (and a spectator's) is byte-identical whatever B's secrets are
    (until the game is over, when final scoring shows tasks and privileges)."""
    if state["phase"] == "over":
        return
    n = state["seats"]
    for other in range(n):
        changed = perturb_hidden(state, other, rng)
        for viewer in [None, *range(n)]:
            if viewer == other:
                continue
            a = json.dumps(GAME.view(state, viewer), sort_keys=True)
            b = json.dumps(GAME.view(changed, viewer), sort_keys=True)
            assert a == b, (viewer, other, state["phase"])


def events_private(events: list[Any], seat: int) -> None:
    for ev in events:
        if ev["type"] in ("CardDrawn", "DrawingStopped", "StackFormed"):
            assert ev["to"] == [seat]
        else:
            assert ev["to"] is None


def illegal_rejected(state: State) -> None:
    """Commands legal for someone else, or for nobody, are refused with a RuleError."""
    acting = GAME.to_act(state)
    for seat in range(state["seats"]):
        for cmd in (
            {"type": "fly"},
            {"type": "reveal", "stack": 99},
            {"type": "build", "cell": [9, 9]},
        ):
            try:
                GAME.apply(state, seat, cmd)
            except RuleError:
                continue
            raise AssertionError(f"{cmd} accepted for seat {seat}")
        if seat in acting or GAME.legal(state, seat):
            continue
        for other in acting:
            for cmd in GAME.legal(state, other)[:3]:
                if cmd in GAME.legal(state, seat):
                    continue
                try:
                    GAME.apply(state, seat, cmd)
                except RuleError:
                    continue
                raise AssertionError(f"{cmd} accepted for seat {seat} who may not act")


def play_out(seats: int, seed: int, planning: str, deep_every: int = 0) -> tuple[State, list[Any]]:
    """A whole game with uniformly random legal commands; every invariant checked at each
    step, and the expensive ones (view independence, rejections) every ``deep_every``."""
    rng = random.Random(seed)
    state = GAME.new(seats, f"playout-{seed}", {"planning": planning})
    record: list[Any] = []
    rounds_started = 0
    step = 0
    while GAME.result(state) is None:
        acting = sorted(GAME.to_act(state))
        assert acting, state["phase"]
        for seat in range(seats):
            assert bool(GAME.legal(state, seat)) >= (seat in acting)
        # Now and then a sealed seat takes its stacks back (it is not in to_act, but may).
        extra = [s for s in range(seats) if s not in acting and GAME.legal(state, s)]
        seat = rng.choice(extra) if extra and rng.random() < 0.1 else rng.choice(acting)
        legal = GAME.legal(state, seat)
        assert GAME.view(state, seat)["legal"] == legal
        cmd = rng.choice(legal)
        before = json.dumps(state, sort_keys=True)
        new, events = GAME.apply(state, seat, cmd)
        assert json.dumps(state, sort_keys=True) == before  # apply is pure
        assert json.loads(json.dumps(new)) == new
        events_private(events, seat)
        rounds_started += sum(1 for e in events if e["type"] == "RoundStarted")
        record.append((seat, cmd))
        state = new
        cards_conserved(state)
        no_negatives(state)
        assert 0 <= state["round"] < 5
        step += 1
        if deep_every and step % deep_every == 0:
            views_independent(state, Rng(step))
            illegal_rejected(state)
    assert rounds_started == 5
    return state, record


def replay(seats: int, seed: int, planning: str, record: list[Any]) -> State:
    options = {"planning": planning}
    return final_state(
        GAME, {"seats": seats, "seed": f"playout-{seed}", "options": options, "commands": record}
    )


def check_finished(state: State) -> None:
    result = GAME.result(state)
    assert result is not None
    assert len(result["scores"]) == state["seats"] == len(result["breakdown"])
    for score, parts in zip(result["scores"], result["breakdown"], strict=True):
        assert score == sum(parts.values())
    assert result["winners"] and set(result["winners"]) <= set(range(state["seats"]))
    assert all(
        is_visible({"type": "x", "text": "", "to": None, "params": {}}, s)
        for s in range(state["seats"])
    )
    assert GAME.to_act(state) == set() and all(
        not GAME.legal(state, s) for s in range(state["seats"])
    )
