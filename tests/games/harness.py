"""A game-agnostic random play-out harness over the ``Game`` contract.

Any engine (Norenberc, Strasbourg) can use it: ``play_random`` plays one game by picking
uniformly among the legal commands of a seat the game waits for, and after every command
checks the contract's invariants:

- the state round-trips through JSON exactly;
- ``apply`` did not mutate its input state;
- every legal command probed is accepted, and illegal variants are rejected with RuleError;
- views are JSON, carry ``legal``/``to_act`` consistent with the game, and a seat's view is
  unchanged when another seat's hidden information changes (``hidden_variants``);
- the game's own invariants (``check``).

At the end ``replay`` re-derives the final state from (seats, seed, options, commands).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from server.engine import Game, Rng, RuleError, seed_to_state
from server.engine.replay import final_state

State = dict[str, Any]
Command = dict[str, Any]
# (state, seat) -> states that differ from ``state`` only in what ``seat`` keeps hidden
HiddenVariants = Callable[[State, int, Rng], list[State]]


@dataclass
class Playout:
    """One finished random game: everything needed to replay it."""

    seats: int
    seed: str
    options: dict[str, Any]
    commands: list[tuple[int, Command]] = field(default_factory=list)
    final: State | None = None


@dataclass
class Checks:
    """Which checks to run, and how often (every ``every``-th command)."""

    check: Callable[[State], None] | None = None
    hidden_variants: HiddenVariants | None = None
    probe_legal: int = 3  # legal commands of the acting seat tried besides the chosen one
    probe_illegal: bool = True
    every: int = 1
    # Share of steps given to a seat outside ``to_act`` that still has optional commands
    # (e.g. taking back a sealed plan), so those paths are played too.
    optional_rate: float = 0.05
    max_commands: int = 20_000


def playout_count(default: int) -> int:
    """How many games a long random play-out runs: ``default`` times ``GUILDHALL_PLAYOUT_SCALE``.

    The default sizes keep ``make test`` within the CI budget; raise the scale (e.g. ``10``)
    for a soak run.
    """
    return max(1, round(default * float(os.environ.get("GUILDHALL_PLAYOUT_SCALE", "1"))))


def json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def assert_json_exact(state: State) -> None:
    """The state is plain JSON data: a round trip gives an equal value (and equal text)."""
    text = json.dumps(state, sort_keys=True)
    again = json_roundtrip(state)
    assert again == state, "state does not round-trip through JSON"
    assert json.dumps(again, sort_keys=True) == text


def illegal_variants(cmd: Command) -> list[Any]:
    """Commands derived from ``cmd`` that are usually illegal (the caller filters out any
    that happen to be legal): an unknown type, a non-dict, out-of-range integers."""
    found: list[Any] = [{"type": "no_such_command"}, "plan", None, {"no_type": 1}]
    for key, value in cmd.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            found.append({**cmd, key: value + 1000})
            found.append({**cmd, key: -1 - value})
        elif isinstance(value, list):
            found.append({**cmd, key: "not a list"})
        elif isinstance(value, dict):
            found.append({**cmd, key: {"no_such_thing": 1}})
    return found


def assert_rejected(game: Game, state: State, seat: int, cmd: Any) -> None:
    before = json.dumps(state, sort_keys=True)
    try:
        game.apply(state, seat, cmd)
    except RuleError as err:
        assert err.code and err.code.replace("_", "").isalnum() and err.code.islower(), err.code
        assert json.dumps(state, sort_keys=True) == before, "a rejected apply mutated the state"
        return
    raise AssertionError(f"seat {seat}: illegal {cmd!r} was accepted")


def _check_views(game: Game, state: State, seats: int, checks: Checks, rng: Rng) -> None:
    to_act = sorted(game.to_act(state))
    spectator = game.view(state, None)
    assert spectator["legal"] == [] and sorted(spectator["to_act"]) == to_act
    json.dumps(spectator)
    for seat in range(seats):
        own = game.view(state, seat)
        assert own["legal"] == game.legal(state, seat), f"view of seat {seat} has other legal"
        assert json_roundtrip(own) == own
    if checks.hidden_variants is None or seats < 2:
        return
    owner = rng.below(seats)
    viewers = [s for s in range(seats) if s != owner] + [None]
    base = {v: json.dumps(game.view(state, v), sort_keys=True) for v in viewers}
    for variant in checks.hidden_variants(state, owner, rng):
        for v in viewers:
            seen = json.dumps(game.view(variant, v), sort_keys=True)
            assert seen == base[v], f"view of {v} changed with seat {owner}'s hidden information"


def _probe(
    game: Game, state: State, seats: int, seat: int, legal: list[Command], checks: Checks, rng: Rng
) -> None:
    for _ in range(min(checks.probe_legal, len(legal))):
        cmd = legal[rng.below(len(legal))]
        game.apply(state, seat, cmd)  # must not raise
    if not checks.probe_illegal:
        return
    for bad in illegal_variants(legal[rng.below(len(legal))]):
        if bad not in legal:
            assert_rejected(game, state, seat, bad)
    idle = [s for s in range(seats) if s not in game.to_act(state) and not game.legal(state, s)]
    for other in idle[:1]:
        assert_rejected(game, state, other, legal[0])


def _pick_seat(game: Game, state: State, seats: int, checks: Checks, rng: Rng) -> int:
    to_act = sorted(game.to_act(state))
    assert to_act, "nobody may act but the game is not over"
    if rng.below(1000) < checks.optional_rate * 1000:
        optional = [s for s in range(seats) if s not in to_act and game.legal(state, s)]
        if optional:
            return optional[rng.below(len(optional))]
    return to_act[rng.below(len(to_act))]


def play_random(
    game: Game, seats: int, seed: str, options: dict[str, Any], checks: Checks
) -> Playout:
    """Play one random game to its end, checking invariants; returns the record."""
    rng = Rng(seed_to_state("harness:" + seed))
    state = game.new(seats, seed, options)
    record = Playout(seats, seed, dict(options))
    while game.result(state) is None:
        assert len(record.commands) < checks.max_commands, "the game does not end"
        seat = _pick_seat(game, state, seats, checks, rng)
        legal = game.legal(state, seat)
        assert legal, f"seat {seat} is in to_act but has no legal command"
        assert all(json_roundtrip(c) == c for c in legal)
        cmd = legal[rng.below(len(legal))]
        step = len(record.commands)
        deep = step % checks.every == 0
        before = json.dumps(state, sort_keys=True)
        if deep:
            _probe(game, state, seats, seat, legal, checks, rng)
        new_state, events = game.apply(state, seat, cmd)
        assert json.dumps(state, sort_keys=True) == before, "apply mutated its input"
        assert all(isinstance(e["text"], str) for e in events)
        state = new_state
        record.commands.append((seat, cmd))
        if deep:
            assert_json_exact(state)
            _check_views(game, state, seats, checks, rng)
        if checks.check is not None:
            checks.check(state)
    assert game.to_act(state) == set()
    record.final = state
    return record


def replay(game: Game, record: Playout) -> State:
    """Re-derive the final state from the record's (seats, seed, options, commands), each
    command as it arrives from JSON."""
    commands = [(seat, json_roundtrip(cmd)) for seat, cmd in record.commands]
    return final_state(game, {**vars(record), "commands": commands})
