"""Round end, steps 1–7 in order (step 0, the moon citizens, acts inside steps 1 and 3).

After round 4 the steps stop after income and the game is over.
"""

from __future__ import annotations

from typing import Any

from server.engine import Event, event, own_all

from .citizens import gain_agent, return_to_deck
from .setup import best_master, place_prestige
from .state import (
    LAST_ROUND,
    State,
    craftsmen_of,
    describe_tile,
    good_of,
    guild_name,
    guilds_in_play,
    house,
    move_goods,
    order_index,
    player,
    tile,
    tile_params,
)

INCOME = 3
BANKER_INCOME = 2  # per full 10 talers owned, per banker


def end_round(state: State, events: list[Event]) -> None:
    """Run the round end on ``state``; sets phase 'over' after round 4."""
    own_all(state)  # the round end changes nearly every player and house: copy them all
    events.append(
        event("RoundEnded", f"round {state['round']} ends", params={"round": state["round"]})
    )
    for guild in guilds_in_play(state):
        _favourite_step(state, guild, events)
    _return_peddlers(state, events)
    _agents_home(state)
    _income(state, events)
    if state["round"] == LAST_ROUND:
        state["phase"] = "over"
        state["prestige_guild"] = None
        state["planning"] = state["plans"] = state["action"] = None
        state["called"] = []
        events.append(event("GameEnded", "the game is over; final scores are in", params={}))
        return
    for p in state["players"]:
        p["disc"] = "agent"
    _new_masters(state, events)
    _refill_guest_rooms(state, events)
    _new_prestige(state, events)
    state["round"] += 1
    state["turn"] = 1


# --- step 1: favourites -----------------------------------------------------------------


def goods_for_favour(state: State, seat: int, guild: int) -> int:
    """Goods of ``guild``'s kind that count for ``seat``: stock plus 4 per loaded peddler."""
    good = good_of(guild)
    p = player(state, seat)
    peddled = sum(1 for g in p["peddlers"].values() if g == good)
    return int(p["goods"].get(good, 0)) + 4 * peddled


def favourite(state: State, guild: int) -> tuple[int | None, list[int]]:
    """The favourite of ``guild`` (None if nobody has the good) and the seats whose money
    had to be revealed to break a tie on goods."""
    counts = {s: goods_for_favour(state, s, guild) for s in range(state["seats"])}
    best = max(counts.values())
    if best == 0:
        return None, []
    tied = [s for s, n in counts.items() if n == best]
    if len(tied) == 1:
        return tied[0], []
    winner = max(tied, key=lambda s: (player(state, s)["talers"], -order_index(state, s)))
    return winner, sorted(tied)


def _favourite_step(state: State, guild: int, events: list[Event]) -> None:
    h = house(state, guild)
    seat, revealed = favourite(state, guild)
    if revealed:
        amounts = [{"seat": s, "n": player(state, s)["talers"]} for s in revealed]
        money = ", ".join(f"{{s{a['seat']}}} {a['n']}" for a in amounts)
        text = f"tie at the {guild_name(guild)}: talers {money}"
        events.append(event("MoneyRevealed", text, params={"guild": guild, "talers": amounts}))
    if seat is None:
        state["box"].extend(h["master"])
        text = f"nobody has {good_of(guild)}: the master leaves"
        events.append(event("MasterLeft", text, params={"guild": guild, "good": good_of(guild)}))
        h["master"] = []
        if guild == state["prestige_guild"] and state["prestige_crest"]:
            state["prestige_crest"] = False
            events.append(event("PrestigeLost", "the prestige crest leaves the game", params={}))
        return
    _reward_favourite(state, guild, seat, events)


def favour_counts(state: State, guild: int) -> list[dict[str, int]]:
    """The goods that counted for the favourite of ``guild``, for every seat holding some.
    Goods and loaded peddlers lie open on the table, so these counts are public."""
    counts = [{"seat": s, "n": goods_for_favour(state, s, guild)} for s in range(state["seats"])]
    return [c for c in counts if c["n"] > 0]


def _give_back_good(state: State, guild: int, seat: int) -> None:
    """The favourite returns one good: from stock if possible, else from a peddler."""
    good, p = good_of(guild), player(state, seat)
    store = house(state, guild)["store"]
    if p["goods"].get(good):
        move_goods(p["goods"], store, {good: 1})
        return
    peddler = next(t for t, g in sorted(p["peddlers"].items()) if g == good)
    p["peddlers"][peddler] = None
    move_goods({good: 1}, store, {good: 1})


