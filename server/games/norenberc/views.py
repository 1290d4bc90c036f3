"""Per-seat views: one allowlist, built fresh from the state (schema in docs/norenberc.md).

Hidden from everyone but the owner: talers (until the game is over) and the sealed plan of a
turn's guilds not yet called. Hidden from all: the guest deck's contents and order, the
citizens drawn at setup that never entered play, and the generator. Tiles that left the game
(``gone``, the state's ``box``) left it openly and are shown.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from server.engine import planning as sealed

from .clauses import SCORING, decision
from .scoring import CATEGORIES, MONEY_CATEGORIES, PROMO_CATEGORY, own_now, score_now
from .state import (
    AGENTS_PER_PLAYER,
    State,
    good_of,
    guild_name,
    guilds_in_play,
    house,
    master_value,
    ordered_goods,
    player,
    roof_total,
    tile,
)

DATA_NOTE = (
    "Craftsman values and the citizen mix are a reconstruction (the printed tables were not "
    "available); they are kept in seeds/norenberc.json, where an owner of the game can "
    "correct them."
)


def tile_view(tile_id: str, good: str | None = None) -> dict[str, Any]:
    """The public description of a tile, with ``id`` (and the peddler's ``good`` if any).

    A new dict each time (views are the caller's), copied from one made once per tile."""
    shown = dict(_tile_view(tile_id))
    if good is not None:
        shown["good"] = good
    return shown


@lru_cache(maxsize=512)
def _tile_view(tile_id: str) -> dict[str, Any]:
    # Never handed out: tile_view copies it.
    return {"id": tile_id, **tile(tile_id)}


def _guild_view(state: State, guild: int) -> dict[str, Any]:
    h = house(state, guild)
    return {
        "guild": guild,
        "name": guild_name(guild),
        "good": good_of(guild),
        "master": [tile_view(t) for t in h["master"]],
        "queue": [[tile_view(t) for t in stack] for stack in h["queue"]],
        "guests": [tile_view(t) if t else None for t in h["guests"]],
        "storehouse": ordered_goods(state, h["store"]),
        "roof": list(h["roof"]),
        "crests_left": h["crests"],
        "judges": len(h["judges"]),
        "price": master_value(state, guild),
    }


def _cards(state: State, seat: int) -> int | None:
    if state["plans"] is not None:
        return len(state["plans"][seat])
    p = state["planning"]
    if p is not None and sealed.has_committed(p, seat):
        return len(sealed.plan_of(p, seat))
    return None


def _player_view(state: State, seat: int) -> dict[str, Any]:
    """What every seat may know of ``seat`` (its talers only once the game is over)."""
    p = player(state, seat)
    talers_visible = state["phase"] == "over"
    roof = roof_total(state, seat)
    supply = AGENTS_PER_PLAYER - p["hand"] - p["card"] - roof
    plans = state["plans"]
    return {
        "seat": seat,
        "talers": p["talers"] if talers_visible else None,
        "goods": ordered_goods(state, p["goods"]),
        "agents": {
            "hand": p["hand"],
            "roof": roof + p["card"],
            "supply": supply,
        },
        "disc": p["disc"],
        "craftsmen": [tile_view(t) for t in p["craftsmen"]],
        "citizens": [tile_view(t, p["peddlers"].get(t)) for t in p["citizens"]],
        "guild_crests": {
            str(g): p["crests"][str(g)] for g in guilds_in_play(state) if p["crests"].get(str(g))
        },
        "prestige_crests": p["prestige"],
        "planning": sealed.status_of(state["planning"], seat) if state["planning"] else None,
        "cards": _cards(state, seat),
        "revealed": [g for g in state["called"] if plans and g in plans[seat]],
    }


def _planning_view(state: State) -> dict[str, Any] | None:
    p = state["planning"]
    if p is None:
        return None
    return sealed.public_view(p)


def _action_view(state: State, actor: int | None) -> dict[str, Any] | None:
    action = state["action"]
    if action is None:
        return None
    choice = action["choice"]
    return {
        "guild": action["guild"],
        "cards": list(action["cards"]),
        "acted": list(action["acted"]),
        "actor": actor,
        "choice": None
        if choice is None
        else {
            "seat": choice["seat"],
            "citizen": choice["citizen"],
            "tile": choice["tile"],
            "to_front": choice["to_front"],
        },
    }


def _my_plan(state: State, seat: int | None) -> list[int] | None:
    if seat is None:
        return None
    if state["plans"] is not None:
        return list(state["plans"][seat])
    p = state["planning"]
    if p is not None and sealed.has_committed(p, seat):
        return list(sealed.plan_of(p, seat))
    return None


def build_view(
    state: State,
    seat: int | None,
    to_act: list[int],
    legal: list[dict[str, Any]],
    actor: int | None,
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    """The view for ``seat`` (None: spectator); the caller supplies the derived parts."""
    spectator = spectator_view(state, to_act, actor, result)
    return spectator if seat is None else seat_view(state, seat, spectator, legal)


def spectator_view(
    state: State, to_act: list[int], actor: int | None, result: dict[str, Any] | None
) -> dict[str, Any]:
    """What every seat may know: the spectator's view, and the base of every seat's."""
    view = {
        "game": "norenberc",
        "seat": None,
        "seats": state["seats"],
        "options": dict(state["options"]),
        "data_note": DATA_NOTE,
        "phase": state["phase"],
        "round": state["round"],
        "turn": state["turn"],
        "rule": decision(state, None),
        "play_order": list(state["order"]),
        "prestige_guild": state["prestige_guild"],
        "prestige_crests_left": state["prestige_left"],
        "guest_deck": len(state["deck"]),
        "gone": [tile_view(t) for t in state["box"]],
        "guilds": [_guild_view(state, g) for g in guilds_in_play(state)],
        "players": [_player_view(state, s) for s in range(state["seats"])],
        "planning": _planning_view(state),
        "action": _action_view(state, actor),
        "my_plan": None,
        "to_act": to_act,
        "legal": [],
        "result": result,
        "score_rules": _score_rules(state),
        "score_now": None if result is not None else _score_now(state),
    }
    if "prestige_previous" in state:
        # Promo: the duchess may not move the prestige crest to this guild.
        view["prestige_previous"] = state["prestige_previous"]
    return view


# The parts of a seat's view that ``board_view`` makes: the board and the seat's choices.
BOARD_PARTS = (
    "seat",
    "seats",
    "phase",
    "round",
    "turn",
    "play_order",
    "prestige_guild",
    "guest_deck",
    "guilds",
    "players",
    "action",
    "my_plan",
    "to_act",
    "legal",
)


def board_view(
    state: State, seat: int, to_act: list[int], legal: list[dict[str, Any]], actor: int | None
) -> dict[str, Any]:
    """``BOARD_PARTS`` of ``seat``'s view, each equal to the full view's, without what is made
    for people to read (the rule in force, the score if the game ended now, the tiles gone):
    what a bot's play-out reads, at a fraction of the full view's cost."""
    players = [_player_view(state, s) for s in range(state["seats"])]
    players[seat]["talers"] = player(state, seat)["talers"]
    return {
        "seat": seat,
        "seats": state["seats"],
        "phase": state["phase"],
        "round": state["round"],
        "turn": state["turn"],
        "play_order": list(state["order"]),
        "prestige_guild": state["prestige_guild"],
        "guest_deck": len(state["deck"]),
        "guilds": [_guild_view(state, g) for g in guilds_in_play(state)],
        "players": players,
        "action": _action_view(state, actor),
        "my_plan": _my_plan(state, seat),
        "to_act": to_act,
        "legal": legal,
    }


def _score_rules(state: State) -> dict[str, str]:
    """The clause of each category of this game's final scoring, in the score table's order."""
    kinds = CATEGORIES + ((PROMO_CATEGORY,) if state["options"]["promo"] else ())
    return {c: SCORING[c] for c in kinds}


def _score_now(state: State) -> dict[str, Any]:
    """The score if the game ended now: every seat's public part, the categories that hang on
    money nobody sees in full (seat_view adds the seat's own money's part, ``own``)."""
    return {"seats": score_now(state), "hidden": list(MONEY_CATEGORIES)}


def seat_view(
    state: State, seat: int, spectator: dict[str, Any], legal: list[dict[str, Any]]
) -> dict[str, Any]:
    """``seat``'s view: ``spectator`` (shared, never changed) with what only ``seat`` may
    know put in its place: its talers, its sealed plan, its legal commands and what its
    talers add to its score "if the game ended now"."""
    view = dict(spectator)
    view["seat"] = seat
    players = spectator["players"]
    if players[seat]["talers"] is None:
        players = list(players)
        players[seat] = {**players[seat], "talers": player(state, seat)["talers"]}
    view["players"] = players
    view["my_plan"] = _my_plan(state, seat)
    view["legal"] = legal
    view["rule"] = decision(state, seat)
    if spectator["score_now"] is not None:
        view["score_now"] = {**spectator["score_now"], "own": own_now(state, seat)}
    return view
