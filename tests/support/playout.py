"""One play-out helper for every game test: play a game through the ``Game`` contract,
each choice made by a ``Chooser``, checking what ``Checks`` asks along the way.

Choosers:

- ``Drawn(data)`` draws every seat and command through Hypothesis (``st.data()``), so a
  failing game shrinks to a short command list, which Hypothesis prints draw by draw;
- ``Seeded(seed)``: a fixed generator, for tests that need some reachable game, not a search;
- ``Policy(policy, seed)``: a bot-like policy plays for the first seat to act.

With ``Checks``, after every command: the state round-trips through JSON exactly, ``apply``
did not mutate its input, events are well formed, and the game's own invariants hold. At
*checkpoints* (the start, every phase or round change, the end, and a share ``views`` of
the other commands) also:

- every seat's view and the spectator's are JSON, carry ``legal``/``to_act`` equal to the
  game's, and every seat in ``to_act`` has a legal command; a game with ``view_from`` makes
  each seat's view from the spectator's (as the server does), which stays as it was, and
  ``view`` gives the very same text (one seat drawn per checkpoint);
- the views of everyone but one seat (``owner``, drawn per checkpoint) are byte-identical
  when ``owner``'s hidden information is changed (``hidden_variant``): one variant changes
  all of it at once, and the unchanged views are reused from the check above;
- a few legal commands of the acting seat are accepted, illegal variants of them are
  refused with a ``RuleError`` with a snake_case code, and so is a command of a seat that
  may not act. (A refusal that mutated the state is caught by the mutation check.)
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st

from server.engine import Command, Event, Game, Rng, RuleError, State, seed_to_state
from server.engine.replay import final_state

# (state, owner, rng) -> the same public situation with ``owner``'s secrets (and whatever
# nobody may know, like deck order) changed; None when nothing is hidden any more.
HiddenVariant = Callable[[State, int, Rng], State | None]
# (state before, seat, command, events) -> raises AssertionError when an event is wrong
EventCheck = Callable[[State, int, Command, list[Event]], None]
# picks the command ``seat`` plays in ``state``; ``rng`` is the play-out's own generator
PolicyFn = Callable[[Game, State, int, Rng], Command]

# Out of this many steps, one goes to a seat outside ``to_act`` that still has optional
# commands (taking back a sealed plan), so those paths are played without stalling games.
OPTIONAL_ONE_IN = 20


class Chooser(Protocol):
    def seat(self, acting: list[int], optional: list[int]) -> int:
        """The seat that acts next: one of ``acting`` (sorted), now and then of ``optional``."""
        ...

    def command(self, game: Game, state: State, seat: int, legal: list[Command]) -> Command:
        """The command ``seat`` plays, one of ``legal``."""
        ...


class Seeded:
    """Uniform choices from a generator seeded with ``seed``."""

    def __init__(self, seed: str) -> None:
        self.rng = Rng(seed_to_state("playout:" + seed))

    def seat(self, acting: list[int], optional: list[int]) -> int:
        if optional and self.rng.below(OPTIONAL_ONE_IN) == 0:
            return self.rng.choice(optional)
        return self.rng.choice(acting)

    def command(self, game: Game, state: State, seat: int, legal: list[Command]) -> Command:
        return self.rng.choice(legal)


class Drawn:
    """Choices drawn through Hypothesis. A failure ends the draws and shrinking shortens
    them, so a failing game shrinks to a short command list; the commands played are printed
    (as notes) with the falsifying example.

    Each drawn index is rotated by an offset from a fixed generator: Hypothesis starts from,
    and shrinks towards, index 0, and "always the first legal command" is a degenerate game
    (in Strasbourg it draws every card, and the legal stacks of a full hand number in the
    thousands). Indices are drawn rather than ``sampled_from(legal)``, which would hash every
    legal command at every draw."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data
        self.offsets = Rng(seed_to_state("drawn"))
        self.played = 0

    def _pick(self, options: list[Any], label: str) -> Any:
        if len(options) == 1:
            return options[0]
        index = self.data.draw(st.integers(0, len(options) - 1), label=label)
        return options[(index + self.offsets.below(len(options))) % len(options)]

    def seat(self, acting: list[int], optional: list[int]) -> int:
        # The last value (not 0, where shrinking goes) means "an optional seat".
        if optional:
            take_back = self.data.draw(st.integers(0, OPTIONAL_ONE_IN - 1), label="optional")
            if take_back == OPTIONAL_ONE_IN - 1:
                return int(self._pick(optional, "optional seat choice"))
        return int(self._pick(acting, "seat choice"))

    def command(self, game: Game, state: State, seat: int, legal: list[Command]) -> Command:
        cmd: Command = self._pick(legal, "command choice")
        self.played += 1
        note(f"command {self.played}: seat {seat} plays {json.dumps(cmd)}")
        return cmd


