"""Which clause of docs/rules/norenberc.md a decision or a refusal applies.

Each clause id the engine names is written here once, as a constant; the view's ``rule``
(the decision a seat faces now) and a refusal's ``clause`` are both read from these tables,
so a page can open the very rule it applies. ``tests/games/test_clauses.py`` checks that
every id here is a clause of the rules text and that no id is written twice.
"""

from __future__ import annotations

from server.engine import State
from server.engine import planning as pl
from server.engine.clauses import Citations

PLAN = "N-4.1"
PASS = "N-4.2"
REPLAN = "N-4.4"
WAIT = "N-4.5"
ORDERED = "N-4.6"
WAIT_LIMITS = "N-4.7"
CALLED_GUILD = "N-5.1"
SELL = "N-5.2"
HIRE = "N-5.3"
TO_FRONT = "N-5.3c"
BUY = "N-5.4"
NOTHING = "N-5.5"
THIEF = "N-8.2"
BAILIFF = "N-8.3"
PEDDLER = "N-8.5"
CHIEF_JUDGE = "N-8.6"
PROMO = "N-C.4"
WINNER = "N-9.7"

# Each category of the final scoring (scoring.py's breakdown) and the clause that scores it,
# so that a score table (the end screen's, "if the game ended now") can open its rule.
SCORING = {
    "citizens": "N-9.1",
    "majorities": "N-9.2",
    "thirty": "N-9.3",
    "all_guilds": "N-9.4",
    "richest": "N-9.5",
    "crests": "N-9.6",
    "promo": PROMO,
}

CITIZEN_CHOICES = {
    "thief": THIEF,
    "bailiff": BAILIFF,
    "peddler": PEDDLER,
    "chief_judge": CHIEF_JUDGE,
    "historian": PROMO,
    "duchess": PROMO,
}

# Refusals whose code alone says which rule was broken.
REFUSALS = {
    "unknown_guild": PLAN,
    "duplicate_guild": PLAN,
    "too_many_cards": PLAN,
    "no_cards": PASS,
    "already_committed": REPLAN,
    "must_wait": ORDERED,
    "cannot_retract": ORDERED,
    "cannot_wait": WAIT_LIMITS,
    "bad_window": HIRE,
    "empty_window": HIRE,
    "bad_payment": HIRE,
    "already_first": TO_FRONT,
    "storehouse_empty": BUY,
    "too_many_goods": BUY,
    "cannot_afford": BUY,
    "game_over": WINNER,
}

# Otherwise the command refused names its rule (a sale of goods one lacks: the sale's rule)…
COMMANDS = {
    "plan": PLAN,
    "pass": PASS,
    "wait": WAIT,
    "retract": REPLAN,
    "sell": SELL,
    "hire": HIRE,
    "buy": BUY,
    "nothing": NOTHING,
}
# … except where the seat may not act at all: then the rule of what is being decided now.
NOT_THE_COMMAND = frozenset({"not_your_turn", "choice_pending", "unexpected_command"})


def decision(state: State, seat: int | None) -> str:
    """The clause of the decision ``seat`` faces now (None, or a seat with nothing to decide:
    the clause of the phase)."""
    if state["phase"] == "over":
        return WINNER
    if state["phase"] == "planning":
        p = state["planning"]
        if seat is not None and pl.may_retract(p, seat):
            return REPLAN
        return ORDERED if pl.is_ordered(p) else PLAN
    choice = state["action"]["choice"]
    return CALLED_GUILD if choice is None else CITIZEN_CHOICES[choice["citizen"]]


CITATIONS = Citations(REFUSALS, COMMANDS, NOT_THE_COMMAND, decision)
