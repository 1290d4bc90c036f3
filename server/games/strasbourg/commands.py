"""Strasbourg's command table: every command type and the exact shape of its fields.

The engine's shell checks a command against it before it compares it with the legal
list (see ``server.engine.schema``). That comparison alone is not enough: ``9.0 == 9`` and
``True == 1`` in Python, so a ``keep`` of ``[9.0]`` would be accepted, stored and then break
every view built from it. Sizes follow the components: 25 task cards (5 dealt), a deck of
24 influence cards valued 1-6, a board of 6 rows by 9 columns.
"""

from __future__ import annotations

from typing import Any

from server.engine.phases import command_table
from server.engine.schema import Fields, Int, Pair, Str

from .data import COLS, GUILD_KEYS, ROWS
from .planning import CARD, INFLUENCE, TASKS
from .state import DECK

CELL = Pair(Int(0, ROWS - 1), Int(0, COLS - 1))

COMMANDS = command_table(
    # tasks and planning: their phases' own (keep; draw, stop, stack, seal, wait, retract)
    TASKS.commands,
    INFLUENCE.commands,
    {
        # influence
        "reveal": Fields({"stack": Int(0, len(DECK) - 1)}),
        "pass": Fields(),
        "privilege": Fields(),
        # decisions
        "build": Fields({"cell": CELL}),
        "decline": Fields(),
        "take_good": Fields(),
        "sell": Fields({"guild": Str(max(map(len, GUILD_KEYS)), GUILD_KEYS)}),
        "done": Fields(),
        "return_card": Fields({"card": CARD}),
        "return_none": Fields(),
        "chapel": Fields({"site": Int(0, 63)}),
        "edifice": Fields({"cell": CELL}),
    },
)


def check_command(cmd: Any) -> None:
    """RuleError('bad_command') unless ``cmd`` has exactly the shape of a Strasbourg command."""
    COMMANDS.check(cmd)
