"""Bot players. They see exactly what their seat may see: the seat's view and its legal commands.

``decide`` is the one entry point the server calls for a bot seat.
"""

from __future__ import annotations

from server.engine import Command, Rng, View, seed_to_state


def decide(kind: str, game: str, view: View, seat: int, seed: str) -> Command:
    """The command bot ``kind`` plays for ``seat`` given its view; deterministic for ``seed``.

    Raises ValueError when the view offers no legal command (the seat may not act).
    """
    legal = view.get("legal") or []
    if not legal:
        raise ValueError(f"seat {seat} has no legal command in this view")
    return Rng(seed_to_state(seed)).choice(list(legal))
