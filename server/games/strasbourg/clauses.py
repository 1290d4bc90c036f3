"""Which clause of docs/rules/strasbourg.md a decision or a refusal applies.

Each clause id the engine names is written here once, as a constant; the view's ``rule``
(the decision a seat faces now) and a refusal's ``clause`` are both read from these tables,
so a page can open the very rule it applies. ``tests/games/test_clauses.py`` checks that
every id here is a clause of the rules text and that no id is written twice.
"""

from __future__ import annotations

from server.engine import planning as pl
from server.engine.clauses import Citations

from .state import State

TASKS = "S-3.4"
FIRST_CARD = "S-4.1"
DRAW = "S-4.2"
SPLIT = "S-4.4"
RESPLIT = "S-4.5"
IN_TURN = "S-4.6"
BID = "S-5.1"
RETURN_CARD = "S-5.4"
MASTER = "S-B.1"
JOURNEYMAN = "S-B.2"
APPRENTICE = "S-B.3"
PAY_FOR_SPACE = "S-B.5"
SELL = "S-C.1"
CHAPEL = "S-H.1"
EDIFICE = "S-I.1"
WINNER = "S-7.6"

# Each category of the final scoring (scoring.py's breakdown) and the clause that scores it,
# so that the end screen's score table can open its rule.
SCORING = {
    "council": "S-6.1",
    "city": "S-7.1",
    "chapels": "S-7.2",
    "edifices": "S-7.3",
    "privileges": "S-7.4",
    "tasks": "S-7.5",
}

CHOICES = {
    "apprentice": APPRENTICE,
    "sell": SELL,
    "return": RETURN_CARD,
    "chapel": CHAPEL,
    "edifice": EDIFICE,
}
BUILD_ROLES = {"master": MASTER, "journeyman": JOURNEYMAN}

# Refusals whose code alone says which rule was broken.
REFUSALS = {"game_over": WINNER, "must_wait": IN_TURN, "cannot_afford": PAY_FOR_SPACE}

# Otherwise the command refused names its rule; a build, a decline or a good depend on the
# role the decision is for, which ``decision`` knows.
COMMANDS = {
    "keep": TASKS,
    "draw": DRAW,
    "stop": DRAW,
    "wait": IN_TURN,
    "stack": SPLIT,
    "seal": SPLIT,
    "retract": RESPLIT,
    "reveal": BID,
    "pass": BID,
    "privilege": BID,
    "sell": SELL,
    "done": SELL,
    "return_card": RETURN_CARD,
    "return_none": RETURN_CARD,
    "chapel": CHAPEL,
    "edifice": EDIFICE,
}
# Where the seat may not act at all: the rule of what is being decided now.
NOT_THE_COMMAND = frozenset({"not_your_turn", "already_committed", "unexpected_command"})


def decision(state: State, seat: int | None) -> str:
    """The clause of the decision ``seat`` faces now (None, or a seat with nothing to decide:
    the clause of the phase). Reads only what ``seat`` may know."""
    phase = state["phase"]
    if phase == "over":
        return WINNER
    if phase == "tasks":
        return TASKS
    if phase == "planning":
        return _planning(state, seat)
    if phase == "influence" or not state["choices"]:
        return BID
    choice = state["choices"][0]
    if choice["kind"] == "build":
        return BUILD_ROLES[choice["role"]]
    return CHOICES[choice["kind"]]


def _planning(state: State, seat: int | None) -> str:
    p = state["planning"]
    if seat is None or p is None:
        return IN_TURN if p is not None and pl.is_ordered(p) else FIRST_CARD
    if pl.may_retract(p, seat):
        return RESPLIT
    if not pl.may_commit(p, seat):
        return IN_TURN if pl.is_ordered(p) else RESPLIT
    player = state["players"][seat]
    if player["stopped"]:
        return SPLIT
    return DRAW if player["hand"] else FIRST_CARD


CITATIONS = Citations(REFUSALS, COMMANDS, NOT_THE_COMMAND, decision)
