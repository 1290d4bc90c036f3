"""Short finished games to analyse: greedy bots play every seat, the record names people."""

from __future__ import annotations

from typing import Any

from server.bots.adapters import adapter_for
from server.engine import Rng, get_game


def played(
    game_name: str, seats: int = 2, seed: str = "analysis", people: int = 1
) -> dict[str, Any]:
    """A finished game's record as ``TableService.record`` gives it; the first ``people``
    seats are persons (their decisions are judged), the rest greedy bots."""
    game = get_game(game_name)
    adapter, rng = adapter_for(game_name), Rng(7)
    options = game.default_options()
    state = game.new(seats, seed, options)
    commands: list[dict[str, Any]] = []
    while game.result(state) is None:
        seat = min(game.to_act(state))
        cmd = adapter.heuristic(game.view(state, seat), seat, rng)
        state, _ = game.apply(state, seat, cmd)
        commands.append({"seat": seat, "cmd": cmd})
    return {
        "game": game_name,
        "seats": seats,
        # As the table stores them: a person's name on a person's seat, none on a bot's.
        "names": [
            name if s < people else None
            for s, name in enumerate(["Ann", "Bea", "Cas", "Dan"][:seats])
        ],
        "bots": [None if s < people else "greedy" for s in range(seats)],
        "options": options,
        "seed": seed,
        "commands": commands,
        "result": game.result(state),
    }
