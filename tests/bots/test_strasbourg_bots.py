"""Strasbourg bots: legal commands only, blind to hidden information, stronger than random,
and the generic ISMCTS search working on Strasbourg through the adapter unchanged."""

from __future__ import annotations

import pytest

from server.bots import Budget, decide
from server.bots.adapters import adapter_for
from server.bots.ismcts import Search
from server.bots.strasbourg import TREE_DEPTH, choose, choose_in_state, play_in_place
from server.devtools.bots.stats import summarize
from server.devtools.bots.tournament import matches, run
from server.engine import Command, Game, Rng, State, View, clone, get_game, seed_to_state
from tests.support.playout import Chooser, Policy, Seeded, play, play_to, states

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


def _mostly_greedy(game: Game, state: State, seat: int, rng: Rng) -> Command:
    """The heuristic, with one command in four uniformly random (to reach odd positions)."""
    if rng.below(4) == 0:
        return rng.choice(game.legal(state, seat))
    return choose(game.view(state, seat), seat, rng)


def test_the_play_out_policy_reads_the_state_as_the_heuristic_reads_the_view() -> None:
    games: list[tuple[int, str, Chooser]] = [
        (3, "simultaneous", Policy(_mostly_greedy, "eq-3")),
        (4, "ordered", Policy(_mostly_greedy, "eq-4")),
        (5, "simultaneous", Policy(_mostly_greedy, "eq-5")),
        (4, "simultaneous", Seeded("eq-random")),
    ]
    compared = set()
    for seats, planning, chooser in games:
        record = play(GAME, seats, f"eq-{seats}-{planning}", {"planning": planning}, chooser)
        for i, state in enumerate(states(GAME, record)):
            for seat in range(seats):
                view = GAME.view(state, seat)
                if not view["legal"] or len(view["legal"]) > 200:
                    continue
                expected = choose(view, seat, Rng(i))
                assert choose_in_state(state, seat, Rng(i)) == expected, (i, seat, expected)
                compared.add((state["phase"], expected["type"]))
    # Every kind of decision was compared.
    assert {kind for _, kind in compared} >= {
        "keep",
        "draw",
        "stop",
        "stack",
        "seal",
        "reveal",
        "pass",
        "build",
        "decline",
        "take_good",
        "sell",
        "done",
        "return_card",
        "chapel",
        "edifice",
    }


def test_playing_in_place_reaches_the_states_the_engine_returns() -> None:
    games: list[tuple[int, str, Chooser]] = [
        (3, "simultaneous", Policy(_mostly_greedy, "inplace-3")),
        (5, "ordered", Policy(_mostly_greedy, "inplace-5")),
        (4, "simultaneous", Seeded("inplace-random")),
    ]
    for seats, planning, chooser in games:
        record = play(GAME, seats, f"inplace-{seats}", {"planning": planning}, chooser)
        own = clone(GAME.new(seats, record.seed, record.options))
        for (seat, cmd), state in zip(record.commands, list(states(GAME, record))[1:], strict=True):
            own = play_in_place(own, seat, cmd)
            assert own == state, (seat, cmd)


class _EngineApplies:
    """The Strasbourg adapter without its in-place ``advance``: the search applies every
    command through the engine."""

    def __init__(self, tree_depth: int | None = TREE_DEPTH) -> None:
        self.inner = adapter_for("strasbourg")
        self.tree_depth = tree_depth

    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        return self.inner.heuristic(view, seat, rng)

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        return self.inner.determinize(view, seat, rng)

    def candidates(self, view: View, seat: int) -> list[Command]:
        return self.inner.candidates(view, seat)

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        return self.inner.rollout(game, state, seat, rng)

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        return self.inner.evaluate(game, state, seat)


def test_the_search_decides_the_same_playing_in_place() -> None:
    budget = Budget(iterations=8, horizon=60)
    for steps in (3, 9, 30, 70):
        state = _play_to(4, f"same-{steps}", steps)
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        fast = Search(GAME, adapter_for("strasbourg"), view, seat, Rng(steps), budget)
        slow = Search(GAME, _EngineApplies(), view, seat, Rng(steps), budget)
        assert fast.run() == slow.run()
        assert [fast.stats(k) for k in fast.ranking()] == [slow.stats(k) for k in slow.ranking()]


def test_only_the_root_decision_is_searched_in_the_tree() -> None:
    state = _play_to(3, "depth", 3)
    while state["phase"] != "planning":
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, choose(GAME.view(state, seat), seat, Rng(0)))
    seat = min(GAME.to_act(state))
    state, _ = GAME.apply(state, seat, {"type": "draw"})
    view = GAME.view(state, seat)
    assert {"type": "stop"} in view["legal"] and {"type": "draw"} in view["legal"]
    budget = Budget(iterations=30, horizon=40)
    shallow = Search(GAME, adapter_for("strasbourg"), view, seat, Rng(1), budget)
    deep = Search(GAME, _EngineApplies(tree_depth=None), view, seat, Rng(1), budget)
    shallow.run()
    deep.run()
    # Drawing is followed by more of the seat's own planning: a deep tree grows below it.
    assert any(child.children for child in deep.root.children.values())
    assert shallow.root.children and not any(
        child.children for child in shallow.root.children.values()
    )


def test_a_seat_with_many_stacks_may_still_pass_or_use_a_privilege_in_the_search() -> None:
    state = GAME.new(4, "many", GAME.default_options())
    while state["phase"] != "influence":
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        me = view["me"]
        if state["phase"] != "planning" or seat != 0:
            cmd = choose(view, seat, Rng(0))
        elif not me["stopped"]:
            cmd = {"type": "draw" if len(me["hand"]) < 6 else "stop"}
        elif me["hand"]:
            cmd = {"type": "stack", "cards": me["hand"][:1]}
        else:
            cmd = {"type": "seal"}
        state, _ = GAME.apply(state, seat, cmd)
    # Step A as it begins when seat 0 starts, seat 0 holding a privilege.
    state = clone(state)
    state["start"] = state["influence"]["start"] = 0
    state["influence"]["queue"] = [0, 1, 2, 3]
    state["players"][0]["privileges"] = 1
    view = GAME.view(state, 0)
    assert len(view["me"]["stacks"]) == 6 and {"type": "privilege"} in view["legal"]
    found = adapter_for("strasbourg").candidates(view, 0)
    assert {"type": "pass"} in found and {"type": "privilege"} in found