class Policy:
    """``policy`` plays for the lowest seat that may act (as a table of bots would)."""

    def __init__(self, policy: PolicyFn, seed: str) -> None:
        self.policy = policy
        self.rng = Rng(seed_to_state(seed))

    def seat(self, acting: list[int], optional: list[int]) -> int:
        return acting[0]

    def command(self, game: Game, state: State, seat: int, legal: list[Command]) -> Command:
        return self.policy(game, state, seat, self.rng)


def random_policy(game: Game, state: State, seat: int, rng: Rng) -> Command:
    return rng.choice(game.legal(state, seat))


@dataclass(frozen=True)
class Checks:
    """What to check while playing (see the module's docstring)."""

    invariants: Callable[[State], None] | None = None
    events: EventCheck | None = None
    hidden_variant: HiddenVariant | None = None
    # Share of commands after which the views are checked, besides the start, every phase or
    # round change and the end (1.0: after every command).
    views: float = 1.0
    probe_legal: int = 2  # legal commands of the acting seat tried at a checkpoint
    probe_illegal: bool = True
    max_commands: int = 5_000


@dataclass
class Playout:
    """One game played: everything needed to replay it, and what it went through."""

    seats: int
    seed: str
    options: dict[str, Any]
    commands: list[tuple[int, Command]] = field(default_factory=list)
    final: State | None = None
    events: Counter[str] = field(default_factory=Counter)  # event types seen, with counts
    checkpoints: int = 0


def play(
    game: Game,
    seats: int,
    seed: str,
    options: dict[str, Any],
    chooser: Chooser,
    checks: Checks | None = None,
    steps: int | None = None,
) -> Playout:
    """Play from a fresh deal to the end (or for ``steps`` commands), checking ``checks``."""
    state = game.new(seats, seed, options)
    record = Playout(seats, seed, dict(options))
    rng = Rng(seed_to_state("checks:" + seed))
    text = json_text(state) if checks else ""
    checkpoint = True
    while game.result(state) is None and (steps is None or len(record.commands) < steps):
        acting = sorted(game.to_act(state))
        assert acting, "nobody may act but the game is not over"
        optional = [s for s in range(seats) if s not in acting and game.legal(state, s)]
        seat = chooser.seat(acting, optional)
        legal = game.legal(state, seat)
        assert legal, f"seat {seat} may act but has no legal command"
        if checks and checkpoint:
            legal_of = _check_views(game, state, seats, checks, rng)
            assert legal_of[seat] == legal
            _probe(game, state, seat, legal, legal_of, checks, rng)
            record.checkpoints += 1
        cmd = chooser.command(game, state, seat, legal)
        new_state, events = game.apply(state, seat, cmd)
        record.commands.append((seat, cmd))
        record.events.update(e["type"] for e in events)
        if checks:
            assert json_text(state) == text, "apply (or a refused probe) mutated its input"
            _check_events(seats, events)
            if checks.events:
                checks.events(state, seat, cmd, events)
            text = json_text(new_state)
            assert json.loads(text) == new_state, "the state does not round-trip through JSON"
            if checks.invariants:
                checks.invariants(new_state)
            checkpoint = _stage(new_state) != _stage(state) or rng.below(1000) < checks.views * 1000
            if len(record.commands) >= checks.max_commands:
                raise AssertionError(f"the game does not end after {checks.max_commands} commands")
        state = new_state
    if checks and game.result(state) is not None:
        assert game.to_act(state) == set()
        legal_of = _check_views(game, state, seats, checks, rng)
        assert not any(legal_of.values()), "a finished game lists legal commands"
        for s in range(seats):
            assert_refused(game, state, s, {"type": "pass"})
        record.checkpoints += 1
    record.final = state
    return record


def play_to(game: Game, seats: int, seed: str, steps: int, policy: PolicyFn) -> State:
    """The state after ``steps`` commands of ``policy`` from a fresh deal (earlier if it ends)."""
    record = play(game, seats, seed, game.default_options(), Policy(policy, seed), steps=steps)
    assert record.final is not None
    return record.final


def replay(game: Game, record: Playout) -> State:
    """Re-derive the final state from the record's (seats, seed, options, commands) through
    the engine's ``replay``, each command as it arrives from JSON (the server stores text)."""
    commands = [(seat, json.loads(json.dumps(cmd))) for seat, cmd in record.commands]
    return final_state(
        game,
        {
            "seats": record.seats,
            "seed": record.seed,
            "options": record.options,
            "commands": commands,
        },
    )


def states(game: Game, record: Playout) -> Iterator[State]:
    """Every state the record went through, the fresh deal first and the final state last."""
    state = game.new(record.seats, record.seed, record.options)
    yield state
    for seat, cmd in record.commands:
        state, _ = game.apply(state, seat, cmd)
        yield state


