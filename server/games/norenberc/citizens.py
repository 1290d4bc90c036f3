"""Taking a hired guest: craftsmen, the citizens' powers and the choices some of them open.

Star citizens act at once and go back into the guest deck; the thief and the bailiff
(each may be declined), the peddler (which good) and the chief judge (which house) first
wait for their hirer's choice. After the power come the roof bonus and the optional move
to the top of the play-order track, in the rulebook's order.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from server.engine import Event, RuleError, event

from .parsing import check_info, has_goods, multisets, parse_goods
from .state import (
    Goods,
    State,
    agent_supply,
    comps,
    describe_goods,
    describe_tile,
    good_names,
    goods_count,
    guild_name,
    guilds_in_play,
    house,
    move_goods,
    ordered_goods,
    own_action,
    own_house,
    own_list,
    own_player,
    player,
    price,
    rng_shuffle,
    tile,
    tile_params,
)

CHOICE_COMMANDS = ("steal", "bailiff", "decline", "peddler_good", "judge_house")
# Location of a swappable tile: ("queue", guild, position index) or ("guests", guild, window index)
Location = tuple[str, int, int]


# Why an agent is gained: the event's variant and the English words for it.
AGENT_REASONS = {"symbol": "agent symbol", "councillor": "councillor"}


def gain_agent(state: State, seat: int, why: str, events: list[Event]) -> None:
    """One agent from the supply to ``seat``'s hand, if the supply of its colour has one.

    ``why`` is a key of AGENT_REASONS.
    """
    reason = AGENT_REASONS[why]
    if agent_supply(state, seat) <= 0:
        text = f"{{s{seat}}} has all 8 agents: none gained ({reason})"
        events.append(event("AgentGained", text, params={"seat": seat, "variant": why + "_full"}))
        return
    own_player(state, seat)["hand"] += 1
    text = f"{{s{seat}}} gained an agent ({reason})"
    events.append(event("AgentGained", text, params={"seat": seat, "variant": why}))


def return_to_deck(state: State, tile_id: str, events: list[Event]) -> None:
    """Shuffle a citizen back into the guest deck."""
    deck = own_list(state, "deck")
    deck.append(tile_id)
    rng_shuffle(state, deck)
    text = f"{describe_tile(tile_id)} went back into the guest deck"
    events.append(event("CitizenReturned", text, params={"tile": tile_params(tile_id)}))


def take_guest(state: State, seat: int, guest: str, to_front: bool, events: list[Event]) -> bool:
    """Give the hired ``guest`` to ``seat``; True when the hire is complete, False when a
    choice is now open (the hire completes when it is made)."""
    t = tile(guest)
    if t["kind"] == "craftsman":
        own_player(state, seat)["craftsmen"].append(guest)
        if t["agent"]:
            gain_agent(state, seat, "symbol", events)
    elif _opens_choice(state, seat, t["citizen"]):
        own_action(state)["choice"] = {
            "seat": seat,
            "citizen": t["citizen"],
            "tile": guest,
            "to_front": to_front,
        }
        return False
    else:
        _take_plain_citizen(state, seat, guest, events)
    complete_hire(state, seat, to_front, events)
    return True


def _opens_choice(state: State, seat: int, citizen: str) -> bool:
    if citizen == "thief":
        return bool(_victims(state, seat))
    if citizen == "bailiff":
        return bool(_swaps(state))
    if citizen == "peddler":
        return bool(player(state, seat)["goods"])
    if citizen == "historian":
        return bool(_exchanges(state, seat))
    if citizen == "duchess":
        return bool(_duchess_targets(state))
    return citizen == "chief_judge"


def _take_plain_citizen(state: State, seat: int, guest: str, events: list[Event]) -> None:
    citizen = tile(guest)["citizen"]
    if citizen == "councillor":
        gain_agent(state, seat, "councillor", events)
    elif citizen in _POWER_UNUSABLE:
        text = _POWER_UNUSABLE[citizen].format(seat=f"{{s{seat}}}")
        params: dict[str, Any] = {"variant": "unusable_" + citizen}
        if "{seat}" in _POWER_UNUSABLE[citizen]:
            params["seat"] = seat
        events.append(event("PowerDeclined", text, params=params))
    if tile(guest)["symbol"] == "star" or citizen == "peddler":
        return_to_deck(state, guest, events)
    else:
        own_player(state, seat)["citizens"].append(guest)


# A citizen whose power finds nothing to act on, and the English line for it.
_POWER_UNUSABLE = {
    "thief": "the thief found no other player with goods",
    "bailiff": "the bailiff found no two tiles to swap",
    "peddler": "{seat} has no good for the peddler",
    "historian": "the historian found no crest to exchange",
    "duchess": "the duchess found no guild to move the crest to",
}


def complete_hire(state: State, seat: int, to_front: bool, events: list[Event]) -> None:
    """Steps 2 and 3 of hiring: the roof bonus, then the optional move to the front."""
    guild = state["action"]["guild"]
    bonus = sum(house(state, guild)["roof"])
    if bonus:
        own_player(state, seat)["talers"] += bonus
        text = f"{{s{seat}}} received {bonus} talers from the roof"
        events.append(event("BonusPaid", text, params={"seat": seat, "n": bonus}))
    if to_front:
        order = own_list(state, "order")
        order.remove(seat)
        order.insert(0, seat)
        text = f"{{s{seat}}} moved to the top of the play order"
        events.append(event("MovedToFront", text, params={"seat": seat}))


# --- thief ------------------------------------------------------------------------------


def _victims(state: State, seat: int) -> list[int]:
    return [s for s in range(state["seats"]) if s != seat and player(state, s)["goods"]]


def _loot_options(goods: Goods) -> list[Goods]:
    return multisets(goods, min(2, goods_count(goods)))


def _paid(state: State, goods: Goods) -> int:
    return sum(price(state, comps().guild_of_good(g)) * n for g, n in goods.items())


def legal_steal(state: State, seat: int) -> list[dict[str, Any]]:
    commands = []
    for victim in _victims(state, seat):
        goods = ordered_goods(state, player(state, victim)["goods"])
        for loot in _loot_options(goods):
            paid = _paid(state, loot)
            commands.append({"type": "steal", "victim": victim, "goods": loot, "paid": paid})
    return commands


def _do_steal(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    victim = cmd.get("victim")
    if victim not in _victims(state, seat) or isinstance(victim, bool):
        raise RuleError("bad_victim", f"victim must be another seat with goods, got {victim!r}")
    loot = parse_goods(state, cmd.get("goods"))
    owned = player(state, victim)["goods"]
    if goods_count(loot) != min(2, goods_count(owned)) or not has_goods(owned, loot):
        have = describe_goods(ordered_goods(state, owned))
        raise RuleError("bad_loot", f"take 2 of the victim's goods ({have}), got {loot}")
    paid = _paid(state, loot)
    check_info(cmd, "paid", paid)
    robbed = own_player(state, victim)
    move_goods(robbed["goods"], own_player(state, seat)["goods"], loot)
    robbed["talers"] += paid
    text = f"{{s{seat}}}'s thief took {describe_goods(loot)} from {{s{victim}}}"
    params = {"seat": seat, "victim": victim, "goods": dict(loot), "paid": paid}
    text = f"{text}, who was paid {paid} talers by the bank"
    events.append(event("GoodsStolen", text, params=params))


# --- bailiff ----------------------------------------------------------------------------


def _swappable(state: State) -> list[tuple[str, Location]]:
    """Craftsmen the bailiff may move: queue tiles (top of a stack) and guests."""
    found: list[tuple[str, Location]] = []
    for guild in guilds_in_play(state):
        h = house(state, guild)
        for pos, stack in enumerate(h["queue"]):
            found.append((stack[0], ("queue", guild, pos)))
        for window, guest in enumerate(h["guests"]):
            if guest is not None and tile(guest)["kind"] == "craftsman":
                found.append((guest, ("guests", guild, window)))
    return found


def _swaps(state: State) -> list[tuple[tuple[str, Location], tuple[str, Location]]]:
    pairs = []
    for a, b in combinations(_swappable(state), 2):
        if tile(a[0])["guild"] == tile(b[0])["guild"]:
            pairs.append((a, b) if a[0] < b[0] else (b, a))
    return sorted(pairs, key=lambda pair: (pair[0][0], pair[1][0]))


def legal_bailiff(state: State) -> list[dict[str, Any]]:
    return [{"type": "bailiff", "tiles": [a[0], b[0]]} for a, b in _swaps(state)]


def _put(state: State, where: Location, tile_id: str) -> None:
    kind, guild, index = where
    if kind == "queue":
        own_house(state, guild)["queue"][index][0] = tile_id
    else:
        own_house(state, guild)["guests"][index] = tile_id


def _do_bailiff(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    tiles = cmd.get("tiles")
    for a, b in _swaps(state):
        if isinstance(tiles, list) and sorted(map(str, tiles)) == [a[0], b[0]]:
            _put(state, a[1], b[0])
            _put(state, b[1], a[0])
            text = f"{{s{seat}}}'s bailiff swapped {describe_tile(a[0])} and {describe_tile(b[0])}"
            params = {"seat": seat, "tiles": [tile_params(a[0]), tile_params(b[0])]}
            events.append(event("TilesSwapped", text, params=params))
            return
    raise RuleError(
        "bad_tiles",
        f"tiles must be two craftsmen of one guild in workshop queues or guest rooms "
        f"(not masters), got {tiles!r}",
    )


# --- peddler and chief judge ------------------------------------------------------------


def _do_peddler(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    good = cmd.get("good")
    if good not in good_names(state) or not player(state, seat)["goods"].get(good):
        raise RuleError("no_goods", f"put one of your own goods on the peddler, got {good!r}")
    p = own_player(state, seat)
    peddler = state["action"]["choice"]["tile"]
    move_goods(p["goods"], {}, {good: 1})
    p["peddlers"][peddler] = good
    p["citizens"].append(peddler)
    text = f"{{s{seat}}} put 1 {good} on the peddler"
    events.append(event("PeddlerLoaded", text, params={"seat": seat, "good": good}))


def _do_judge(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    guild = cmd.get("guild")
    if guild not in guilds_in_play(state) or isinstance(guild, bool):
        raise RuleError("unknown_guild", f"guild {guild!r} is not in play")
    own_house(state, guild)["judges"].append(state["action"]["choice"]["tile"])
    text = f"{{s{seat}}} placed a chief judge on the {guild_name(guild)}' house"
    events.append(event("JudgePlaced", text, params={"seat": seat, "guild": guild}))


# --- promo: historian and duchess -----------------------------------------------------


def _exchanges(state: State, seat: int) -> list[tuple[int, int]]:
    """(give, take): one of ``seat``'s guild crests for a different guild's crest that is
    still on that guild's house."""
    crests = player(state, seat)["crests"]
    mine = [g for g in guilds_in_play(state) if crests.get(str(g))]
    left = [g for g in guilds_in_play(state) if house(state, g)["crests"] > 0]
    return [(give, take) for give in mine for take in left if take != give]


