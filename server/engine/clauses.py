"""How a game names the clause of its rules (``docs/rules/``) that a refusal enforces.

A game declares three tables and a function; the engine owns the order in which they are
asked, so both games cite the same way: the refusal's code alone, else the command refused
(unless the seat may not act at all), else the decision the seat faces now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RuleError


@dataclass(frozen=True)
class Citations:
    """``refusals``: codes that name their clause alone; ``commands``: the clause of each
    command type; ``not_the_command``: codes saying the seat may not act now, for which the
    command refused names nothing; ``decision(state, seat)``: the clause of what ``seat``
    (None: nobody in particular) decides now."""

    refusals: Mapping[str, str]
    commands: Mapping[str, str]
    not_the_command: frozenset[str]
    decision: Callable[[Any, int | None], str]

    def cite(self, exc: RuleError, state: Any, seat: Any, cmd: Any) -> RuleError:
        """``exc`` with the clause it enforces, unless it names one already."""
        if exc.clause is None:
            kind = str(cmd.get("type")) if isinstance(cmd, dict) else ""
            by_command = None if exc.code in self.not_the_command else self.commands.get(kind)
            mine = seat if isinstance(seat, int) and 0 <= seat < state["seats"] else None
            exc.clause = self.refusals.get(exc.code) or by_command or self.decision(state, mine)
        return exc
