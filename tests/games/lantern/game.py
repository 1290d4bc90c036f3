"""The Lantern market game object: the engine's phase shell over the rules."""

from server.engine.phases import PhaseGame

from .rules import COMMANDS, PHASES, build_view, final_result, new_state

GAME = PhaseGame(
    name="lantern",
    title="Lantern market",
    seats=(2, 4),
    default_options=lambda: {"planning": "simultaneous"},
    setup=new_state,
    phases=PHASES,
    commands=COMMANDS,
    view=build_view,
    result=lambda state: final_result(state) if state["phase"] == "over" else None,
)
