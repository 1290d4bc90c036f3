"""A game as a table of phases, and the sealed-planning phase every game with one shares.

A game names its phases and, for each, what a seat may send (``legal``) and what a legal
command does (``apply``); :class:`PhaseGame` builds the ``Game`` contract from that table.
Its ``apply`` is the same for every game:

1. the command has exactly the shape of the game's command table (``bad_command``);
2. the game is not over (``game_over``) and the seat sits at the table (``not_your_turn``);
3. the command is one ``legal`` lists (one legality truth: nothing else is accepted);
4. a copy-on-write draft of the state goes to the phase's handler.

A command ``legal`` does not list is refused by one ladder, from the list alone: the phase's
own explanation first (``explain``, for codes that say more, such as ``cannot_afford``),
then, when the seat may send nothing, why (``already_committed``, ``must_wait``,
``not_your_turn``), else ``unexpected_command`` (a type not possible now) or ``not_allowed``.
The game's ``Citations`` then name the clause each refusal enforces.

:class:`SealedPlanning` describes a sealed-planning phase by one value (the commands that seal
a plan, their fields, the order rule, the game's handlers); from it come the plan, wait and
retract commands and their schema, their ``legal`` entries, the refusals above, the commit,
wait and retract transitions with their events, and ``sample_from_public``, the planning
record a bot's determinization rebuilds from a view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypedDict

from . import planning as pl
from .clauses import Citations
from .errors import RuleError
from .game import Command, Event, Result, State, View
from .schema import CommandSchema, Fields
from .state import draft, finish

Legal = Callable[[State, int], list[Command]]
Handler = Callable[[State, int, Command], list[Event]]
# Why ``cmd`` is not in ``options`` (the seat's legal list), when the game says more than the
# shared ladder: a RuleError to raise, or None to leave it to the ladder.
Explain = Callable[[State, int, Command, list[Command]], RuleError | None]


class Phase(NamedTuple):
    """One row of a game's phase table; a plain ``(legal, apply)`` pair is one too."""

    legal: Legal
    apply: Handler
    explain: Explain | None = None
    # Why a seat that may send nothing now may not (None: ``not_your_turn``).
    idle: Callable[[State, int], RuleError | None] | None = None
    # The seats the game waits for in this phase (None: the game's ``to_act`` says).
    to_act: Callable[[State], set[int]] | None = None
    # Fields a command may leave out that only confirm what the rules compute (a sale's total):
    # a command without them is the listed one that has them.
    informational: frozenset[str] = frozenset()
    # ``legal_of(state, seat, cmd)``: the part of ``legal`` that may hold ``cmd`` (every listed
    # command of its type, or of its type and size), which the shell checks first because it
    # is cheaper to list; it must be exactly those commands of ``legal``.
    legal_of: Callable[[State, int, Command], list[Command]] | None = None


class PlanningCommand(TypedDict):
    """The shape of the commands a :class:`SealedPlanning` adds to the phase's own (``wait``,
    ``retract``), for a game's union of command shapes (``BidCommand | PlanningCommand``)."""

    type: Literal["wait", "retract"]


def _no_events(state: State) -> list[Event]:
    return []


