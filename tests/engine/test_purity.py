"""``apply`` is pure over whole games: no state a caller has held is ever changed.

``apply`` copies on write (``server.engine.draft``): the new state shares every part the
command did not change with its input. A rule that wrote into a shared part would change an
earlier state, and with it a bot's search tree, the table cache's history or a replay.
These games keep every state they pass through, and the states of commands tried beside
the one played (as a search does) and of refused commands, and compare them with the copies
taken when they were made: after every command the latest ones (the state it was applied to
among them, whose parts every earlier state that shares them shares), every
``FULL_CHECK_EVERY`` commands and at the end of the game all of them.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import (
    Game,
    Rng,
    RuleError,
    State,
    clone,
    draft,
    finish,
    get_game,
    own,
    own_all,
    own_item,
    seed_to_state,
)
from tests.support import games
from tests.support.playout import illegal_variants

# (game, seats, options): every game at every seat count, and each of its option sets.
GAMES = [(s.game, s.seats, s.options) for s in games.setups()]
BRANCHES = 2  # other legal commands tried from each state
OPTIONAL_ONE_IN = 10  # how often a seat outside ``to_act`` plays an optional command
# States compared after every command: this command's and the previous one's (the state it
# was applied to, and the states tried from that one). All of them are compared every
# FULL_CHECK_EVERY commands and at the end: comparing all after every command made a game's
# check quadratic in its length, and a part changed in place stays changed.
RECENT = 2 * (BRANCHES + 1)
FULL_CHECK_EVERY = 20


class Held:
    """Every state seen so far, each with a copy taken when it was made."""

    def __init__(self) -> None:
        self.states: list[tuple[State, State, str]] = []

    def keep(self, state: State, how: str) -> None:
        self.states.append((state, clone(state), how))

    def check(self, after: str, latest: int | None = None) -> None:
        """Compare the ``latest`` states kept (None: all) with their copies."""
        for state, copy, how in self.states[-latest if latest else 0 :]:
            assert state == copy, f"{after} changed the state after {how}"


def _seat(game: Game, state: State, seats: int, rng: Rng) -> int:
    acting = sorted(game.to_act(state))
    assert acting, "nobody may act but the game is not over"
    if rng.below(OPTIONAL_ONE_IN) == 0:  # a planner taking its plan back, say
        optional = [s for s in range(seats) if s not in acting and game.legal(state, s)]
        if optional:
            return rng.choice(optional)
    return rng.choice(acting)


def _refused(game: Game, state: State, seat: int, cmd: Any) -> bool:
    try:
        game.apply(state, seat, cmd)
    except RuleError:
        return True
    return False


def play_holding_every_state(game: Game, seats: int, seed: str, options: dict[str, Any]) -> int:
    """Play one random game, checking after each command that no held state changed;
    returns the number of commands played."""
    rng = Rng(seed_to_state("purity:" + seed))
    state = game.new(seats, seed, options)
    held = Held()
    held.keep(state, "the deal")
    played = 0
    while game.result(state) is None:
        seat = _seat(game, state, seats, rng)
        legal = game.legal(state, seat)
        for _ in range(min(BRANCHES, len(legal))):
            tried = rng.choice(legal)
            branch, _ = game.apply(state, seat, tried)
            held.keep(branch, f"command {played} tried instead: {tried}")
        for bad in illegal_variants(rng.choice(legal)):
            if bad not in legal:
                assert _refused(game, state, seat, bad), f"{bad!r} was accepted"
        cmd = rng.choice(legal)
        state, _ = game.apply(state, seat, cmd)
        played += 1
        held.keep(state, f"command {played}: seat {seat} plays {cmd}")
        latest = None if played % FULL_CHECK_EVERY == 0 else RECENT
        held.check(f"command {played} (seat {seat} plays {cmd})", latest)
    held.check("the game")
    return played


@pytest.mark.parametrize(("name", "seats", "options"), GAMES)
def test_apply_never_changes_a_state_anyone_holds(
    name: str, seats: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    played = play_holding_every_state(game, seats, f"{name}-{seats}-{options}", options)
    # A game shorter than its manifest says would check too little.
    assert played >= games.manifest(name).test.min_commands
    assert game.result(game.new(seats, "x", options)) is None


def test_a_draft_copies_only_the_parts_taken_and_leaves_its_input_alone() -> None:
    state: State = {
        "options": {"planning": "simultaneous"},
        "deck": [1, 2, 3],
        "players": [{"goods": {"beer": 1}}, {"goods": {"wine": 2}}],
        "houses": [{"roof": [0, 0]}],
    }
    before = clone(state)
    new = draft(state, frozenset({"options"}))
    own_item(new, "players", 1)["goods"]["wine"] -= 1
    own(new, "deck").pop()
    after = finish(new)
    assert state == before
    assert after["players"] == [{"goods": {"beer": 1}}, {"goods": {"wine": 1}}]
    assert after["deck"] == [1, 2]
    assert after["players"][0] is state["players"][0]  # untouched parts are shared
    assert after["houses"] is state["houses"] and after["options"] is state["options"]
    assert type(after) is dict


def test_a_part_is_copied_once_per_draft_so_references_to_it_stay_valid() -> None:
    state: State = {"options": {}, "players": [{"hand": 1}, {"hand": 1}], "box": []}
    new = draft(state, frozenset({"options"}))
    first = own_item(new, "players", 0)
    assert own_item(new, "players", 0) is first
    own_all(new)  # a round's end: everything else is copied, what was taken stays
    assert new["players"][0] is first
    first["hand"] += 1
    own(new, "box").append("t1")
    new["players"][1]["hand"] += 1  # after own_all every part is the draft's own
    assert state == {"options": {}, "players": [{"hand": 1}, {"hand": 1}], "box": []}
    assert finish(new)["players"] == [{"hand": 2}, {"hand": 2}]
    assert new["options"] is state["options"]


def test_outside_a_draft_the_parts_are_the_callers_own() -> None:
    state: State = {"deck": [1], "players": [{"hand": 1}]}
    assert own(state, "deck") is state["deck"]
    assert own_item(state, "players", 0) is state["players"][0]
