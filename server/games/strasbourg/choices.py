"""What ranked players do once an influence step is ranked, and the chapel and edifice
placements of steps H and I.

Nothing here moves the round on: when the last decision is answered, ``flow.continue_choices``
(called by whoever applied it) finishes the step, so the round's flow imports this module and
never the other way round.

After ranking, automatic effects happen at once (council seats, goods); the decisions
left are queued in ``state["choices"]`` and answered one at a time by their seat:

===========  ===================================================  ======================
kind         who                                                  commands
===========  ===================================================  ======================
build        Master / Journeyman (after taking their good)        build, decline
apprentice   Apprentice                                           take_good, build
sell         1st in C/E/G                                         sell, done
return       revealed a stack but got no action                   return_card, return_none
chapel       Church seat holder, step H                           chapel
edifice      Nobility seat holder, step I                         edifice
===========  ===================================================  ======================
"""

from __future__ import annotations

from typing import Any

from server.engine import Command, Event, event, own

from .data import components
from .state import (
    COUNCIL_NAMES,
    State,
    action_slots,
    built_edifices,
    counted,
    edifice_name,
    edifice_of_round,
    own_player,
    rank,
    step_guild,
    step_kind,
)


def _choice(
    seat: int, kind: str, guild: str | None = None, role: str | None = None
) -> dict[str, Any]:
    return {"seat": seat, "kind": kind, "guild": guild, "role": role}


def place_on_council(state: State, seat: int, key: str) -> Event:
    """Put a member of ``seat`` on council seat ``key``, returning any previous occupant."""
    before = state["council"][key]
    own(state, "council")[key] = seat
    text = f"{{s{seat}}} took the {COUNCIL_NAMES[key]} seat"
    if before is None or before == seat:
        return event("CouncilSeatTaken", text, params={"seat": seat, "council": key})
    return event(
        "CouncilSeatTaken",
        f"{text} (returning {{s{before}}}'s member)",
        params={"variant": "back", "seat": seat, "council": key, "returned": before},
    )


def _take_good(state: State, seat: int, guild: str) -> Event:
    own_player(state, seat)["goods"][guild] += 1
    good = components().guilds[guild].good
    return event("GoodTaken", f"{{s{seat}}} took a {good}", params={"seat": seat, "guild": guild})


def resolve_influence(state: State) -> list[Event]:
    """Rank the revealed stacks, hand the starting player to 1st place, apply the step's
    automatic effects and queue the decisions (``flow.continue_choices`` finishes the step
    if none are left)."""
    inf = state["influence"]
    n = state["seats"]
    totals = {s: sum(cards) for s, cards in enumerate(inf["revealed"]) if cards is not None}
    ranking = rank(totals, inf["start"], n)
    state["ranking"] = ranking
    if ranking:
        ranked = event(
            "StepRanked",
            "Ranking: " + ", ".join(f"{{s{s}}} {totals[s]}" for s in ranking),
            params={"ranking": list(ranking), "totals": [totals[s] for s in ranking]},
        )
    else:
        ranked = event("StepRanked", "Ranking: everyone passed", params={"variant": "none"})
    events = [ranked]
    if ranking and ranking[0] != state["start"]:
        state["start"] = ranking[0]
        events.append(
            event(
                "StartingPlayerChanged",
                f"{{s{ranking[0]}}} is the new starting player",
                params={"seat": ranking[0]},
            )
        )
    events += _step_effects(state, ranking)
    slots = action_slots(state["step"], n)
    state["choices"] = [*state["choices"], *(_choice(s, "return") for s in ranking[slots:])]
    state["phase"] = "choice"
    return events


def _step_effects(state: State, ranking: list[int]) -> list[Event]:
    kind = step_kind(state["step"])
    if kind == "nobility_church":
        return [
            place_on_council(state, s, key)
            for s, key in zip(ranking, ("nobility", "church"), strict=False)
        ]
    if kind == "guild":
        return _guild_effects(state, ranking, step_guild(state) or "")
    if not ranking:
        return []
    events = []
    if state["step"] == 6:  # only step G also seats a member on the Merchants' seat
        events.append(place_on_council(state, ranking[0], "merchants"))
    own(state, "choices").append(_choice(ranking[0], "sell"))
    return events


def _guild_effects(state: State, ranking: list[int], guild: str) -> list[Event]:
    roles = (
        ["master", "journeyman", "apprentice"] if state["seats"] >= 4 else ["master", "apprentice"]
    )
    events = []
    for seat, role in zip(ranking, roles, strict=False):
        if role == "master":
            events.append(place_on_council(state, seat, guild))
        if role == "apprentice":
            own(state, "choices").append(_choice(seat, "apprentice", guild, role))
            continue
        events.append(_take_good(state, seat, guild))
        own(state, "choices").append(_choice(seat, "build", guild, role))
    return events


def discard_revealed(state: State) -> None:
    """Turned-over cards leave the game (publicly, so ``spent`` records their values)."""
    inf = state["influence"]
    if inf is not None:
        for seat, cards in enumerate(inf["revealed"]):
            if cards:
                player = own_player(state, seat)
                player["out"] += len(cards)
                player["spent"] = sorted(player["spent"] + cards)
        own(state, "influence")["revealed"] = [None] * state["seats"]


# ----- legal decisions -------------------------------------------------------------------


def open_spaces(state: State, guild: str, coins: int) -> list[list[int]]:
    """Empty spaces of ``guild`` whose price ``coins`` can pay, as [row, col]."""
    comp = components()
    return [
        [r, c]
        for (r, c), key in sorted(comp.guild_of_cell.items())
        if key == guild and state["city"][r][c] is None and comp.prices[(r, c)] <= coins
    ]


