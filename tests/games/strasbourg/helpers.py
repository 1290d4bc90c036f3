"""Shared helpers for the Strasbourg tests: drive real commands to reach a situation."""

from __future__ import annotations

import copy
from typing import Any

from server.engine import RuleError, get_game

GAME = get_game("strasbourg")
State = dict[str, Any]


def play(state: State, seat: int, cmd: dict[str, Any]) -> tuple[State, list[Any]]:
    """Apply ``cmd`` for ``seat``, asserting it was listed as legal first."""
    norm = dict(cmd)
    if isinstance(norm.get("cards"), list):
        norm["cards"] = sorted(norm["cards"])
    assert norm in GAME.legal(state, seat), (cmd, GAME.legal(state, seat)[:10])
    return GAME.apply(state, seat, cmd)


def expect_error(state: State, seat: int, cmd: Any) -> str:
    """The RuleError code ``apply`` raises for ``cmd``."""
    try:
        GAME.apply(state, seat, cmd)
    except RuleError as err:
        return err.code
    raise AssertionError(f"{cmd!r} was accepted")


def new_game(
    seats: int = 4, seed: str = "t", start: int = 0, planning: str = "simultaneous"
) -> State:
    """A game whose starting player is ``start`` (council seats follow), every seat
    keeping its first offered task, now in round 1 planning."""
    state = GAME.new(seats, seed, {"planning": planning})
    state = copy.deepcopy(state)
    state["start"] = start
    state["council"]["nobility"], state["council"]["church"] = start, (start + 1) % seats
    order = [(start + i) % seats for i in range(seats)]
    state["planning"]["order"] = order
    for seat in range(seats):
        state, _ = play(state, seat, {"type": "keep", "tasks": state["players"][seat]["offer"][:1]})
    assert state["phase"] == "planning"
    return state


def stack_deck(state: State, seat: int, cards: list[int]) -> State:
    """Put ``cards`` (taken from the seat's deck) on top of its deck, in that order."""
    state = copy.deepcopy(state)
    deck = state["players"][seat]["deck"]
    for card in cards:
        deck.remove(card)
    deck[0:0] = cards
    return state


def plan(state: State, seat: int, stacks: list[list[int]]) -> State:
    """Draw exactly the cards of ``stacks`` through real commands and seal them.

    No stacks: the seat plays no card, which the rules allow only with an exhausted deck
    (S-4.2), so the deck is set aside while it stops and put back afterwards."""
    if not stacks:
        state = copy.deepcopy(state)
        deck, state["players"][seat]["deck"] = state["players"][seat]["deck"], []
        state, _ = play(state, seat, {"type": "stop"})
        state["players"][seat]["deck"] = deck
        return state
    cards = [c for s in stacks for c in s]
    state = stack_deck(state, seat, cards)
    for _ in cards:
        state, _ = play(state, seat, {"type": "draw"})
    state, _ = play(state, seat, {"type": "stop"})
    for s in stacks:
        state, _ = play(state, seat, {"type": "stack", "cards": s})
    if cards:
        state, _ = play(state, seat, {"type": "seal"})
    return state


def plan_all(state: State, stacks: dict[int, list[list[int]]]) -> State:
    """Every seat plans the given stacks (seats missing from ``stacks`` plan nothing),
    in planning order so that the ordered mode works too."""
    for seat in state["planning"]["order"]:
        state = plan(state, seat, stacks.get(seat, []))
    return state


def everyone_passes(state: State) -> State:
    """Finish the current influence step with every seat passing."""
    step = state["step"]
    while state["phase"] == "influence" and state["step"] == step:
        (seat,) = GAME.to_act(state)
        state, _ = play(state, seat, {"type": "pass"})
    return state


def answer(state: State, cmd: dict[str, Any]) -> State:
    """The seat owing the current decision plays ``cmd``."""
    (seat,) = GAME.to_act(state)
    state, _ = play(state, seat, cmd)
    return state


def set_guilds(state: State, card_guilds_index: int) -> State:
    """Make the current round use round card ``card_guilds_index`` (0-based in the data)."""
    state = copy.deepcopy(state)
    cards = state["cards"]
    pos = cards.index(card_guilds_index)
    cards[pos], cards[state["round"]] = cards[state["round"]], cards[pos]
    return state


def final_board(members: dict[tuple[int, int], int], seats: int = 4) -> dict[str, Any]:
    """A finished game with only the given city members (cell -> seat) and nothing else."""
    state = copy.deepcopy(GAME.new(seats, "final", {}))
    state["phase"] = "over"
    state["council"] = dict.fromkeys(state["council"])
    for player in state["players"]:
        player["offer"] = []
    for (r, c), seat in members.items():
        state["city"][r][c] = seat
    return state
