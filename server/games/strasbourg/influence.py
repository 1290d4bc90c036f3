"""Steps A–G, the influence round: clockwise from the starting player each seat turns over
one stack (``reveal``), ``pass``es, or gives up a privilege (``privilege``) to decide after
everyone still to decide (repeatable while privileges last)."""

from __future__ import annotations

from server.engine import Command, Event, event, own

from .flow import auto_pass
from .state import State, own_player


def legal_influence(state: State, seat: int) -> list[Command]:
    """reveal (one per own stack), pass, and privilege when it can buy a later decision."""
    inf = state["influence"]
    if not inf["queue"] or inf["queue"][0] != seat:
        return []
    player = state["players"][seat]
    cmds: list[Command] = [{"type": "reveal", "stack": i} for i in range(len(player["stacks"]))]
    cmds.append({"type": "pass"})
    # A privilege only defers the decision: it is offered only while another seat that
    # still has a stack (public) is to decide, and only to a seat that has a stack itself.
    others = any(state["players"][s]["stacks"] for s in inf["queue"][1:])
    if player["privileges"] > 0 and player["stacks"] and others:
        cmds.append({"type": "privilege"})
    return cmds


def apply_influence(state: State, seat: int, cmd: Command) -> list[Event]:
    """Apply reveal / pass / privilege (already checked legal) and move the queue on."""
    inf = own(state, "influence")
    inf["queue"].pop(0)
    if cmd["type"] == "reveal":
        cards = own_player(state, seat)["stacks"].pop(cmd["stack"])
        inf["revealed"][seat] = cards
        text = f"{{s{seat}}} turned over {cards} ({sum(cards)} influence)"
        params = {"seat": seat, "revealed": list(cards), "influence": sum(cards)}
        events = [event("StackRevealed", text, params=params)]
    elif cmd["type"] == "pass":
        inf["passed"][seat] = True
        events = [event("Passed", f"{{s{seat}}} passed", params={"seat": seat})]
    else:
        own_player(state, seat)["privileges"] -= 1
        inf["queue"].append(seat)
        text = f"{{s{seat}}} gave up a privilege to decide later"
        events = [event("PrivilegeUsed", text, params={"seat": seat})]
    return events + auto_pass(state)