def legal_historian(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "historian", "give": g, "take": t} for g, t in _exchanges(state, seat)]


def _do_historian(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    raw = (cmd.get("give"), cmd.get("take"))
    pick = next((pair for pair in _exchanges(state, seat) if pair == raw), None)
    if pick is None or any(isinstance(v, bool) for v in raw):
        raise RuleError(
            "bad_exchange",
            f"give one of your guild crests for another guild's crest still on its house, "
            f"got give={raw[0]!r} take={raw[1]!r}",
        )
    give, take = pick
    crests = own_player(state, seat)["crests"]
    crests[str(give)] -= 1
    if not crests[str(give)]:
        del crests[str(give)]
    own_house(state, give)["crests"] += 1
    own_house(state, take)["crests"] -= 1
    crests[str(take)] = crests.get(str(take), 0) + 1
    text = (
        f"{{s{seat}}}'s historian exchanged a crest of the {guild_name(give)} "
        f"for one of the {guild_name(take)}"
    )
    params = {"seat": seat, "give": give, "take": take}
    events.append(event("CrestExchanged", text, params=params))


def _duchess_targets(state: State) -> list[int]:
    """Guilds the duchess may move the prestige crest to: not the current one, nor the
    previous round's most prestigious guild."""
    barred = {state["prestige_guild"], state.get("prestige_previous")}
    return [g for g in guilds_in_play(state) if g not in barred]


def legal_duchess(state: State) -> list[dict[str, Any]]:
    return [{"type": "duchess", "guild": g} for g in _duchess_targets(state)]


def _do_duchess(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    guild = cmd.get("guild")
    if isinstance(guild, bool) or guild not in _duchess_targets(state):
        raise RuleError(
            "bad_guild",
            f"move the prestige crest to another guild in play, not the previous round's "
            f"most prestigious one; got {guild!r}",
        )
    state["prestige_guild"] = guild
    text = f"{{s{seat}}}'s duchess made the {guild_name(guild)} the most prestigious guild"
    params = {"seat": seat, "guild": guild, "variant": "duchess"}
    events.append(event("PrestigeMoved", text, params=params))


# --- choices ----------------------------------------------------------------------------

_CHOICE_COMMANDS = {
    "thief": ("steal", "decline"),
    "bailiff": ("bailiff", "decline"),
    "peddler": ("peddler_good",),
    "chief_judge": ("judge_house",),
    "historian": ("historian", "decline"),
    "duchess": ("duchess", "decline"),
}
_HANDLERS = {
    "steal": _do_steal,
    "bailiff": _do_bailiff,
    "peddler_good": _do_peddler,
    "judge_house": _do_judge,
    "historian": _do_historian,
    "duchess": _do_duchess,
}


def legal_choice(state: State, seat: int) -> list[dict[str, Any]]:
    """The commands that answer the open citizen choice."""
    choice = state["action"]["choice"]
    citizen = choice["citizen"]
    if citizen == "thief":
        return [*legal_steal(state, seat), {"type": "decline"}]
    if citizen == "bailiff":
        return [*legal_bailiff(state), {"type": "decline"}]
    if citizen == "peddler":
        goods = ordered_goods(state, player(state, seat)["goods"])
        return [{"type": "peddler_good", "good": g} for g in goods]
    if citizen == "historian":
        return [*legal_historian(state, seat), {"type": "decline"}]
    if citizen == "duchess":
        return [*legal_duchess(state), {"type": "decline"}]
    return [{"type": "judge_house", "guild": g} for g in guilds_in_play(state)]


def apply_choice(state: State, seat: int, cmd: dict[str, Any], events: list[Event]) -> None:
    """Resolve the open choice with ``cmd``, then finish the hire (bonus, move to front)."""
    choice = state["action"]["choice"]
    kind = cmd["type"]
    if kind not in _CHOICE_COMMANDS[choice["citizen"]]:
        allowed = " or ".join(_CHOICE_COMMANDS[choice["citizen"]])
        raise RuleError("choice_pending", f"answer the {choice['citizen']} first: {allowed}")
    if kind == "decline":
        text = f"{{s{seat}}} did not use the {choice['citizen']}"
        params = {"seat": seat, "citizen": choice["citizen"], "variant": "declined"}
        events.append(event("PowerDeclined", text, params=params))
    else:
        _HANDLERS[kind](state, seat, cmd, events)
    if tile(choice["tile"])["symbol"] == "star":
        return_to_deck(state, choice["tile"], events)
    own_action(state)["choice"] = None
    complete_hire(state, seat, choice["to_front"], events)
