"""Rebuild a full engine state from one seat's view, sampling what the seat cannot see.

Search bots (ISMCTS) play on such *determinizations*; the state's layout is
``setup.new_state``'s. What the view hides is sampled:

- other seats' talers: around a guess the caller gives (the view shows nothing of what they
  spent), with some spread;
- other seats' sealed plans (planning: as many guilds as cards they played; action phase:
  their cards not yet revealed, among the guilds still to be called), as the caller's guesser
  picks them (the bots guess what their heuristic would pick);
- the guest deck: as many tiles as it holds, drawn from the tiles no one can see (craftsmen
  of the guilds in play and citizens that are nowhere in sight). Tiles that left the game
  (the view's ``gone``) are in sight, so they are never drawn; they go back into the box in
  their order. The deck's size is always exact.

An open citizen choice is rebuilt with the real hired tile and ``to_front`` (both public).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.engine import Rng, State, View
from server.engine.phases import sample_from_public

from .data import components

TALER_SPREAD = 6  # ± talers around the guess of a hidden purse

# (seat, guilds it may have chosen, how many) → the guilds guessed, sorted.
GuessPlan = Callable[[int, list[int], int], list[int]]
# The sampled talers of every seat → how to guess sealed plans with them.
Guesser = Callable[[list[int]], GuessPlan]


def _ids(tiles: list[Any]) -> list[str]:
    return [t["id"] for t in tiles if t]


def _visible_tiles(view: View) -> set[str]:
    seen: set[str] = set()
    for g in view["guilds"]:
        seen.update(_ids(g["master"]))
        seen.update(t for stack in g["queue"] for t in _ids(stack))
        seen.update(_ids(g["guests"]))
    for p in view["players"]:
        seen.update(_ids(p["craftsmen"]) + _ids(p["citizens"]))
    seen.update(_ids(view["gone"]))
    choice = view["action"]["choice"] if view["action"] else None
    if choice is not None:
        seen.add(choice["tile"])
    return seen


def _unseen_pool(view: View) -> list[str]:
    """Tiles that may be in the guest deck, in a fixed order (sampling shuffles them)."""
    comps = components()
    seen = _visible_tiles(view)
    guilds = range(1, len(view["guilds"]) + 1)
    pool = [t for g in guilds for t in comps.craftsmen[g] if t not in seen]
    judges = sum(g["judges"] for g in view["guilds"])
    promo = comps.promo if view["options"].get("promo") else []
    citizens = [t for t in [*comps.citizens, *promo] if t not in seen]
    for t in [t for t in citizens if comps.tiles[t]["citizen"] == "chief_judge"][:judges]:
        citizens.remove(t)  # judges on houses are in sight (by count)
    return pool + citizens


def _judge_ids(view: View) -> list[list[str]]:
    comps = components()
    seen = _visible_tiles(view)
    spare = [t for t in comps.citizens if comps.tiles[t]["citizen"] == "chief_judge"]
    spare = [t for t in spare if t not in seen]
    placed = []
    for g in view["guilds"]:
        placed.append(spare[: g["judges"]])
        spare = spare[g["judges"] :]
    return placed


def _house(g: dict[str, Any], judges: list[str]) -> dict[str, Any]:
    return {
        "master": _ids(g["master"]),
        "queue": [_ids(stack) for stack in g["queue"]],
        "guests": [t["id"] if t else None for t in g["guests"]],
        "store": dict(g["storehouse"]),
        "roof": list(g["roof"]),
        "crests": g["crests_left"],
        "judges": judges,
    }


def _player(p: dict[str, Any], talers: int, card: int) -> dict[str, Any]:
    return {
        "talers": talers,
        "goods": dict(p["goods"]),
        "hand": p["agents"]["hand"],
        "card": card,
        "disc": p["disc"],
        "craftsmen": _ids(p["craftsmen"]),
        "citizens": _ids(p["citizens"]),
        "peddlers": {c["id"]: c["good"] for c in p["citizens"] if c.get("good")},
        "crests": {g: n for g, n in p["guild_crests"].items()},
        "prestige": p["prestige_crests"],
    }


def _sample_talers(view: View, seat: int, rng: Rng, guesses: list[float]) -> list[int]:
    return [
        int(v) if s == seat else max(0, int(v) + rng.below(2 * TALER_SPREAD + 1) - TALER_SPREAD)
        for s, v in enumerate(guesses)
    ]


def _planning_record(view: View, seat: int, guess: GuessPlan) -> dict[str, Any]:
    """The sealed-planning record, with other seats' committed plans sampled."""
    guilds = [g["guild"] for g in view["guilds"]]

    def plan_for(s: int) -> list[int]:
        mine = view["my_plan"] if s == seat else None
        return (
            list(mine) if mine is not None else guess(s, guilds, view["players"][s]["cards"] or 0)
        )

    return sample_from_public(view["planning"], plan_for)


