"""The two sealed, simultaneous choices, both phases of ``server.engine.phases``' kit:

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
from server.engine.phases import SealedPlanning
from server.engine.schema import Fields, Int, ListOf

from .data import TASK_COUNT
from .flow import end_planning, start_round
from .setup import TASKS_DEALT
from .state import DECK, State, counted, own_player


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


def _tasks(state: State, seat: int) -> list[Command]:
    """``keep`` commands for every non-empty subset of the seat's offered tasks."""
    offer = state["players"][seat]["offer"]
    return [
        {"type": "keep", "tasks": list(ids)}
        for size in range(1, len(offer) + 1)
        for ids in combinations(offer, size)
    ]


def _tasks_chosen(state: State, seat: int, tasks: Any) -> list[Event]:
    return [event("TasksChosen", f"{{s{seat}}} chose their task cards", params={"seat": seat})]


def _tasks_revealed(state: State) -> list[Event]:
    """Every seat has chosen: the kept tasks are its own, round 1 begins."""
    for s in range(state["seats"]):
        player = own_player(state, s)
        player["tasks"], player["offer"] = pl.plan_of(state["planning"], s), []
    return start_round(state, 0)


# Setup (S-3.4): a simultaneous secret choice, without waiting or taking back; setup opens it.
TASKS = SealedPlanning(
    commits={"keep": Fields({"tasks": ListOf(Int(0, TASK_COUNT - 1), max_len=TASKS_DEALT)})},
    choices=_tasks,
    plan_of=lambda state, seat, cmd: cmd["tasks"],
    sealed=_tasks_chosen,
    reveal=_tasks_revealed,
    waits=False,
    retracts=False,
)


def _influence(state: State, seat: int) -> list[Command]:
    """The seat's next private planning commands: drawing, then splitting."""
    player = state["players"][seat]
    if not player["stopped"]:
        cmds: list[Command] = [{"type": "draw"}] if player["deck"] else []
        # S-4.2: the first card is always drawn, so stopping needs a card in hand (or a
        # deck with nothing left to draw).
        if player["hand"] or not player["deck"]:
            cmds.append({"type": "stop"})
        return cmds
    if not player["hand"]:
        return [{"type": "seal"}]
    return [{"type": "stack", "cards": cards} for cards in sub_multisets(player["hand"])]


def _may_wait(state: State, seat: int) -> bool:
    """S-4.6: a seat may ask to wait only before it has seen a card of its own."""
    player = state["players"][seat]
    return not player["stopped"] and not player["hand"]


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
    if not player["hand"]:  # nothing to split: the empty plan is sealed at once
        events += INFLUENCE.seal(state, seat, _take_stacks(state, seat, cmd))
    return events


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


def _take_stacks(state: State, seat: int, cmd: Command) -> list[list[int]]:
    """The stacks the seat has formed: its plan, sealed."""
    player = own_player(state, seat)
    stacks: list[list[int]] = player["building"]
    player["building"] = []
    return stacks


def _stacks_sealed(state: State, seat: int, stacks: list[list[int]]) -> list[Event]:
    sizes = [len(s) for s in stacks]
    return [
        event(
            "StacksSealed",
            f"{{s{seat}}} put down {counted(len(stacks), 'stack')}"
            f" ({', '.join(counted(n, 'card') for n in sizes)})",
            params={"seat": seat, "count": len(stacks), "sizes": sizes},
        )
    ]


def _retracted(state: State, seat: int, stacks: list[list[int]]) -> None:
    """S-4.5: the sealed stacks go back to the hand to be split again (drawn cards never go
    back to the deck)."""
    own_player(state, seat)["hand"] = sorted(card for stack in stacks for card in stack)


CARD = Int(min(DECK), max(DECK))

# Each round (S-4.1 - S-4.6): draw, stop, split into stacks, seal; wait and retract.
INFLUENCE = SealedPlanning(
    commits={"seal": Fields()},
    steps={
        "draw": (Fields(), _draw),
        "stop": (Fields(), _stop),
        "stack": (Fields({"cards": ListOf(CARD, max_len=len(DECK))}), _stack),
    },
    choices=_influence,
    plan_of=_take_stacks,
    sealed=_stacks_sealed,
    reveal=end_planning,
    order_words="from the starting player clockwise",
    may_wait=_may_wait,
    retracted=_retracted,
)