def _reward_favourite(state: State, guild: int, seat: int, events: list[Event]) -> None:
    h, p = house(state, guild), player(state, seat)
    counts = favour_counts(state, guild)
    _give_back_good(state, guild, seat)
    tiles = h["master"]
    h["master"] = []
    p["craftsmen"].extend(tiles)
    won = " and ".join(describe_tile(t) for t in tiles)
    crest = h["crests"] > 0
    if crest:
        h["crests"] -= 1
        p["crests"][str(guild)] = p["crests"].get(str(guild), 0) + 1
    text = f"{{s{seat}}} is the favourite of the {guild_name(guild)}: gave 1 {good_of(guild)}"
    text += f", took {won}" + (" and a guild crest" if crest else " (no guild crest left)")
    params = {
        "seat": seat,
        "guild": guild,
        "good": good_of(guild),
        "tiles": [tile_params(t) for t in tiles],
        "counts": counts,
        "variant": "crest" if crest else "no_crest",
    }
    events.append(event("FavouriteChosen", text, params=params))
    for t in tiles:
        if tile(t)["agent"]:
            gain_agent(state, seat, "symbol", events)
    if guild == state["prestige_guild"] and state["prestige_crest"]:
        state["prestige_crest"] = False
        p["prestige"] += 1
        text = f"{{s{seat}}} took the prestige crest"
        events.append(event("PrestigeAwarded", text, params={"seat": seat}))


def _return_peddlers(state: State, events: list[Event]) -> None:
    for seat in range(state["seats"]):
        p = player(state, seat)
        for peddler, good in sorted(p["peddlers"].items()):
            if good is not None:
                move_goods({good: 1}, p["goods"], {good: 1})
            p["citizens"].remove(peddler)
            what = f"1 {good}" if good is not None else "no good"
            params: dict[str, Any] = {"seat": seat, "variant": "empty"}
            if good is not None:
                params.update(good=good, variant="good")
            text = f"{{s{seat}}}'s peddler gave back {what}"
            events.append(event("PeddlerReturned", text, params=params))
            return_to_deck(state, peddler, events)
        p["peddlers"] = {}


# --- steps 2 and 3: agents home, income -------------------------------------------------


def _agents_home(state: State) -> None:
    for h in state["houses"]:
        for seat, n in enumerate(h["roof"]):
            player(state, seat)["hand"] += n
        h["roof"] = [0] * state["seats"]


def income_of(state: State, seat: int) -> int:
    """Round-end income: 3, musicians, 1 per own craftsman of each judged guild, and
    (promo) 2 per full 10 talers owned before this income for each banker."""
    p = player(state, seat)
    amount = INCOME
    for t in p["citizens"]:
        if tile(t)["citizen"] == "musician":
            amount += tile(t)["value"]
        elif tile(t)["citizen"] == "banker":
            amount += BANKER_INCOME * (p["talers"] // 10)
    for guild in guilds_in_play(state):
        amount += len(house(state, guild)["judges"]) * len(craftsmen_of(state, seat, guild))
    return amount


def _income(state: State, events: list[Event]) -> None:
    paid = []
    for seat in range(state["seats"]):
        amount = income_of(state, seat)
        player(state, seat)["talers"] += amount
        paid.append({"seat": seat, "n": amount})
    text = "income: " + ", ".join(f"{{s{a['seat']}}} {a['n']}" for a in paid)
    events.append(event("IncomePaid", text, params={"talers": paid}))


# --- steps 5–7: masters, guest rooms, prestige ------------------------------------------


def _new_masters(state: State, events: list[Event]) -> None:
    for guild in guilds_in_play(state):
        h = house(state, guild)
        if h["queue"]:
            h["master"] = h["queue"].pop(0)
            text = f"new master of the {guild_name(guild)}: {describe_tile(h['master'][0])}"
            params = {"guild": guild, "tile": tile_params(h["master"][0])}
            events.append(event("MasterRevealed", text, params=params))


def _refill_guest_rooms(state: State, events: list[Event]) -> None:
    for guild in guilds_in_play(state):
        h = house(state, guild)
        if h["guests"][0] is not None:
            state["box"].append(h["guests"][0])
        staying = [t for t in h["guests"][1:] if t is not None]
        h["guests"] = staying + [None] * (4 - len(staying))
    for guild in guilds_in_play(state):
        guests = house(state, guild)["guests"]
        for window in range(4):
            if guests[window] is None and state["deck"]:
                guests[window] = state["deck"].pop()
        shown = ", ".join(describe_tile(t) if t else "empty" for t in guests)
        text = f"guests of the {guild_name(guild)}: {shown}"
        params = {"guild": guild, "guests": [tile_params(t) if t else None for t in guests]}
        events.append(event("GuestsRefilled", text, params=params))


def _new_prestige(state: State, events: list[Event]) -> None:
    guild = best_master(state, exclude=state["prestige_guild"])
    if "prestige_previous" in state:
        state["prestige_previous"] = state["prestige_guild"]
    place_prestige(state, guild)
    text = f"the {guild_name(guild)} are now the most prestigious guild"
    events.append(event("PrestigeMoved", text, params={"guild": guild, "variant": "round"}))