def _action_plans(view: View, seat: int, guess: GuessPlan) -> tuple[list[list[int]], list[int]]:
    """Every seat's plan this turn (others' unrevealed cards sampled) and the called guilds."""
    current = view["action"]["guild"]
    later = [g["guild"] for g in view["guilds"] if g["guild"] > current]
    plans = []
    for s, p in enumerate(view["players"]):
        if s == seat:
            plans.append(list(view["my_plan"] or []))
            continue
        shown = list(p["revealed"])
        hidden = (p["cards"] or 0) - len(shown)
        plans.append(sorted(shown + guess(s, later, hidden)))
    called = sorted({g for p in view["players"] for g in p["revealed"]} | {current})
    return plans, called


def _choice(view: View) -> dict[str, Any] | None:
    """The open citizen choice, with the hired tile and ``to_front`` the view shows."""
    shown = view["action"]["choice"]
    if shown is None:
        return None
    return {
        "seat": shown["seat"],
        "citizen": shown["citizen"],
        "tile": shown["tile"],
        "to_front": shown["to_front"],
    }


def sample_state(view: View, seat: int, rng: Rng, purses: list[float], guesser: Guesser) -> State:
    """An engine state consistent with ``view``, hidden parts sampled with ``rng``.

    ``purses``: the talers each seat is thought to hold (the viewer's own are exact);
    ``guesser(talers)`` makes the guess of other seats' sealed guilds once their talers are
    sampled.
    """
    state = _sample(view, seat, rng, purses, guesser)
    if "prestige_previous" in view:  # the promo's duchess
        state["prestige_previous"] = view["prestige_previous"]
    return state


def _sample(view: View, seat: int, rng: Rng, purses: list[float], guesser: Guesser) -> State:
    pool = _unseen_pool(view)
    rng.shuffle(pool)
    talers = _sample_talers(view, seat, rng, purses)
    action = None
    plans: list[list[int]] | None = None
    called: list[int] = []
    if view["phase"] == "action":
        plans, called = _action_plans(view, seat, guesser(talers))
        choice = _choice(view)
        a = view["action"]
        action = {"guild": a["guild"], "cards": list(a["cards"]), "acted": list(a["acted"])}
        action["choice"] = choice
    cards = _cards_in_hand(view)
    deck = pool[: view["guest_deck"]]
    return {
        "seats": view["seats"],
        "options": dict(view["options"]),
        "rng": rng.next_u64(),
        "round": view["round"],
        "turn": view["turn"],
        "phase": view["phase"],
        "order": list(view["play_order"]),
        "prestige_guild": view["prestige_guild"],
        "prestige_crest": view["phase"] != "over",
        "prestige_left": view["prestige_crests_left"],
        "deck": deck,
        "box": _ids(view["gone"]),
        "houses": [_house(g, j) for g, j in zip(view["guilds"], _judge_ids(view), strict=True)],
        "players": [_player(p, talers[s], cards[s]) for s, p in enumerate(view["players"])],
        "planning": _planning_record(view, seat, guesser(talers))
        if view["phase"] == "planning"
        else None,
        "plans": plans,
        "called": called,
        "action": action,
    }


def _cards_in_hand(view: View) -> list[int]:
    """Per seat, 1 while an agent stands on a revealed card at the called guild."""
    a = view["action"]
    if a is None:
        return [0] * view["seats"]
    return [1 if s in a["cards"] and s not in a["acted"] else 0 for s in range(view["seats"])]
