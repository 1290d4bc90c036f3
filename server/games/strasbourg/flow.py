"""Round flow: planning → steps A–I → council phase, five times, then the game ends.

Every function takes the draft ``apply`` makes (``server.engine.draft``), changes it (each
part it changes taken with ``own_player`` / ``own`` first) and returns the events it produced.
"""

from __future__ import annotations

from server.engine import Event, event, own
from server.engine import planning as pl

from .choices import discard_revealed, resolve_influence
from .data import ROUNDS
from .state import (
    CHAPEL_STEP,
    EDIFICE_STEP,
    STEPS,
    State,
    clockwise,
    council_count,
    counted,
    own_player,
)


def start_round(state: State, round_: int) -> list[Event]:
    """Open sealed planning for ``round_`` (0-based): starting player first, then clockwise."""
    state["round"], state["step"], state["phase"] = round_, 0, "planning"
    for seat in range(state["seats"]):
        player = own_player(state, seat)
        player["hand"], player["building"], player["stopped"] = [], [], False
    order = clockwise(state["start"], state["seats"])
    ordered = state["options"]["planning"] == "ordered"
    state["planning"] = pl.open_planning(state["seats"], order, order, ordered=ordered)
    return [
        event(
            "RoundStarted",
            f"Round {round_ + 1} began: everyone plans influence stacks",
            params={"round": round_ + 1},
        )
    ]


def end_planning(state: State) -> list[Event]:
    """Planning is complete: sealed stacks go on the table, step A begins."""
    p = state["planning"]
    for seat in range(state["seats"]):
        own_player(state, seat)["stacks"] = pl.plan_of(p, seat)
    state["planning"] = None
    counts = [[len(s) for s in player["stacks"]] for player in state["players"]]
    sizes = "; ".join(f"{{s{seat}}} {sizes}" for seat, sizes in enumerate(counts))
    return [
        event(
            "PlanningEnded",
            f"Influence stacks are down (card counts: {sizes})",
            params={"sizes": counts},
        ),
        *begin_step(state, 0),
    ]


def begin_step(state: State, step: int) -> list[Event]:
    """Start step ``step`` (0 = A … 8 = I) of the current round."""
    state["step"] = step
    state["ranking"] = []
    if step == CHAPEL_STEP:
        return _seat_holder_builds(state, "church", "chapel")
    if step == EDIFICE_STEP:
        return _seat_holder_builds(state, "nobility", "edifice")
    return _begin_influence(state)


def _begin_influence(state: State) -> list[Event]:
    n = state["seats"]
    state["phase"] = "influence"
    state["influence"] = {
        "start": state["start"],
        "queue": clockwise(state["start"], n),
        "revealed": [None] * n,
        "passed": [False] * n,
    }
    events = [
        event(
            "StepStarted",
            f"Step {STEPS[state['step']]}: influence, {{s{state['start']}}} first",
            params={"step": state["step"], "seat": state["start"]},
        )
    ]
    return events + auto_pass(state)


def auto_pass(state: State) -> list[Event]:
    """Pass for seats at the head of the queue that have no stack left (public knowledge:
    their only legal move would be to pass). Resolves the step when the queue empties."""
    inf = state["influence"]
    events = []
    if inf["queue"] and not state["players"][inf["queue"][0]]["stacks"]:
        inf = own(state, "influence")
    while inf["queue"] and not state["players"][inf["queue"][0]]["stacks"]:
        seat = inf["queue"].pop(0)
        inf["passed"][seat] = True
        events.append(
            event(
                "Passed",
                f"{{s{seat}}} passed (no stack left)",
                params={"variant": "no_stack", "seat": seat},
            )
        )
    if not inf["queue"]:
        events += resolve_influence(state)
        events += continue_choices(state)
    return events


def _seat_holder_builds(state: State, seat_key: str, kind: str) -> list[Event]:
    holder = state["council"][seat_key]
    state["phase"] = "choice"
    state["influence"] = None
    state["choices"] = [{"seat": holder, "kind": kind, "guild": None, "role": None}]
    what = "a chapel" if kind == "chapel" else "this round's edifice"
    return [
        event(
            "StepStarted",
            f"Step {STEPS[state['step']]}: {{s{holder}}} places {what}",
            params={"variant": kind, "step": state["step"], "seat": holder},
        )
    ]


def continue_choices(state: State) -> list[Event]:
    """Finish the step when no decision is left; otherwise wait for the next one."""
    if state["choices"]:
        return []
    discard_revealed(state)
    return finish_step(state)


def finish_step(state: State) -> list[Event]:
    """The current step is done: next step, or the council phase after step I."""
    state["choices"] = []
    if state["step"] < EDIFICE_STEP:
        return begin_step(state, state["step"] + 1)
    return council_phase(state)


def council_phase(state: State) -> list[Event]:
    """Prestige per council member, a privilege to each seat with the most, unrevealed
    stacks leave the game, then the next round or the end."""
    n = state["seats"]
    counts = [council_count(state, seat) for seat in range(n)]
    events = []
    for seat, count in enumerate(counts):
        own_player(state, seat)["prestige"] += count
        events.append(
            event(
                "CouncilScored",
                f"{{s{seat}}} scored {count} for council members",
                params={"seat": seat, "count": count},
            )
        )
    best = max(counts)
    for seat in range(n):
        if counts[seat] == best and best > 0:
            own_player(state, seat)["privileges"] += 1
            events.append(
                event("PrivilegeGained", f"{{s{seat}}} received a privilege", params={"seat": seat})
            )
    for seat in range(n):
        player = own_player(state, seat)
        unused = sum(len(stack) for stack in player["stacks"])
        if unused:
            events.append(
                event(
                    "StacksDiscarded",
                    f"{{s{seat}}} discarded {counted(unused, 'unrevealed card')}",
                    params={"seat": seat, "count": unused},
                )
            )
        player["out"] += unused
        player["stacks"] = []
    if state["round"] + 1 < ROUNDS:
        return events + start_round(state, state["round"] + 1)
    state["phase"] = "over"
    ended = event("GameEnded", f"The game is over after {ROUNDS} rounds", params={"rounds": ROUNDS})
    return [*events, ended]
