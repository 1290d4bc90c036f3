"""What a bot needs to know about one particular game, and where to find it.

The generic bots (random, ISMCTS) work with the ``Game`` contract alone. Playing *well*
needs game knowledge, which each game supplies through a ``BotAdapter``:

- ``heuristic(view, seat, rng)``: the heuristic bot's choice from the seat's view;
- ``determinize(view, seat, rng)``: a full engine state consistent with everything the seat
  knows, with every hidden part (other seats' money and sealed plans, deck order) sampled;
- ``candidates(view, seat)``: the commands the search considers at the root (pruning keeps
  a small time budget on the few that matter);
- ``rollout(game, state, seat, rng)``: a fast move for ``seat`` inside a simulation (the state
  is a sampled one, so reading it leaks nothing real);
- ``evaluate(game, state, seat)``: how good a non-final state looks for ``seat``, in [0, 1];
- optionally ``advance(game, state, seat, cmd)``: the state after a legal command, changing
  ``state`` in place without the engine's checks, for the search's own states
  (``server.bots.ismcts``); without it the search uses the engine's ``apply``.

Adapters live in ``server/bots/<game>.py`` and register themselves on import.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from server.engine import Command, Game, Rng, State, View


class BotAdapter(Protocol):
    """Game knowledge for the bots of one game (see the module docstring)."""

    def heuristic(self, view: View, seat: int, rng: Rng) -> Command:
        """The heuristic bot's command; always one of ``view["legal"]``."""
        ...

    def determinize(self, view: View, seat: int, rng: Rng) -> State:
        """An engine state that ``seat`` cannot tell apart from the real one."""
        ...

    def candidates(self, view: View, seat: int) -> list[Command]:
        """The legal commands worth searching, most promising first (all of them is fine)."""
        ...

    def rollout(self, game: Game, state: State, seat: int, rng: Rng) -> Command:
        """A cheap legal command for ``seat`` in a simulated (sampled) state."""
        ...

    def evaluate(self, game: Game, state: State, seat: int) -> float:
        """Estimated outcome for ``seat`` of an unfinished state, 0 (lost) .. 1 (won)."""
        ...


_adapters: dict[str, BotAdapter] = {}


def register_adapter(game_name: str, adapter: BotAdapter) -> BotAdapter:
    """Make ``adapter`` the bots' knowledge of ``game_name``; returns it."""
    _adapters[game_name] = adapter
    return adapter


def adapter_for(game_name: str) -> BotAdapter:
    """The adapter of ``game_name``, importing ``server.bots.<game_name>`` on first use.

    Raises ValueError when no adapter exists for that game.
    """
    if game_name not in _adapters:
        module_name = f"{__package__}.{game_name}"
        try:
            importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
    try:
        return _adapters[game_name]
    except KeyError:
        raise ValueError(f"no bot knowledge for game {game_name!r}") from None
