"""The bot kinds a table seat may name, without loading any bot (the table service checks a
kind when a table is made or a seat handed over; the bots themselves load on first decision).

- ``random``: uniform over the legal commands;
- ``greedy``: the game's heuristic player (``heuristic`` is accepted as another name);
- ``mcts``: information-set Monte Carlo tree search (``server.bots.ismcts``).
"""

from __future__ import annotations

KINDS = ("random", "greedy", "mcts")
ALIASES = {"heuristic": "greedy"}
# What a player reads for each kind (the pages' "Bot (easy)"; the kinds stay the API's words).
LEVELS = {"random": "easy", "greedy": "medium", "mcts": "hard"}


def canonical_kind(kind: str) -> str:
    """The bot kind ``kind`` names (resolving aliases); ValueError for an unknown kind."""
    name = ALIASES.get(kind, kind)
    if name not in KINDS:
        raise ValueError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)})")
    return name
