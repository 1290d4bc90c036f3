"""Lantern market, the game built from docs/adding-a-game.md: its rules, play-outs through the
shared helper (views independent of other seats' bids and the deck order), determinization
and the bots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.bots import decide
from server.engine import Event, Rng, RuleError, State, get_game, seed_to_state
from server.engine import planning as pl
from tests.support.playout import PLAYOUT_TIMEOUT, Checks, Drawn, Seeded, fast_games, play, replay

from .bots import BOTS
from .game import GAME
from .rules import components


def new_game(seats: int = 3, seed: str = "lantern", **options: Any) -> State:
    return GAME.new(seats, seed, options)


def bid_all(state: State, amounts: list[int]) -> tuple[State, list[Event]]:
    """Every seat bids, in this round's planning order."""
    events: list[Event] = []
    for seat in list(state["planning"]["order"]):
        state, more = GAME.apply(state, seat, {"type": "bid", "amount": amounts[seat]})
        events += more
    return state, events


def check_state(state: State) -> None:
    """What always holds: every dealt lantern in one place, coins within bounds, bidding
    open until the game is over."""
    comps = components()
    won = [t for p in state["players"] for t in p["lanterns"]]
    shown = [state["shown"]] if state["shown"] else []
    every = won + shown + state["deck"]
    assert len(every) == len(set(every)) == comps["rounds"]
    assert all(0 <= p["coins"] <= comps["coins"] for p in state["players"])
    assert (state["phase"] == "over") == (state["planning"] is None)


def hidden_variant(state: State, owner: int, rng: Rng) -> State | None:
    """The same public position with ``owner``'s sealed bid and the deck order changed."""
    changed = False
    new = {**state, "deck": list(state["deck"])}
    if len(new["deck"]) > 1:
        new["deck"] = new["deck"][1:] + new["deck"][:1]
        changed = True
    p = state["planning"]
    if p is not None and pl.has_committed(p, owner):
        plans = list(p["plans"])
        coins = state["players"][owner]["coins"]
        plans[owner] = (plans[owner] + 1) % (coins + 1)
        if plans[owner] != p["plans"][owner]:
            new["planning"] = {**p, "plans": plans}
            changed = True
    return new if changed else None


FULL = Checks(invariants=check_state, hidden_variant=hidden_variant)


def test_the_game_is_registered_for_tests() -> None:
    assert get_game("lantern") is GAME


def test_the_worked_example_is_at_most_250_lines() -> None:
    """Every file of the game (its modules, its data and its bots' knowledge; not its tests),
    each line counted as ``wc -l`` counts it: the guide's example stays a small game's size."""
    files = [p for p in Path(__file__).parent.iterdir() if p.is_file()]
    game = [p for p in files if not p.name.startswith("test_")]
    assert {"game.py", "manifest.py", "rules.py", "lantern.json"} <= {p.name for p in game}
    lines = {p.name: p.read_bytes().count(b"\n") for p in game}
    assert sum(lines.values()) <= 250, lines


def test_the_highest_bid_buys_the_lantern_and_a_tie_goes_first_in_order() -> None:
    state = new_game(3)
    shown = state["shown"]
    state, events = bid_all(state, [4, 6, 6])  # order 0, 1, 2: seat 1 is before seat 2
    won = next(e for e in events if e["type"] == "LanternWon")
    assert won["params"] == {"seat": 1, "lantern": shown, "price": 6}
    assert state["players"][1]["coins"] == 4 and state["players"][1]["lanterns"] == [shown]
    assert state["planning"]["order"] == [1, 2, 0]  # the next round starts one seat on


def test_bids_stay_sealed_until_everyone_has_bid() -> None:
    state = new_game(3)
    state, events = GAME.apply(state, 0, {"type": "bid", "amount": 7})
    assert [e["params"] for e in events] == [{"seat": 0}]
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert view["my_bid"] is None and set(view["planning"]) == {
            "order",
            "ordered",
            "waited_by",
            "status",
            "awaiting",
        }
        assert view["planning"]["status"][0] == "committed"
    assert GAME.view(state, 0)["my_bid"] == 7


def test_refusals_use_the_shared_codes() -> None:
    state = new_game(3, planning="ordered")
    codes = {}
    tries: list[tuple[int, dict[str, Any]]] = [
        (1, {"type": "bid", "amount": 1}),
        (0, {"type": "bid", "amount": 11}),
        (0, {"type": "bid", "amount": 1.0}),
        (0, {"type": "retract"}),
    ]
    for seat, cmd in tries:
        with pytest.raises(RuleError) as err:
            GAME.apply(state, seat, cmd)
        codes[(seat, cmd["type"], repr(cmd.get("amount")))] = err.value.code
    assert list(codes.values()) == ["must_wait", "not_allowed", "bad_command", "unexpected_command"]
    state, _ = GAME.apply(state, 0, {"type": "bid", "amount": 1})
    with pytest.raises(RuleError) as err:
        GAME.apply(state, 0, {"type": "bid", "amount": 2})
    assert err.value.code == "already_committed"


@fast_games(12)
@given(data=st.data(), seats=st.integers(2, 4), mode=st.sampled_from(["simultaneous", "ordered"]))
def test_random_games_hold_every_check_and_replay(
    data: st.DataObject, seats: int, mode: str
) -> None:
    seed = data.draw(st.text(min_size=1, max_size=8), label="seed")
    record = play(GAME, seats, seed, {"planning": mode}, Drawn(data), FULL)
    assert record.final is not None and record.events["LanternWon"] == 4
    assert replay(GAME, record) == record.final


def test_play_outs_take_bids_back_and_wait() -> None:
    kinds = set()
    for seed in range(8):
        record = play(GAME, 3, f"s{seed}", {"planning": "simultaneous"}, Seeded(str(seed)), FULL)
        kinds |= {cmd["type"] for _, cmd in record.commands}
    assert kinds == {"bid", "wait", "retract"}


def test_a_sampled_state_looks_the_same_to_the_seat() -> None:
    record = play(GAME, 3, "det", {"planning": "simultaneous"}, Seeded("det"), steps=5)
    assert record.final is not None
    for seat in range(3):
        view = GAME.view(record.final, seat)
        for n in range(5):
            sampled = BOTS.determinize(view, seat, Rng(seed_to_state(f"{seat}:{n}")))
            assert GAME.view(sampled, seat) == view


@pytest.mark.timeout(PLAYOUT_TIMEOUT)
@pytest.mark.parametrize("kind", ["random", "greedy", "mcts"])
def test_every_bot_kind_finishes_a_game(kind: str) -> None:
    state = new_game(3, seed=f"bots-{kind}")
    steps = 0
    while GAME.result(state) is None:
        seat = min(GAME.to_act(state))
        cmd = decide(kind, "lantern", GAME.view(state, seat), seat, f"{kind}{steps}")
        state, _ = GAME.apply(state, seat, cmd)
        steps += 1
        assert steps < 200
    result = GAME.result(state)
    assert result is not None and result["winners"]
