"""The one error type a game raises for anything the rules do not allow."""

from __future__ import annotations


class RuleError(Exception):
    """An illegal command, with a stable machine code and a message for people.

    ``code`` is a short snake_case identifier (``not_your_turn``, ``cannot_afford``)
    that clients and tests match on; ``message`` quotes the bad input and says
    what would have been valid. ``clause`` is the id of the rule it enforces
    (``docs/rules/``), which a game's ``apply`` fills in (each game's ``clauses.py``), so that
    a player told "no" can read why.

    >>> err = RuleError("unknown_guild", "guild 9 is not in play (1-4 are)")
    >>> (err.code, str(err), err.clause)
    ('unknown_guild', 'guild 9 is not in play (1-4 are)', None)
    """

    def __init__(self, code: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.clause = clause

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
