"""The phase kit: a game made of a phase table and one sealed-planning phase, its derived
commands and legal lists, the one refusal ladder, the transitions and the rebuilt record."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import tests.games.lantern  # noqa: F401  (registers the test game)
from server.engine import Event, RuleError, State, event, get_game
from server.engine import planning as pl
from server.engine.clauses import Citations
from server.engine.phases import (
    Phase,
    PhaseGame,
    SealedPlanning,
    command_table,
    sample_from_public,
)
from server.engine.schema import Fields, Int
from tests.support.playout import Seeded, play, states


def reveal(state: State) -> list[Event]:
    state["phase"] = "over"
    return [event("Revealed", "all picked", params={"picks": state["planning"]["plans"]})]


def taken_back(state: State, seat: int, plan: Any) -> None:
    state["taken_back"] = [*state["taken_back"], [seat, plan]]


PICKING = SealedPlanning(
    commits={"pick": Fields({"n": Int(0, 9)})},
    choices=lambda state, seat: [{"type": "pick", "n": n} for n in range(3)],
    plan_of=lambda state, seat, cmd: cmd["n"],
    sealed=lambda state, seat, n: [event("Picked", f"{{s{seat}}} picked", params={"seat": seat})],
    reveal=reveal,
    order=lambda state: list(reversed(range(state["seats"]))),
    order_words="last seat first",
    retracted=taken_back,
)


def setup(seats: int, seed: str, options: dict[str, Any]) -> tuple[State, list[Event]]:
    state: State = {"seats": seats, "options": options, "phase": "picking", "taken_back": []}
    PICKING.open(state)
    return state, [event("Opened", "picking begins", params={})]


def never_three(state: State, seat: int, cmd: dict[str, Any], options: list[Any]) -> Any:
    return RuleError("too_big", "three is too many") if cmd.get("n") == 3 else None


GAME = PhaseGame(
    name="picks",
    title="Picks",
    seats=(2, 4),
    default_options=lambda: {"planning": "simultaneous"},
    setup=setup,
    phases={"picking": PICKING.phase()._replace(explain=never_three)},
    commands=command_table(PICKING.commands),
    view=lambda state, seat: {"phase": state["phase"]},
    result=lambda state: None,
    citations=Citations(
        {"must_wait": "X-2"}, {"pick": "X-1"}, frozenset({"not_your_turn"}), lambda s, seat: "X-0"
    ),
)


def refusal(state: State, seat: Any, cmd: Any) -> tuple[str, str | None]:
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, seat, cmd)
    return caught.value.code, caught.value.clause


def test_the_phase_derives_its_commands_and_legal_lists() -> None:
    assert sorted(GAME.commands.types) == ["pick", "retract", "wait"]
    state = GAME.new(3, "s", {})
    picks = [{"type": "pick", "n": n} for n in range(3)]
    assert GAME.legal(state, 2) == picks  # first in order: waiting would change nothing
    assert GAME.legal(state, 0) == [*picks, {"type": "wait"}]
    assert GAME.to_act(state) == {0, 1, 2}
    state, events = GAME.apply(state, 0, {"type": "pick", "n": 1})
    assert [e["type"] for e in events] == ["Picked"]
    assert GAME.legal(state, 0) == [{"type": "retract"}] and GAME.to_act(state) == {1, 2}


def test_retract_gives_the_plan_back_and_wait_orders_the_phase() -> None:
    state = GAME.new(3, "s", {})
    state, _ = GAME.apply(state, 0, {"type": "pick", "n": 2})
    state, events = GAME.apply(state, 0, {"type": "retract"})
    assert [e["type"] for e in events] == [pl.RETRACTED] and state["taken_back"] == [[0, 2]]
    state, events = GAME.apply(state, 1, {"type": "wait"})
    assert events[0]["type"] == pl.WAITED and "last seat first" in events[0]["text"]
    assert GAME.to_act(state) == {2}
    for seat in (2, 1, 0):
        state, events = GAME.apply(state, seat, {"type": "pick", "n": seat})
    assert [e["type"] for e in events] == ["Picked", "Revealed"] and state["phase"] == "over"


def test_one_ladder_refuses_whatever_legal_does_not_list() -> None:
    state = GAME.new(3, "s", {"planning": "ordered"})
    assert refusal(state, 2, {"type": "pick", "n": 1.0}) == ("bad_command", "X-1")
    assert refusal(state, 7, {"type": "pick", "n": 1}) == ("not_your_turn", "X-0")
    assert refusal(state, 0, {"type": "pick", "n": 1}) == ("must_wait", "X-2")
    assert refusal(state, 2, {"type": "pick", "n": 3}) == ("too_big", "X-1")  # the game's own
    assert refusal(state, 2, {"type": "pick", "n": 4}) == ("not_allowed", "X-1")
    assert refusal(state, 2, {"type": "retract"}) == ("unexpected_command", "X-0")
    state, _ = GAME.apply(state, 2, {"type": "pick", "n": 1})
    assert refusal(state, 2, {"type": "pick", "n": 2}) == ("already_committed", "X-1")
    for seat in (1, 0):
        state, _ = GAME.apply(state, seat, {"type": "pick", "n": 0})
    assert refusal(state, 0, {"type": "pick", "n": 0}) == ("game_over", "X-1")


def test_apply_changes_no_state_it_was_given() -> None:
    state = GAME.new(2, "s", {})
    before = copy.deepcopy(state)
    GAME.apply(state, 0, {"type": "pick", "n": 1})
    assert state == before


def test_the_shell_checks_seats_and_options_and_keeps_the_opening_events() -> None:
    assert refusal_of_new(1, {}) == "bad_seats"
    assert refusal_of_new(3, {"colour": "red"}) == "bad_option"
    assert refusal_of_new(3, {"planning": "fast"}) == "bad_option"
    state, events = GAME.opening(3, "s", {})
    assert [e["type"] for e in events] == ["Opened"] and GAME.new(3, "s", {}) == state


def refusal_of_new(seats: int, options: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as caught:
        GAME.new(seats, "s", options)
    return caught.value.code


@pytest.mark.parametrize("counters", [True, False])
def test_the_record_rebuilt_from_the_public_view_looks_the_same(counters: bool) -> None:
    state = GAME.new(4, "s", {})
    for seat in (1, 3):
        state, _ = GAME.apply(state, seat, {"type": "pick", "n": 2})
    state, _ = GAME.apply(state, 0, {"type": "wait"})
    real = state["planning"]
    public = pl.public_view(real)
    if counters:
        public.update(committed_at=real["committed_at"], counter=real["counter"])
    asked: list[int] = []

    def plan_for(seat: int) -> int:
        asked.append(seat)
        return 10 + seat

    rebuilt = sample_from_public(public, plan_for)
    assert pl.public_view(rebuilt) == pl.public_view(real)
    assert asked == ([1, 3] if counters else [3, 1])  # seat order, or planning order
    assert rebuilt["plans"] == [None, 11, None, 13]


def test_a_command_declared_twice_must_take_the_same_fields() -> None:
    assert command_table({"wait": Fields()}, PICKING.commands).types == ["wait", "pick", "retract"]
    with pytest.raises(ValueError, match="two different fields"):
        command_table({"pick": Fields()}, PICKING.commands)


def test_a_command_may_leave_out_its_informational_fields() -> None:
    def sell(state: State, seat: int, cmd: dict[str, Any]) -> list[Event]:
        return [event("Sold", "sold", params={"count": cmd["count"]})]

    selling = PhaseGame(
        name="market",
        title="Market",
        seats=(2, 2),
        default_options=dict,
        setup=lambda seats, seed, options: ({"seats": seats, "phase": "selling"}, []),
        phases={
            "selling": Phase(
                lambda state, seat: [{"type": "sell", "count": 1, "total": 5}],
                sell,
                informational=frozenset({"total"}),
            )
        },
        commands=command_table({"sell": Fields({"count": Int(1, 9)}, {"total": Int(0, 99)})}),
        view=lambda state, seat: {},
        result=lambda state: None,
    )
    state = selling.new(2, "s", {})
    for cmd in ({"type": "sell", "count": 1}, {"type": "sell", "count": 1, "total": 5}):
        assert selling.apply(state, 0, cmd)[1][0]["params"] == {"count": 1}
    for cmd in ({"type": "sell", "count": 1, "total": 4}, {"type": "sell", "count": 2}):
        with pytest.raises(RuleError) as caught:
            selling.apply(state, 0, cmd)
        assert caught.value.code == "not_allowed"


@pytest.mark.parametrize(
    ("name", "seats", "options"),
    [
        ("norenberc", 3, {"planning": "simultaneous", "promo": True}),
        ("strasbourg", 3, {"planning": "ordered"}),
        ("lantern", 3, {"planning": "simultaneous"}),
    ],
)
def test_each_part_of_legal_the_shell_checks_first_is_exactly_that_part(
    name: str, seats: int, options: dict[str, Any]
) -> None:
    """``legal_of`` is a faster slice of ``legal``, never a second truth: for every listed
    command it lists the same command, and nothing ``legal`` does not list."""
    game = get_game(name)
    assert isinstance(game, PhaseGame)
    record = play(game, seats, f"slices-{name}", options, Seeded(f"slices-{name}"))
    for state in states(game, record):
        phase = game.phases.get(state["phase"])
        if phase is None or phase.legal_of is None:
            continue
        for seat in range(seats):
            listed = game.legal(state, seat)
            for cmd in listed:
                part = phase.legal_of(state, seat, cmd)
                assert cmd in part and all(c in listed for c in part), (seat, cmd)
