"""Turn flow: sealed planning, calling guilds in order, whose action it is, the end phase.

Planning is the engine's sealed-planning phase (``PLANNING``, ``server.engine.phases``); its
order is the reverse play order. A plan is the sorted list of guilds a seat played; ``[]``
is a pass.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from server.engine import Command, Event, RuleError, State, event
from server.engine import planning as sealed
from server.engine.phases import SealedPlanning
from server.engine.schema import Fields, Int, ListOf

from . import roundend
from .state import (
    guild_name,
    guilds_in_play,
    own_action,
    own_house,
    own_list,
    own_player,
    player,
)

MAX_GUILDS = 6


def open_turn(state: State) -> None:
    """Start the planning phase of a turn for every seat whose disc shows the agent side."""
    PLANNING.open(state)
    state["phase"] = "planning"
    state["plans"] = None
    state["called"] = []
    state["action"] = None


def parse_plan(state: State, seat: int, guilds: Any) -> list[int]:
    """The sorted plan in ``guilds``; RuleError naming what is wrong with it."""
    if not isinstance(guilds, list) or not all(
        isinstance(g, int) and not isinstance(g, bool) for g in guilds
    ):
        raise RuleError("bad_command", f"guilds must be a list of guild numbers, got {guilds!r}")
    in_play = guilds_in_play(state)
    for g in guilds:
        if g not in in_play:
            raise RuleError("unknown_guild", f"guild {g} is not in play (1-{in_play[-1]} are)")
    if len(set(guilds)) != len(guilds):
        raise RuleError("duplicate_guild", f"at most one card per guild, got {guilds}")
    if not guilds:
        raise RuleError("no_cards", "a plan needs at least one card; send pass to pass")
    hand = player(state, seat)["hand"]
    if len(guilds) > hand:
        raise RuleError("too_many_cards", f"{len(guilds)} cards but only {hand} agents in hand")
    return sorted(guilds)


def explain_planning(state: State, seat: int, cmd: Command, legal: list[Command]) -> Any:
    """Why a planning command ``legal`` does not list is refused, as the rules say it (which
    guild is not in play, which card is one too many), before the shared codes."""
    p, kind = state["planning"], cmd["type"]
    if kind not in PLANNING.commands:
        if not p["eligible"][seat]:
            return RuleError("not_your_turn", f"seat {seat} does not plan this turn")
        return RuleError(
            "unexpected_command",
            f"{kind!r} is not possible while planning (plan, pass, wait, retract)",
        )
    try:
        if kind == "retract":
            sealed.retract(p, seat)
        elif kind == "wait":
            # N-4.5: one wait makes the whole phase ordered, last in play order first.
            sealed.wait(p, seat)
        else:
            sealed.check_may_plan(p, seat)
            if kind == "plan":
                parse_plan(state, seat, cmd["guilds"])
    except RuleError as exc:
        return exc
    return None


def _plans(state: State, seat: int) -> list[Command]:
    """Every plan the seat may play (by size, then guilds), then a pass."""
    plans = _plans_of(len(state["houses"]), state["players"][seat]["hand"])
    return [*({"type": "plan", "guilds": list(plan)} for plan in plans), {"type": "pass"}]


def _plans_like(state: State, seat: int, cmd: Command) -> list[Command]:
    """The choices that may equal ``cmd``: a pass, or the plans of its number of guilds."""
    if cmd["type"] != "plan":
        return [{"type": "pass"}]
    size = len(cmd["guilds"])
    plans = _plans_of(len(state["houses"]), state["players"][seat]["hand"])
    return [{"type": "plan", "guilds": list(plan)} for plan in plans if len(plan) == size]


@lru_cache(maxsize=64)
def _plans_of(guild_count: int, hand: int) -> tuple[tuple[int, ...], ...]:
    """Every plan of at most ``hand`` guilds out of ``guild_count``: by size, then guilds."""
    guilds = list(range(1, guild_count + 1))
    plans = []
    for mask in range(1, 1 << len(guilds)):
        plan = tuple(g for i, g in enumerate(guilds) if mask >> i & 1)
        if len(plan) <= hand:
            plans.append(plan)
    return tuple(sorted(plans, key=lambda plan: (len(plan), plan)))


def _log_commit(state: State, seat: int, plan: list[int]) -> list[Event]:
    if not plan:
        return [event("Passed", f"{{s{seat}}} passed", params={"seat": seat})]
    n = len(plan)
    # Public: only how many cards; which guilds stays sealed until they are called.
    text = f"{{s{seat}}} played {n} card{'s' * (n > 1)}"
    names = ", ".join(guild_name(g) for g in plan)
    return [
        event("PlanCommitted", text, params={"seat": seat, "n": n}),
        event("PlanSealed", f"your plan: {names}", to=[seat], params={"guilds": plan}),
    ]


def _end_planning(state: State) -> list[Event]:
    events: list[Event] = []
    end_planning(state, events)
    return events


def end_planning(state: State, events: list[Event]) -> None:
    """Every plan is in: passing seats flip to the moon and the action phase starts."""
    plans = [p if p is not None else [] for p in state["planning"]["plans"]]
    for seat in state["order"]:
        if state["planning"]["eligible"][seat] and not plans[seat]:
            own_player(state, seat)["disc"] = "moon"
            text = f"{{s{seat}}} is out for the rest of the round"
            params = {"seat": seat, "variant": "passed"}
            events.append(event("DiscFlipped", text, params=params))
    state["plans"] = plans
    state["planning"] = None
    state["phase"] = "action"
    text = "all plans are in; the guilds are called in order"
    events.append(event("PlanningEnded", text, params={}))
    advance(state, events)


def _agents(state: State) -> list[int]:
    """The seats that plan this turn: those whose disc shows the agent side."""
    return [s for s in range(state["seats"]) if player(state, s)["disc"] == "agent"]


# N-4.1 - N-4.8: every seat with its agent side up plans; a plan is sorted, a pass is [].
PLANNING = SealedPlanning(
    commits={
        "plan": Fields({"guilds": ListOf(Int(0, 9), max_len=MAX_GUILDS)}),
        "pass": Fields(),
    },
    choices=_plans,
    choices_of=_plans_like,
    plan_of=lambda state, seat, cmd: sorted(cmd["guilds"]) if cmd["type"] == "plan" else [],
    sealed=_log_commit,
    reveal=_end_planning,
    order=lambda state: list(reversed(state["order"])),
    eligible=lambda state: [
        s for s in range(state["seats"]) if player(state, s)["disc"] == "agent"
    ],
    order_words="last in play order first",
)


def current_actor(state: State) -> int | None:
    """The seat that acts at the called guild now (the choosing seat during a choice)."""
    action = state["action"]
    if action is None:
        return None
    if action["choice"] is not None:
        seat: int = action["choice"]["seat"]
        return seat
    for seat in state["order"]:
        if seat in action["cards"] and seat not in action["acted"]:
            return seat
    return None


def _next_guild(state: State) -> int | None:
    last = state["called"][-1] if state["called"] else 0
    for g in guilds_in_play(state):
        if g > last and any(g in plan for plan in state["plans"]):
            return g
    return None


def _call_guild(state: State, guild: int, events: list[Event]) -> None:
    cards = [s for s in state["order"] if guild in state["plans"][s]]
    for seat in cards:
        p = own_player(state, seat)
        p["hand"] -= 1
        p["card"] = 1
    own_list(state, "called").append(guild)
    state["action"] = {"guild": guild, "cards": cards, "acted": [], "choice": None}
    who = ", ".join(f"{{s{s}}}" for s in cards)
    text = f"the {guild_name(guild)} are called: {who} revealed a card"
    events.append(event("GuildCalled", text, params={"guild": guild, "seats": cards}))


def finish_action(state: State, seat: int, events: list[Event]) -> None:
    """``seat`` has acted: its agent goes to the roof and play moves on."""
    action = own_action(state)
    own_player(state, seat)["card"] = 0
    own_house(state, action["guild"])["roof"][seat] += 1
    action["acted"].append(seat)
    advance(state, events)


def advance(state: State, events: list[Event]) -> None:
    """Move on to the next seat, guild, end phase, turn or round until input is needed."""
    while state["phase"] == "action" and current_actor(state) is None:
        guild = _next_guild(state)
        if guild is None:
            state["action"] = None
            _end_phase(state, events)
            return
        _call_guild(state, guild, events)


def round_started(state: State) -> Event:
    """The event of a round's start (the first one's is the game's opening)."""
    text = f"round {state['round']} begins"
    return event("RoundStarted", text, params={"round": state["round"]})


def _end_phase(state: State, events: list[Event]) -> None:
    for seat in state["order"]:
        p = player(state, seat)
        if p["disc"] == "agent" and p["hand"] == 0:
            own_player(state, seat)["disc"] = "moon"
            text = f"{{s{seat}}} has no agent left for this round"
            params = {"seat": seat, "variant": "no_agent"}
            events.append(event("DiscFlipped", text, params=params))
    if all(p["disc"] == "moon" for p in state["players"]):
        roundend.end_round(state, events)
        if state["phase"] == "over":
            return
        open_turn(state)
        events.append(round_started(state))
        return
    state["turn"] += 1
    open_turn(state)
    text = f"turn {state['turn']} of round {state['round']} begins"
    params = {"turn": state["turn"], "round": state["round"]}
    events.append(event("TurnStarted", text, params=params))
