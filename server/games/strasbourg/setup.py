"""A fresh Strasbourg game: shuffled round cards and edifices, council, decks, task offers."""

from __future__ import annotations

from typing import Any, cast

from server.engine import Event, Rng, RuleError, event, seed_to_state
from server.engine import planning as pl

from .data import COLS, GUILD_KEYS, ROUNDS, ROWS, components
from .state import COUNCIL_SEATS, DECK, PlayerState, State, StrasbourgState, clockwise

TASKS_DEALT = 5
START_COINS = 5


def default_options() -> dict[str, Any]:
    """Simultaneous sealed planning unless a table asks for the ordered variant."""
    return {"planning": "simultaneous"}


def check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Options filled with defaults. Raises RuleError('bad_option') for anything unknown."""
    merged = {**default_options(), **(options or {})}
    unknown = sorted(set(merged) - set(default_options()))
    if unknown:
        raise RuleError("bad_option", f"unknown option(s) {unknown}; Strasbourg knows ['planning']")
    pl.check_planning_option(merged["planning"])
    return merged


def _new_player(deck: list[int], offer: list[int]) -> PlayerState:
    return {
        "deck": deck,
        "hand": [],
        "building": [],
        "stopped": False,
        "stacks": [],
        "coins": START_COINS,
        "goods": dict.fromkeys(GUILD_KEYS, 0),
        "privileges": 0,
        "prestige": 0,
        "offer": offer,
        "tasks": [],
        "out": 0,
        "spent": [],
    }


def new_state(seats: int, seed: str, options: dict[str, Any] | None) -> State:
    """Setup for ``seats`` players. Raises RuleError('bad_seats'/'bad_option')."""
    if not isinstance(seats, int) or not 3 <= seats <= 5:
        raise RuleError("bad_seats", f"Strasbourg is for 3-5 players, not {seats!r}")
    opts = check_options(options)
    rng = Rng(seed_to_state(seed))
    cards, edifices = list(range(ROUNDS)), list(range(ROUNDS))
    rng.shuffle(cards)
    rng.shuffle(edifices)
    start = rng.below(seats)
    tasks = list(range(len(components().tasks)))
    rng.shuffle(tasks)
    players = []
    for seat in range(seats):
        deck = list(DECK)
        rng.shuffle(deck)
        offer = sorted(tasks[seat * TASKS_DEALT : (seat + 1) * TASKS_DEALT])
        players.append(_new_player(deck, offer))
    council: dict[str, int | None] = dict.fromkeys(COUNCIL_SEATS)
    council["nobility"], council["church"] = start, (start + 1) % seats
    order = clockwise(start, seats)
    state: StrasbourgState = {
        "game": "strasbourg",
        "seats": seats,
        "options": opts,
        "rng": rng.state,
        "phase": "tasks",
        "round": 0,
        "step": 0,
        "cards": cards,
        "edifice_order": edifices,
        "start": start,
        "council": council,
        "city": [[None] * COLS for _ in range(ROWS)],
        "built": [],
        "chapels": [],
        "players": players,
        # Choosing tasks is a simultaneous secret choice: sealed planning without waiting.
        "planning": pl.open_planning(seats, order, order),
        "influence": None,
        "ranking": [],
        "choices": [],
    }
    return cast(State, state)  # the same dict: the rule code reads it as plain JSON


def tasks_dealt(state: State) -> Event:
    """The opening's event: the starting player, and the task cards everyone chooses from."""
    start = state["start"]
    text = (
        f"{{s{start}}} is the starting player; "
        f"everyone chooses task cards from the {TASKS_DEALT} dealt"
    )
    return event("TasksDealt", text, params={"seat": start, "n": TASKS_DEALT})
