"""Building blocks for Norenberc scenario tests: fresh games, planning, placing tiles."""

from __future__ import annotations

import json
from typing import Any

from server.engine import Event, get_game
from server.games.norenberc.data import components

GAME = get_game("norenberc")
State = dict[str, Any]


def fresh(seats: int = 3, seed: str = "test", **options: Any) -> State:
    return GAME.new(seats, seed, options)


def act(state: State, seat: int, cmd: dict[str, Any]) -> tuple[State, list[Event]]:
    return GAME.apply(state, seat, cmd)


def plan_all(state: State, plans: dict[int, list[int]]) -> tuple[State, list[Event]]:
    """Every eligible seat commits ``plans[seat]`` (missing or [] = pass), in planning order."""
    events: list[Event] = []
    for seat in state["planning"]["order"]:
        if not state["planning"]["eligible"][seat]:
            continue
        plan = plans.get(seat, [])
        cmd = {"type": "plan", "guilds": plan} if plan else {"type": "pass"}
        state, evs = act(state, seat, cmd)
        events += evs
    return state, events


def citizen(kind: str, nth: int = 0) -> str:
    """The id of the ``nth`` citizen tile of type ``kind``."""
    comps = components()
    return [t for t in comps.citizens if comps.tiles[t]["citizen"] == kind][nth]


def craftsman(guild: int, value: int, agent: bool = False, nth: int = 0) -> str:
    comps = components()
    found = [
        t
        for t in comps.craftsmen[guild]
        if comps.tiles[t]["value"] == value and comps.tiles[t]["agent"] == agent
    ]
    return found[nth]


def lift(state: State, tile_id: str) -> None:
    """Take ``tile_id`` out of wherever it is, so a test can place it elsewhere."""
    if tile_id in state["deck"]:
        state["deck"].remove(tile_id)
    if tile_id in state["box"]:
        state["box"].remove(tile_id)
    for h in state["houses"]:
        if tile_id in h["master"]:
            h["master"].remove(tile_id)
        for stack in h["queue"]:
            if tile_id in stack:
                stack.remove(tile_id)
        h["guests"] = [None if t == tile_id else t for t in h["guests"]]
        if tile_id in h["judges"]:
            h["judges"].remove(tile_id)
    for p in state["players"]:
        for key in ("craftsmen", "citizens"):
            if tile_id in p[key]:
                p[key].remove(tile_id)


def put_guest(state: State, guild: int, window: int, tile_id: str) -> None:
    """Place ``tile_id`` in ``window`` (1-4) of ``guild``; the displaced guest goes to the box."""
    lift(state, tile_id)
    guests = state["houses"][guild - 1]["guests"]
    if guests[window - 1] is not None:
        state["box"].append(guests[window - 1])
    guests[window - 1] = tile_id


def swap_in(state: State, tile_id: str, replaced: str) -> None:
    """Put ``tile_id`` where ``replaced`` lies and ``replaced`` where ``tile_id`` lay."""
    text = json.dumps(state)
    text = text.replace(f'"{tile_id}"', '"__tmp__"').replace(f'"{replaced}"', f'"{tile_id}"')
    state.clear()
    state.update(json.loads(text.replace('"__tmp__"', f'"{replaced}"')))


def set_master(state: State, guild: int, value: int) -> None:
    """Make the master of ``guild`` a tile of ``value`` (swapping tiles, so all stay unique)."""
    current = state["houses"][guild - 1]["master"][0]
    wanted = next(
        t
        for t in components().craftsmen[guild]
        if components().tiles[t]["value"] == value and t not in state["houses"][guild - 1]["master"]
    )
    swap_in(state, wanted, current)


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def finish_round(state: State) -> tuple[State, list[Event]]:
    """Let everyone pass or do nothing until the round (or the game) is over."""
    events: list[Event] = []
    start = state["round"]
    while state["round"] == start and state["phase"] != "over":
        seat = min(GAME.to_act(state))
        legal = GAME.legal(state, seat)
        quiet = [c for c in legal if c["type"] in ("pass", "nothing", "decline")]
        state, evs = act(state, seat, quiet[0] if quiet else legal[0])
        events += evs
    return state, events
