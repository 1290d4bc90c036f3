"""The two sealed, simultaneous choices, both through ``server.engine.planning``:

- setup: each seat keeps 1–5 of its 5 task cards (``keep``);
- each round: each seat draws influence cards one at a time (``draw`` / ``stop``), then
  splits them into stacks (``stack`` …, ``seal``). The first card is always drawn: ``stop``
  needs a card in hand (S-4.2). ``wait`` makes the whole phase ordered (starting player
  first, then clockwise; S-4.6); ``retract`` takes sealed stacks back to re-split them
  while the phase is still simultaneous (drawn cards never go back to the deck).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

from server.engine import Command, Event, event
from server.engine import planning as pl

from .flow import end_planning, start_round
from .state import State, counted, own_player


def sub_multisets(values: list[int]) -> list[list[int]]:
    """Every non-empty sub-multiset of ``values``, each sorted, in a stable order.

    >>> sub_multisets([2, 5, 2])
    [[5], [2], [2, 5], [2, 2], [2, 2, 5]]
    """
    counts = {v: values.count(v) for v in sorted(set(values))}
    out = []
    for picks in product(*(range(c + 1) for c in counts.values())):
        cards = [v for v, k in zip(counts, picks, strict=True) for _ in range(k)]
        if cards:
            out.append(cards)
    return sorted(out, key=len)


def legal_tasks(state: State, seat: int) -> list[Command]:
    """``keep`` commands for every non-empty subset of the seat's offered tasks."""
    if not pl.may_commit(state["planning"], seat):
        return []
    offer = state["players"][seat]["offer"]
    return [
        {"type": "keep", "tasks": list(ids)}
        for size in range(1, len(offer) + 1)
        for ids in combinations(offer, size)
    ]


def legal_planning(state: State, seat: int) -> list[Command]:
    """The seat's next private planning commands (drawing, then splitting, or retract)."""
    p = state["planning"]
    player = state["players"][seat]
    if pl.may_retract(p, seat):
        return [{"type": "retract"}]
    if not pl.may_commit(p, seat):
        return []
    if not player["stopped"]:
        cmds: list[Command] = [{"type": "draw"}] if player["deck"] else []
        # S-4.2: the first card is always drawn, so stopping needs a card in hand (or a
        # deck with nothing left to draw).
        if player["hand"] or not player["deck"]:
            cmds.append({"type": "stop"})
        # S-4.6: a seat may ask to wait only before it has seen a card of its own.
        if pl.may_wait(p, seat) and not player["hand"]:
            cmds.append({"type": "wait"})
        return cmds
    if not player["hand"]:
        return [{"type": "seal"}]
    return [{"type": "stack", "cards": cards} for cards in sub_multisets(player["hand"])]


def apply_keep(state: State, seat: int, cmd: Command) -> list[Event]:
    """Seal the kept tasks; once every seat has chosen, round 1 begins."""
    state["planning"] = pl.commit(state["planning"], seat, cmd["tasks"])
    events = [event("TasksChosen", f"{{s{seat}}} chose their task cards", params={"seat": seat})]
    if not pl.is_complete(state["planning"]):
        return events
    for s in range(state["seats"]):
        player = own_player(state, s)
        player["tasks"], player["offer"] = pl.plan_of(state["planning"], s), []
    return events + start_round(state, 0)


def apply_planning(state: State, seat: int, cmd: Command) -> list[Event]:
    """Apply one of draw / stop / wait / stack / seal / retract (already checked legal)."""
    events: list[Event] = _PLANNING[cmd["type"]](state, seat, cmd)
    return events


def _draw(state: State, seat: int, cmd: Command) -> list[Event]:
    player = own_player(state, seat)
    card = player["deck"].pop(0)
    player["hand"].append(card)
    return [event("CardDrawn", f"you drew a {card}", to=[seat], params={"drawn": card})]


def _stop(state: State, seat: int, cmd: Command) -> list[Event]:
    player = own_player(state, seat)
    player["stopped"] = True
    events = [
        event(
            "DrawingStopped",
            f"you stopped drawing with {counted(len(player['hand']), 'card')}",
            to=[seat],
            params={"held": len(player["hand"])},
        )
    ]
    if not player["hand"]:
        events += _seal(state, seat, cmd)  # nothing to split: the empty plan is sealed at once
    return events


def _wait(state: State, seat: int, cmd: Command) -> list[Event]:
    state["planning"] = pl.wait(state["planning"], seat)
    return [pl.waited_event(seat, "from the starting player clockwise")]


def _stack(state: State, seat: int, cmd: Command) -> list[Event]:
    player = own_player(state, seat)
    for card in cmd["cards"]:
        player["hand"].remove(card)
    player["building"].append(list(cmd["cards"]))
    return [
        event(
            "StackFormed",
            f"you formed a stack {cmd['cards']}",
            to=[seat],
            params={"stack": list(cmd["cards"])},
        )
    ]


def _seal(state: State, seat: int, cmd: Command) -> list[Event]:
    player = own_player(state, seat)
    stacks, player["building"] = player["building"], []
    state["planning"] = pl.commit(state["planning"], seat, stacks)
    sizes = [len(s) for s in stacks]
    events = [
        event(
            "StacksSealed",
            f"{{s{seat}}} put down {counted(len(stacks), 'stack')}"
            f" ({', '.join(counted(n, 'card') for n in sizes)})",
            params={"seat": seat, "count": len(stacks), "sizes": sizes},
        )
    ]
    if pl.is_complete(state["planning"]):
        events += end_planning(state)
    return events


def _retract(state: State, seat: int, cmd: Command) -> list[Event]:
    player = own_player(state, seat)
    stacks = pl.plan_of(state["planning"], seat)
    state["planning"] = pl.retract(state["planning"], seat)
    player["hand"] = sorted(card for stack in stacks for card in stack)
    return [pl.retracted_event(seat)]


_PLANNING: dict[str, Any] = {
    "draw": _draw,
    "stop": _stop,
    "wait": _wait,
    "stack": _stack,
    "seal": _seal,
    "retract": _retract,
}