@dataclass(frozen=True)
class SealedPlanning:
    """A sealed-planning phase (``server.engine.planning`` keeps its record in the state under
    ``key``).

    ``commits``: the commands that seal a plan and their fields (Lantern ``bid``; Norenberc
    ``plan`` and ``pass``); ``steps``: private commands a seat sends before sealing, with their
    fields and handlers (Strasbourg ``draw``, ``stop``, ``stack``); ``choices(state, seat)``:
    what a seat that may plan may send now, plans and steps, in the order bots see them;
    ``plan_of(draft, seat, cmd)``: the plan a sealing command seals; ``sealed(draft, seat,
    plan)``: the events of sealing it; ``reveal(draft)``: what the game does once every plan
    is in; ``order(state)``: the planning order and ``eligible(state)`` the seats that plan
    (default: all of them); ``order_words``: how the wait event names the order.
    ``waits`` / ``retracts``: whether a seat may ask to wait / take its plan back at all;
    ``may_wait(state, seat)``: a further condition of the game on waiting;
    ``retracted(draft, seat, plan)``: what a take-back gives back to the seat;
    ``choices_of(state, seat, cmd)``: the choices that may equal ``cmd``, when the game can list
    them more cheaply than all of them (the plans of one size).
    """

    commits: Mapping[str, Fields]
    choices: Legal
    plan_of: Callable[[State, int, Command], Any]
    sealed: Callable[[State, int, Any], list[Event]]
    reveal: Callable[[State], list[Event]] = _no_events
    order: Callable[[State], list[int]] = lambda state: list(range(state["seats"]))
    eligible: Callable[[State], list[int]] | None = None
    order_words: str = "in planning order"
    steps: Mapping[str, tuple[Fields, Handler]] = field(default_factory=dict)
    waits: bool = True
    retracts: bool = True
    may_wait: Callable[[State, int], bool] | None = None
    retracted: Callable[[State, int, Any], None] | None = None
    choices_of: Callable[[State, int, Command], list[Command]] | None = None
    key: str = "planning"

    @property
    def commands(self) -> dict[str, Fields]:
        """The command table of this phase: sealing commands, steps, wait and retract."""
        table = dict(self.commits)
        table.update({kind: fields for kind, (fields, _) in self.steps.items()})
        if self.waits:
            table["wait"] = Fields()
        if self.retracts:
            table["retract"] = Fields()
        return table

    def open(self, state: State) -> None:
        """Open the phase in ``state`` (a draft or a new state): ordered on an ordered table."""
        order = self.order(state)
        eligible = self.eligible(state) if self.eligible else order
        ordered = state["options"].get("planning") == "ordered"
        state[self.key] = pl.open_planning(state["seats"], order, eligible, ordered=ordered)

    def to_act(self, state: State) -> set[int]:
        return set(pl.awaiting(state[self.key]))

    def legal(self, state: State, seat: int) -> list[Command]:
        """The seat's choices while it may plan, then wait; or retract once it has sealed."""
        p = state[self.key]
        if self.retracts and pl.may_retract(p, seat):
            return [{"type": "retract"}]
        if not pl.may_commit(p, seat):
            return []
        commands = self.choices(state, seat)
        if self.may_wait_now(state, seat):
            commands = [*commands, {"type": "wait"}]
        return commands

    def legal_of(self, state: State, seat: int, cmd: Command) -> list[Command]:
        """The part of ``legal`` that may hold ``cmd``: the choices of its kind (``choices_of``,
        when the game can list them more cheaply than all of its choices), wait or retract."""
        p, kind = state[self.key], cmd["type"]
        if kind == "retract" or (self.retracts and pl.may_retract(p, seat)):
            return self.legal(state, seat) if kind == "retract" else []
        if not pl.may_commit(p, seat):
            return []
        if kind == "wait":
            return [{"type": "wait"}] if self.may_wait_now(state, seat) else []
        if self.choices_of is not None:
            return self.choices_of(state, seat, cmd)
        return [c for c in self.choices(state, seat) if c["type"] == kind]

    def may_wait_now(self, state: State, seat: int) -> bool:
        p = state[self.key]
        return (
            self.waits
            and pl.may_wait(p, seat)
            and (self.may_wait is None or self.may_wait(state, seat))
        )

    def idle(self, state: State, seat: int) -> RuleError:
        """Why ``seat`` may send nothing now: it sealed already, or waits for its turn."""
        p = state[self.key]
        if pl.has_committed(p, seat):
            return RuleError("already_committed", f"seat {seat} has already sealed its plan")
        if p["eligible"][seat]:
            blockers = [s for s in pl.pending(p) if p["order"].index(s) < p["order"].index(seat)]
            return RuleError("must_wait", f"seat {seat} plans after seats {blockers}")
        return RuleError("not_your_turn", f"seat {seat} does not plan now")

    def apply(self, state: State, seat: int, cmd: Command) -> list[Event]:
        """The transition of a legal planning command (``state`` is the draft)."""
        kind = cmd["type"]
        p = state[self.key]
        if kind == "wait":
            state[self.key] = pl.wait(p, seat)
            return [pl.waited_event(seat, self.order_words)]
        if kind == "retract":
            plan = pl.plan_of(p, seat)
            state[self.key] = pl.retract(p, seat)
            if self.retracted is not None:
                self.retracted(state, seat, plan)
            return [pl.retracted_event(seat)]
        if kind in self.steps:
            return self.steps[kind][1](state, seat, cmd)
        return self.seal(state, seat, self.plan_of(state, seat, cmd))

    def seal(self, state: State, seat: int, plan: Any) -> list[Event]:
        """Commit ``plan`` for ``seat``; once every plan is in, the game's ``reveal``."""
        state[self.key] = pl.commit(state[self.key], seat, plan)
        events = self.sealed(state, seat, plan)
        if pl.is_complete(state[self.key]):
            events += self.reveal(state)
        return events

    def phase(self) -> Phase:
        """This phase as a row of a phase table."""
        return Phase(
            self.legal, self.apply, idle=self.idle, to_act=self.to_act, legal_of=self.legal_of
        )


