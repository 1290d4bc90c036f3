"""Norenberc bots: legal commands only, blind to hidden information, a faithful determinizer."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.bots import Budget, decide
from server.bots.adapters import adapter_for
from server.bots.norenberc import determinize
from server.bots.norenberc_greedy import choose
from server.devtools.bots.stats import summarize
from server.devtools.bots.tournament import matches, run
from server.engine import Rng, State, get_game, seed_to_state
from tests.support.playout import play_to, random_policy

GAME = get_game("norenberc")
SMALL = Budget(iterations=6, horizon=12)


def _play_to(seats: int, seed: str, steps: int) -> State:
    """A state reached by ``steps`` random commands (stopping early at the end)."""
    return play_to(GAME, seats, seed, steps, random_policy)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_bot_kind_only_sends_legal_commands(seats: int) -> None:
    kinds = ["greedy", "random", "mcts", "greedy", "random"][:seats]
    state = GAME.new(seats, f"legal-{seats}", GAME.default_options())
    step = 0
    while GAME.result(state) is None:
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        kind = kinds[seat] if step % 7 == 0 or kinds[seat] != "mcts" else "greedy"
        cmd = decide(kind, "norenberc", view, seat, f"s{step}", budget=SMALL)
        assert cmd in GAME.legal(state, seat), (kind, cmd)
        state, _ = GAME.apply(state, seat, cmd)
        step += 1


def _hide_differently(state: State, viewer: int) -> State:
    """The same game with every other seat's talers and the guest deck's order changed."""
    other = copy.deepcopy(state)
    for seat, p in enumerate(other["players"]):
        if seat != viewer:
            p["talers"] += 17 + seat
    other["deck"] = list(reversed(other["deck"]))
    other["rng"] = (other["rng"] + 12345) % (1 << 64)
    return other


def _planning_state_with_sealed_plans() -> tuple[State, State]:
    """Seat 1 and 2 have sealed different plans in two otherwise equal games; seat 0 plans."""
    a = b = GAME.new(3, "sealed", GAME.default_options())
    a, _ = GAME.apply(a, 1, {"type": "plan", "guilds": [1, 2]})
    b, _ = GAME.apply(b, 1, {"type": "plan", "guilds": [3, 4]})
    a, _ = GAME.apply(a, 2, {"type": "plan", "guilds": [4]})
    b, _ = GAME.apply(b, 2, {"type": "plan", "guilds": [2]})
    return a, _hide_differently(b, 0)


def _hidden_pairs() -> list[tuple[State, State, int]]:
    pairs = [(*_planning_state_with_sealed_plans(), 0)]
    for steps in (30, 60, 90):
        state = _play_to(4, f"hidden-{steps}", steps)
        viewer = min(GAME.to_act(state))
        pairs.append((state, _hide_differently(state, viewer), viewer))
    return pairs


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts"])
def test_a_bot_decides_alike_whatever_other_seats_hide(kind: str) -> None:
    for real, changed, seat in _hidden_pairs():
        assert real != changed
        view = GAME.view(real, seat)
        assert GAME.view(changed, seat) == view
        for seed in ("one", "two"):
            assert decide(kind, "norenberc", view, seat, seed, budget=SMALL) == decide(
                kind, "norenberc", GAME.view(changed, seat), seat, seed, budget=SMALL
            )


def test_determinized_states_look_exactly_like_the_real_one_to_the_seat() -> None:
    rng = Rng(seed_to_state("det"))
    for seats in (2, 3, 4, 5):
        for steps in (0, 9, 40, 90, 150):
            state = _play_to(seats, f"det-{seats}-{steps}", steps)
            if GAME.result(state) is not None:
                continue
            seat = min(GAME.to_act(state))
            view = GAME.view(state, seat)
            sampled = determinize(view, seat, rng)
            assert GAME.view(sampled, seat) == view
            # The sampled world can be played on with the engine.
            GAME.apply(sampled, seat, view["legal"][0])


def test_search_candidates_are_legal_and_start_with_the_heuristic_choice() -> None:
    adapter = adapter_for("norenberc")
    for steps in (0, 12, 50, 100):
        state = _play_to(4, f"cand-{steps}", steps)
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        found = adapter.candidates(view, seat)
        assert found and all(c in view["legal"] for c in found)
        if view["phase"] == "action":
            assert found[0] == choose(view, seat, Rng(1))


def test_greedy_beats_three_random_bots() -> None:
    todo = matches("norenberc", ["greedy", "random", "random", "random"], 16, "strength", SMALL)
    greedy = summarize([p.record for p in run(todo)])[0]
    assert greedy.kind == "greedy" and greedy.share >= 0.75


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(2, 5), steps=st.integers(0, 160), seed=st.text(min_size=1, max_size=6))
def test_greedy_and_candidates_are_legal_on_random_reachable_states(
    seats: int, steps: int, seed: str
) -> None:
    state = _play_to(seats, seed, steps)
    if GAME.result(state) is not None:
        return
    for seat in GAME.to_act(state):
        view = GAME.view(state, seat)
        assert decide("greedy", "norenberc", view, seat, seed) in view["legal"]
        assert all(c in view["legal"] for c in adapter_for("norenberc").candidates(view, seat))


def test_bots_play_legally_and_determinize_faithfully_with_the_promo() -> None:
    rng = Rng(seed_to_state("promo-det"))
    for seats in (2, 4):
        kinds = ["greedy", "mcts", "random", "greedy"][:seats]
        state = GAME.new(seats, f"promo-{seats}", {"promo": True})
        step = 0
        while GAME.result(state) is None:
            seat = min(GAME.to_act(state))
            view = GAME.view(state, seat)
            if step % 5 == 0:
                sampled = determinize(view, seat, rng)
                assert GAME.view(sampled, seat) == view
                GAME.apply(sampled, seat, view["legal"][0])
            kind = kinds[seat] if step % 7 == 0 or kinds[seat] != "mcts" else "greedy"
            cmd = decide(kind, "norenberc", view, seat, f"p{step}", budget=SMALL)
            assert cmd in GAME.legal(state, seat), (kind, cmd)
            state, _ = GAME.apply(state, seat, cmd)
            step += 1


def _with_tiles_gone(seats: int, seed: str) -> State:
    """A state reached by random commands in which some tiles have left the game."""
    state = GAME.new(seats, seed, GAME.default_options())
    rng = Rng(seed_to_state(seed))
    while not state["box"] or GAME.result(state) is not None:
        assert GAME.result(state) is None, "the game ended before a tile left"
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal(state, seat)))
    return state


def test_a_tile_that_left_the_game_is_never_sampled_into_the_guest_deck() -> None:
    rng = Rng(seed_to_state("gone"))
    for seats in (2, 3, 4, 5):
        state = _with_tiles_gone(seats, f"gone-{seats}")
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        gone = [t["id"] for t in view["gone"]]
        assert gone == state["box"] != []
        for _ in range(60):
            sampled = determinize(view, seat, rng)
            assert not set(gone) & set(sampled["deck"])
            assert sampled["box"] == gone
            assert len(sampled["deck"]) == len(state["deck"])
            assert GAME.view(sampled, seat) == view


def _states_with_an_open_choice(count: int) -> list[State]:
    """States of 4-seat random games with a citizen choice open, one per game, each the
    first at or after a step that varies by game (30-89): the games are played once and
    scanned, instead of replayed from the deal for every step tried."""
    found: list[State] = []
    for n in range(200):
        rng = Rng(seed_to_state(f"choice-{n}"))
        state = GAME.new(4, f"choice-{n}", GAME.default_options())
        step = 0
        while GAME.result(state) is None:
            action = state["action"]
            if action and action["choice"] is not None and step >= 30 + n % 60:
                found.append(state)
                break
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, random_policy(GAME, state, seat, rng))
            step += 1
        if len(found) == count:
            break
    return found


def test_an_open_choice_is_rebuilt_with_the_real_tile_and_move_to_the_front() -> None:
    rng = Rng(seed_to_state("choice"))
    states = _states_with_an_open_choice(5)
    assert len(states) == 5, "too few open citizen choices were reached"
    for state in states:
        action = state["action"]
        seat = action["choice"]["seat"]
        view = GAME.view(state, seat)
        for _ in range(5):
            sampled = determinize(view, seat, rng)
            assert sampled["action"]["choice"] == action["choice"]
            assert sampled["action"]["choice"]["tile"] not in sampled["deck"]
            assert GAME.view(sampled, seat) == view
