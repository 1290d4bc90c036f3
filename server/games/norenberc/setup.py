"""Options and the starting position for 2–5 players (rules: Setup 1–9)."""

from __future__ import annotations

from typing import Any, cast

from server.engine import Rng, RuleError, seed_to_state
from server.engine.planning import check_planning_option

from .state import (
    HouseState,
    NorenbercState,
    PlayerState,
    State,
    comps,
    good_of,
    house,
    master_value,
    rng_shuffle,
)

MIN_SEATS, MAX_SEATS = 2, 5
START_TALERS = 25
START_HAND = 4
GOODS_PER_GUILD = 12
CRESTS_PER_GUILD = 4
PRESTIGE_CRESTS = 4
# players -> (guilds in play, citizens drawn)
PLAYER_COUNTS = {2: (3, 8), 3: (4, 12), 4: (5, 16), 5: (6, 20)}

DEFAULT_OPTIONS: dict[str, Any] = {"planning": "simultaneous", "promo": False}


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The full option dict for ``options``; RuleError('bad_option')."""
    if not isinstance(options, dict):
        raise RuleError("bad_option", f"options must be an object, got {options!r}")
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise RuleError("bad_option", f"unknown options {unknown} (known: planning, promo)")
    merged = {**DEFAULT_OPTIONS, **options}
    check_planning_option(merged["planning"])
    if not isinstance(merged["promo"], bool):
        raise RuleError("bad_option", f"promo must be true or false, got {merged['promo']!r}")
    return merged


def _new_player(guilds: int) -> PlayerState:
    return {
        "talers": START_TALERS,
        "goods": {good_of(g): 1 for g in range(1, guilds + 1)},
        "hand": START_HAND,
        "card": 0,  # 1 while an agent stands on a revealed card waiting to act
        "disc": "agent",
        "craftsmen": [],
        "citizens": [],
        "peddlers": {},  # peddler tile id -> good on it (null once given to the favourite step)
        "crests": {},  # guild (str) -> guild crests
        "prestige": 0,
    }


def _new_house(state: State, guild: int) -> HouseState:
    tiles = list(comps().craftsmen[guild])
    rng_shuffle(state, tiles)
    # The two-tile stack in position 4: the top tile is the round-4 master.
    return {
        "master": [tiles[0]],
        "queue": [[tiles[1]], [tiles[2]], [tiles[3], tiles[4]]],
        "guests": [None, None, None, None],
        "store": {good_of(guild): GOODS_PER_GUILD},
        "roof": [0] * state["seats"],
        "crests": CRESTS_PER_GUILD,
        "judges": [],
        "_rest": tiles[5:],
    }


def best_master(state: State, exclude: int | None = None) -> int:
    """The guild with the highest master (ties: lower number), skipping ``exclude``."""
    candidates = [g for g in range(1, len(state["houses"]) + 1) if g != exclude]
    return max(candidates, key=lambda g: (master_value(state, g) or 0, -g))


def new_state(seats: int, seed: str, options: dict[str, Any]) -> State:
    """A fresh game; RuleError('bad_seats') outside 2-5 seats, option errors as check_options."""
    if not isinstance(seats, int) or isinstance(seats, bool) or seats not in PLAYER_COUNTS:
        raise RuleError("bad_seats", f"Norenberc needs 2-5 players, got {seats!r}")
    opts = check_options(options)
    guild_count, citizen_count = PLAYER_COUNTS[seats]
    typed: NorenbercState = {
        "seats": seats,
        "options": opts,
        "rng": Rng(seed_to_state(str(seed))).state,
        "round": 1,
        "turn": 1,
        "phase": "planning",
        "order": list(range(seats)),
        "prestige_guild": None,
        "prestige_crest": False,
        "prestige_left": PRESTIGE_CRESTS,
        "deck": [],
        "box": [],
        "houses": [],
        "players": [_new_player(guild_count) for _ in range(seats)],
        "planning": None,
        "plans": None,
        "called": [],
        "action": None,
    }
    state = cast(State, typed)  # the same dict: the rule code reads it as plain JSON
    if opts["promo"]:
        # The duchess may not move the prestige crest to the previous round's guild.
        state["prestige_previous"] = None
    _deal(state, guild_count, citizen_count)
    return state


def _deal(state: State, guild_count: int, citizen_count: int) -> None:
    citizens = list(comps().citizens)
    if state["options"]["promo"]:
        # The promo tiles are shuffled in with the 26 citizens before the draw.
        citizens += comps().promo
    rng_shuffle(state, citizens)
    drawn = citizens[:citizen_count]
    for guild in range(1, guild_count + 1):
        state["houses"].append(_new_house(state, guild))
        # Step 4: each player took one good from this storehouse.
        state["houses"][-1]["store"][good_of(guild)] -= state["seats"]
    rng_shuffle(state, state["order"])
    deck = drawn + [t for h in state["houses"] for t in h.pop("_rest")]
    rng_shuffle(state, deck)
    state["deck"] = deck
    for guild in range(1, guild_count + 1):
        guests = house(state, guild)["guests"]
        for window in (1, 2, 3):
            guests[window] = state["deck"].pop()
    place_prestige(state, best_master(state))


def place_prestige(state: State, guild: int) -> None:
    """Put a prestige crest from the supply on ``guild`` (it becomes the most prestigious)."""
    state["prestige_guild"] = guild
    state["prestige_crest"] = state["prestige_left"] > 0
    state["prestige_left"] = max(0, state["prestige_left"] - 1)