def sample_from_public(public: Mapping[str, Any], plan_for: Callable[[int], Any]) -> pl.Planning:
    """The planning record behind ``public`` (a view's ``planning`` part: order, ordered,
    waited_by, status), with ``plan_for(seat)`` as each committed seat's plan: what a bot's
    determinization needs. When the view shows the commit counters (``committed_at``,
    ``counter``) they are kept and ``plan_for`` is asked in seat order; otherwise the commits
    are numbered, and ``plan_for`` asked, in planning order.
    """
    status = public["status"]
    n = len(status)
    record: pl.Planning = {
        "order": list(public["order"]),
        "eligible": [s != "out" for s in status],
        "ordered": bool(public.get("ordered")),
        "waited_by": public.get("waited_by"),
        "plans": [None] * n,
        "committed_at": [None] * n,
        "counter": 0,
    }
    if "committed_at" in public:
        record["committed_at"] = list(public["committed_at"])
        record["counter"] = public["counter"]
        for seat in range(n):
            if record["committed_at"][seat] is not None:
                record["plans"][seat] = plan_for(seat)
        return record
    for seat in public["order"]:
        if status[seat] == "committed":
            record["counter"] += 1
            record["committed_at"][seat] = record["counter"]
            record["plans"][seat] = plan_for(seat)
    return record


