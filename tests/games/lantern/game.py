"""The Lantern market game object: the engine's phase shell over this game's rules."""

from __future__ import annotations

from server.engine.phases import PhaseGame

from .commands import COMMANDS
from .legal import PHASES
from .scoring import result
from .setup import MAX_SEATS, MIN_SEATS, default_options, new_state
from .views import build_view

GAME = PhaseGame(
    name="lantern",
    title="Lantern market",
    seats=(MIN_SEATS, MAX_SEATS),
    default_options=default_options,
    setup=new_state,
    phases=PHASES,
    commands=COMMANDS,
    view=build_view,
    result=result,
)