def json_text(state: State) -> str:
    return json.dumps(state, sort_keys=True)


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


def assert_refused(game: Game, state: State, seat: int, cmd: Any) -> str:
    """``apply`` refuses ``cmd`` with a RuleError whose code is snake_case; returns the code."""
    try:
        game.apply(state, seat, cmd)
    except RuleError as err:
        assert err.code and err.code.replace("_", "").isalnum() and err.code.islower(), err.code
        return err.code
    raise AssertionError(f"seat {seat}: illegal {cmd!r} was accepted")


def _stage(state: State) -> tuple[Any, Any]:
    """What a phase boundary changes (both games keep ``phase`` and ``round``)."""
    return state.get("phase"), state.get("round")


def _view_text(view: Any) -> str:
    text = json.dumps(view)
    assert json.loads(text) == view, "a view does not round-trip through JSON"
    return text


def _check_views(
    game: Game, state: State, seats: int, checks: Checks, rng: Rng
) -> dict[int, list[Command]]:
    """Every view checked; returns each seat's legal commands.

    A game with ``view_from`` is checked the server's way: every seat's view is made from the
    one spectator view (which must stay as it was), and ``view`` of one seat drawn per
    checkpoint must give the very same text."""
    to_act = sorted(game.to_act(state))
    spectator = game.view(state, None)
    assert spectator["legal"] == [] and sorted(spectator["to_act"]) == to_act
    texts: dict[int | None, str] = {None: _view_text(spectator)}
    legal_of: dict[int, list[Command]] = {}
    for seat in range(seats):
        own = _seat_view(game, state, seat, spectator)
        legal_of[seat] = game.legal(state, seat)
        assert own["legal"] == legal_of[seat], f"view of seat {seat} has other legal commands"
        assert sorted(own["to_act"]) == to_act
        assert legal_of[seat] or seat not in to_act, f"seat {seat} may act without a command"
        texts[seat] = _view_text(own)
    if hasattr(game, "view_from"):
        assert json.dumps(spectator) == texts[None], "view_from changed the spectator's view"
        drawn = rng.below(seats)
        assert json.dumps(game.view(state, drawn)) == texts[drawn], f"view_from of {drawn}"
    if checks.hidden_variant is not None and seats >= 2:
        owner = rng.below(seats)
        variant = checks.hidden_variant(state, owner, rng)
        if variant is not None:
            variant_spectator = game.view(variant, None)
            for viewer, text in texts.items():
                if viewer != owner:
                    seen = json.dumps(
                        variant_spectator
                        if viewer is None
                        else _seat_view(game, variant, viewer, variant_spectator)
                    )
                    assert seen == text, f"view of {viewer} changed with seat {owner}'s secrets"
    return legal_of


def _seat_view(game: Game, state: State, seat: int, spectator: Any) -> Any:
    """``seat``'s view as the server makes it: from ``spectator`` when the game can."""
    view_from = getattr(game, "view_from", None)
    return game.view(state, seat) if view_from is None else view_from(state, seat, spectator)


def _probe(
    game: Game,
    state: State,
    seat: int,
    legal: list[Command],
    legal_of: dict[int, list[Command]],
    checks: Checks,
    rng: Rng,
) -> None:
    for _ in range(min(checks.probe_legal, len(legal))):
        game.apply(state, seat, rng.choice(legal))  # must not raise
    if not checks.probe_illegal:
        return
    for bad in illegal_variants(rng.choice(legal)):
        if bad not in legal:
            assert_refused(game, state, seat, bad)
    to_act = game.to_act(state)
    idle = [s for s, commands in legal_of.items() if not commands and s not in to_act]
    if idle:
        assert_refused(game, state, idle[rng.below(len(idle))], legal[0])


def _check_events(seats: int, events: list[Event]) -> None:
    for ev in events:
        assert isinstance(ev["type"], str) and isinstance(ev["text"], str), ev
        to = ev.get("to")
        assert to is None or set(to) <= set(range(seats)), ev


# pytest-timeout for a fast-tier play-out test: its games, plus up to 300 s (Hypothesis's own
# limit) of shrinking a failure to a short command list, on a busy machine.
PLAYOUT_TIMEOUT = 1200


def fast_games(count: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a play-out of the fast tier (``make test``): ``count`` games
    from a fixed seed, so every run plays the same games."""
    return settings(
        max_examples=count,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def soak_games(count: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a play-out of the soak tier (``make soak``, marker ``soak``):
    ``count`` new random games a run, times ``GUILDHALL_SOAK_SCALE`` (default 1)."""
    scale = float(os.environ.get("GUILDHALL_SOAK_SCALE", "1"))
    return settings(
        max_examples=max(1, round(count * scale)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