def _legal_placement(state: State, seat: int, choice: dict[str, Any]) -> list[Command]:
    coins = state["players"][seat]["coins"]
    builds = [
        {"type": "build", "cell": cell} for cell in open_spaces(state, choice["guild"], coins)
    ]
    # The apprentice does one thing (good or placement); master and journeyman may decline.
    other = {"type": "decline"} if choice["kind"] == "build" else {"type": "take_good"}
    return [*builds, other]


def _legal_sell(state: State, seat: int, choice: dict[str, Any]) -> list[Command]:
    goods = state["players"][seat]["goods"]
    return [*({"type": "sell", "guild": g} for g, k in goods.items() if k), {"type": "done"}]


def _legal_return(state: State, seat: int, choice: dict[str, Any]) -> list[Command]:
    cards = sorted(set(state["influence"]["revealed"][seat]))
    return [*({"type": "return_card", "card": v} for v in cards), {"type": "return_none"}]


def _legal_chapel(state: State, seat: int, choice: dict[str, Any]) -> list[Command]:
    sites = range(len(components().chapel_sites))
    return [{"type": "chapel", "site": i} for i in sites if i not in state["chapels"]]


def _legal_edifice(state: State, seat: int, choice: dict[str, Any]) -> list[Command]:
    built = built_edifices(state)
    spaces = components().building_spaces
    return [{"type": "edifice", "cell": [r, c]} for r, c in spaces if (r, c) not in built]


_LEGAL: dict[str, Any] = {
    "build": _legal_placement,
    "apprentice": _legal_placement,
    "sell": _legal_sell,
    "return": _legal_return,
    "chapel": _legal_chapel,
    "edifice": _legal_edifice,
}


def legal_choice(state: State, seat: int) -> list[Command]:
    """Commands for the decision at the head of the queue, if it is ``seat``'s."""
    if not state["choices"] or state["choices"][0]["seat"] != seat:
        return []
    choice = state["choices"][0]
    result: list[Command] = _LEGAL[choice["kind"]](state, seat, choice)
    return result


# ----- applying decisions ----------------------------------------------------------------


def apply_choice(state: State, seat: int, cmd: Command) -> list[Event]:
    """Apply a decision (already checked legal); ``flow.continue_choices`` goes on."""
    choice = state["choices"][0]
    events: list[Event] = _DECISIONS[cmd["type"]](state, seat, cmd, choice)
    if cmd["type"] != "sell":  # selling goes on until "done"
        own(state, "choices").pop(0)
    return events


def _build(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    r, c = cmd["cell"]
    price = components().prices[(r, c)]
    own_player(state, seat)["coins"] -= price
    own(state, "city")[r][c] = seat
    guild = components().guilds[choice["guild"]].name
    return [
        event(
            "MemberPlaced",
            f"{{s{seat}}} placed a member on {guild} space at row {r}, column {c}"
            f" for {counted(price, 'coin')}",
            params={"seat": seat, "guild": choice["guild"], "r": r, "c": c, "price": price},
        )
    ]


def _decline(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    return [
        event(
            "PlacementDeclined",
            f"{{s{seat}}} placed no member in the city",
            params={"seat": seat},
        )
    ]


def _apprentice_good(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    return [_take_good(state, seat, choice["guild"])]


def _sell(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    guild = components().guilds[cmd["guild"]]
    player = own_player(state, seat)
    player["goods"][guild.key] -= 1
    player["coins"] += guild.good_value
    return [
        event(
            "GoodSold",
            f"{{s{seat}}} sold a {guild.good} for {counted(guild.good_value, 'coin')}",
            params={"seat": seat, "guild": guild.key, "value": guild.good_value},
        )
    ]


def _done(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    return [event("SellingDone", f"{{s{seat}}} finished selling", params={"seat": seat})]


def _return_card(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    own(state, "influence")["revealed"][seat].remove(cmd["card"])
    own_player(state, seat)["deck"].append(cmd["card"])  # the deck's top is index 0
    return [
        event(
            "CardReturned",
            f"{{s{seat}}} put a {cmd['card']} at the bottom of their deck",
            params={"seat": seat, "card": cmd["card"]},
        )
    ]


def _return_none(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    return [
        event("CardNotReturned", f"{{s{seat}}} kept no card of their stack", params={"seat": seat})
    ]


def _chapel(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    own(state, "chapels").append(cmd["site"])
    r, c = components().chapel_sites[cmd["site"]]
    return [
        event(
            "ChapelBuilt",
            f"{{s{seat}}} built a chapel at rows {r}–{r + 1}, columns {c}–{c + 1}",
            params={"seat": seat, "r": r, "c": c},
        )
    ]


def _edifice(state: State, seat: int, cmd: Command, choice: dict[str, Any]) -> list[Event]:
    r, c = cmd["cell"]
    index = edifice_of_round(state)
    own(state, "built").append([r, c, index])
    key = components().edifices[index].key
    return [
        event(
            "EdificeBuilt",
            f"{{s{seat}}} built the {edifice_name(index)} at row {r}, column {c}",
            params={"seat": seat, "edifice": key, "r": r, "c": c},
        )
    ]


_DECISIONS: dict[str, Any] = {
    "build": _build,
    "decline": _decline,
    "take_good": _apprentice_good,
    "sell": _sell,
    "done": _done,
    "return_card": _return_card,
    "return_none": _return_none,
    "chapel": _chapel,
    "edifice": _edifice,
}
