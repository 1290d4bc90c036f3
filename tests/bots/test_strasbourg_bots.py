"""Strasbourg bots: legal commands only, blind to hidden information, stronger than random,
and the generic ISMCTS search working on Strasbourg through the adapter unchanged."""

from __future__ import annotations

import pytest

from server.bots import Budget, decide
from server.bots.adapters import adapter_for
from server.bots.strasbourg import choose
from server.devtools.bots.stats import summarize
from server.devtools.bots.tournament import matches, run
from server.engine import Command, Game, Rng, State, clone, get_game, seed_to_state
from tests.support.playout import play_to

GAME = get_game("strasbourg")
SMALL = Budget(iterations=6, horizon=12)


def _heuristic(game: Game, state: State, seat: int, rng: Rng) -> Command:
    return choose(game.view(state, seat), seat, rng)


def _play_to(seats: int, seed: str, steps: int) -> State:
    """A state reached by ``steps`` heuristic commands (stopping early at the end)."""
    return play_to(GAME, seats, seed, steps, _heuristic)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_every_bot_kind_plays_a_whole_game_with_legal_commands(seats: int) -> None:
    kinds = ["greedy", "random", "mcts", "greedy", "random"][:seats]
    state = GAME.new(seats, f"legal-{seats}", GAME.default_options())
    step = 0
    searched = 0
    while GAME.result(state) is None:
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        # The search is slow; it decides every fifth of its seat's moves.
        kind = kinds[seat] if kinds[seat] != "mcts" or step % 5 == 0 else "greedy"
        searched += kind == "mcts"
        cmd = decide(kind, "strasbourg", view, seat, f"s{step}", budget=SMALL)
        assert cmd in view["legal"], (kind, cmd)
        state, _ = GAME.apply(state, seat, cmd)
        step += 1
    assert searched > 0
    result = GAME.result(state)
    assert result is not None and len(result["scores"]) == seats


def _with_other_secrets_changed(state: State, viewer: int) -> State:
    """The same game with another seat's coins, privileges and deck order changed."""
    other = clone(state)
    for seat, p in enumerate(other["players"]):
        if seat != viewer:
            p["coins"] += 7
            p["privileges"] += 1
            p["deck"] = list(reversed(p["deck"]))
    return other


@pytest.mark.parametrize("kind", ["random", "greedy", "mcts"])
def test_a_bot_decides_alike_whatever_other_seats_hide(kind: str) -> None:
    for steps in (0, 6, 25, 60):
        real = _play_to(4, f"hide-{steps}", steps)
        seat = min(GAME.to_act(real))
        changed = _with_other_secrets_changed(real, seat)
        assert real != changed
        view = GAME.view(real, seat)
        assert GAME.view(changed, seat) == view
        for seed in ("one", "two"):
            assert decide(kind, "strasbourg", view, seat, seed, budget=SMALL) == decide(
                kind, "strasbourg", GAME.view(changed, seat), seat, seed, budget=SMALL
            )


def test_determinized_states_look_exactly_like_the_real_one_to_the_seat() -> None:
    adapter = adapter_for("strasbourg")
    rng = Rng(seed_to_state("det"))
    for seats in (3, 4, 5):
        for steps in (0, 5, 30, 80, 140):
            state = _play_to(seats, f"det-{seats}-{steps}", steps)
            if GAME.result(state) is not None:
                continue
            seat = min(GAME.to_act(state))
            view = GAME.view(state, seat)
            sampled = adapter.determinize(view, seat, rng)
            assert GAME.view(sampled, seat) == view
            GAME.apply(sampled, seat, view["legal"][0])


def test_search_candidates_are_legal_and_start_with_the_heuristic_choice() -> None:
    adapter = adapter_for("strasbourg")
    for steps in (0, 4, 12, 40, 100):
        state = _play_to(4, f"cand-{steps}", steps)
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        found = adapter.candidates(view, seat)
        assert found and all(c in view["legal"] for c in found)
        assert found[0] == choose(view, seat, Rng(1))


def test_heuristic_keeps_few_easy_tasks_and_draws_a_fair_share() -> None:
    state = GAME.new(3, "tasks", GAME.default_options())
    view = GAME.view(state, 0)
    kept = choose(view, 0, Rng(1))
    assert kept["type"] == "keep" and 1 <= len(kept["tasks"]) <= 2
    for seat in range(3):
        state, _ = GAME.apply(state, seat, choose(GAME.view(state, seat), seat, Rng(1)))
    assert state["phase"] == "planning"
    drawn = 0
    while (cmd := choose(GAME.view(state, 0), 0, Rng(1))) == {"type": "draw"}:
        state, _ = GAME.apply(state, 0, cmd)
        drawn += 1
    # 24 cards over 5 rounds: about five a round.
    assert cmd == {"type": "stop"} and drawn == 5


def test_greedy_beats_two_random_bots() -> None:
    todo = matches("strasbourg", ["greedy", "random", "random"], 12, "strength", SMALL)
    greedy = summarize([p.record for p in run(todo)])[0]
    assert greedy.kind == "greedy" and greedy.share >= 0.75