class PhaseGame:
    """The ``Game`` contract built from a phase table ``{phase: (legal, apply)}``.

    ``setup(seats, seed, options)`` returns the opening state and the events of the opening
    (round 1 shown, say), once the shell has checked the seats and the options; ``new`` keeps
    the state, ``opening`` both (``server.engine.opening``): a table logs the opening's events
    as its first version's, and stores them, so a table dealt before they were logged keeps
    the log it had.

    A phase the table does not name (``"over"``) is a finished game. ``normalize(cmd)``: the
    canonical form of a command before it is compared with the legal list. ``to_act``:
    the seats the game waits for, when its phases do not say it (``Phase.to_act``).
    ``unchanging``: state keys no command changes, which the draft shares and never copies.
    A game with a ``view_from`` passes it too.
    """

    def __init__(
        self,
        *,
        name: str,
        title: str,
        seats: tuple[int, int],
        default_options: Callable[[], dict[str, Any]],
        setup: Callable[[int, str, dict[str, Any]], tuple[State, list[Event]]],
        phases: Mapping[str, Phase | tuple[Legal, Handler]],
        commands: CommandSchema,
        view: Callable[[State, int | None], View],
        result: Callable[[State], Result | None],
        to_act: Callable[[State], set[int]] | None = None,
        citations: Citations | None = None,
        normalize: Callable[[Command], Command] | None = None,
        unchanging: frozenset[str] = frozenset(),
        view_from: Callable[[State, int, View], View] | None = None,
    ) -> None:
        self.name, self.title = name, title
        self.min_seats, self.max_seats = seats
        self._default_options, self._setup = default_options, setup
        self.phases = {key: Phase(*row) for key, row in phases.items()}
        self.commands, self._view, self._result = commands, view, result
        self._to_act = to_act or (lambda state: to_act_in(self.phases, state))
        self.citations, self.normalize = citations, normalize
        self.unchanging = unchanging
        if view_from is not None:
            # Only a game that has one offers it: the server asks ``getattr``.
            self.view_from = view_from

    def default_options(self) -> dict[str, Any]:
        return self._default_options()

    def opening(self, seats: int, seed: str, options: dict[str, Any]) -> tuple[State, list[Event]]:
        """A fresh game and the events of its opening; RuleError('bad_seats') for a number of
        seats outside the game's, RuleError('bad_option') for an option it does not know or
        a planning mode that is none. ``setup`` gets the options filled with the defaults."""
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise RuleError(
                "bad_seats", f"{self.title} takes {self.min_seats}-{self.max_seats} seats"
            )
        defaults = self.default_options()
        if not isinstance(options, dict) or set(options) - set(defaults):
            known = ", ".join(defaults)
            raise RuleError("bad_option", f"unknown options in {options!r} (known: {known})")
        merged = {**defaults, **options}
        if "planning" in defaults:
            pl.check_planning_option(merged["planning"])
        return self._setup(seats, seed, merged)

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        return self.opening(seats, seed, options)[0]

    def to_act(self, state: State) -> set[int]:
        return self._to_act(state)

    def legal(self, state: State, seat: int) -> list[Command]:
        return legal_in(self.phases, state, seat)

    def view(self, state: State, seat: int | None) -> View:
        return self._view(state, seat)

    def result(self, state: State) -> Result | None:
        return self._result(state)

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        """The state after ``seat`` plays ``cmd`` and its events; RuleError, naming the clause
        it enforces, for anything ``legal`` does not list."""
        try:
            phase, norm = self.check(state, seat, cmd)
        except RuleError as exc:
            if self.citations is None:
                raise
            raise self.citations.cite(exc, state, seat, cmd) from None
        # Copy on write: the rules take each part they change (``own``, ``own_item``) and only
        # those are copied; the rest is shared with ``state``, never changed.
        new = draft(state, self.unchanging)
        events = phase.apply(new, seat, norm)
        return finish(new), events

    def check(self, state: State, seat: int, cmd: Any) -> tuple[Phase, Command]:
        """The phase and the (normalized) command if ``seat`` may play ``cmd`` now; else the
        ladder's RuleError."""
        self.commands.check(cmd)  # exact JSON types first: 9.0 == 9 would pass the list
        phase = self.phases.get(state["phase"])
        if phase is None:
            raise RuleError("game_over", "the game is over; no more commands are accepted")
        if type(seat) is not int or not 0 <= seat < state["seats"]:
            raise RuleError(
                "not_your_turn", f"seat {seat!r} is not at this table (0-{state['seats'] - 1})"
            )
        norm = self.normalize(cmd) if self.normalize else cmd
        part = phase.legal_of(state, seat, norm) if phase.legal_of else None
        options = phase.legal(state, seat) if part is None else part
        if norm in options or (phase.informational and _listed(norm, options, phase)):
            return phase, norm
        if part is not None:  # refused: the ladder reads the whole list
            options = phase.legal(state, seat)
        why = phase.explain(state, seat, norm, options) if phase.explain else None
        if why is None and not options:
            why = phase.idle(state, seat) if phase.idle else None
            why = why or RuleError("not_your_turn", f"seat {seat} has nothing to decide now")
        if why is not None:
            raise why
        types = sorted({c["type"] for c in options})
        if norm["type"] not in types:
            raise RuleError(
                "unexpected_command", f"{norm['type']!r} is not possible now; possible: {types}"
            )
        same = [c for c in options if c["type"] == norm["type"]]
        raise RuleError("not_allowed", f"{norm!r} is not allowed; allowed: {same[:20]}")


def _listed(cmd: Command, options: list[Command], phase: Phase) -> bool:
    """True when ``cmd`` is a listed command with some of its informational fields left out."""
    given = {k: v for k, v in cmd.items() if k not in phase.informational}
    for option in options:
        if {k: v for k, v in option.items() if k not in phase.informational} == given and all(
            option.get(k) == cmd[k] for k in cmd if k in phase.informational
        ):
            return True
    return False


def legal_in(phases: Mapping[str, Phase], state: State, seat: Any) -> list[Command]:
    """Every command ``seat`` may send now by the phase table; [] for a seat not at the table
    and in a phase without commands (a finished game)."""
    phase = phases.get(state["phase"])
    if phase is None or type(seat) is not int or not 0 <= seat < state["seats"]:
        return []
    return phase.legal(state, seat)


def to_act_in(phases: Mapping[str, Phase], state: State) -> set[int]:
    """The seats the phase table waits for now: its phase's ``to_act`` (none: nobody)."""
    phase = phases.get(state["phase"])
    return phase.to_act(state) if phase is not None and phase.to_act else set()


def command_table(*tables: Mapping[str, Fields]) -> CommandSchema:
    """One command table from a game's own commands and its planning phases' (a command two
    tables share must take the same fields in both)."""
    merged: dict[str, Fields] = {}
    for table in tables:
        for kind, fields in table.items():
            if merged.setdefault(kind, fields) != fields:
                raise ValueError(f"command {kind!r} is declared with two different fields")
        # (Fields is a frozen dataclass: equal fields compare equal.)
    return CommandSchema(merged)
