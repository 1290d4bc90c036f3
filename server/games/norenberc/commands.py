"""Norenberc's command table: every command type and the exact shape of its fields.

The engine's shell checks a command against it before any rule looks at it (see
``server.engine.schema``), so only commands made of exactly the JSON types ``legal`` lists
can reach the rules and the store. Bounds are generous where the rules decide (a window
number is 0-9 here, 1-4 by the rules, which then say ``bad_window``) and tight where the
data does (guilds 1-6, at most 8 agents).
"""

from __future__ import annotations

from typing import Any

from server.engine.phases import command_table
from server.engine.schema import Bool, Fields, Int, ListOf, MapOf, Str

from .flow import MAX_GUILDS, PLANNING

NAME_CHARS = 16  # good names and tile ids ("beer", "c2-01", "t07") are short
SEAT = Int(0, 9)
GUILD = Int(0, 9)
COUNT = Int(0, 99)
TALERS = Int(0, 9999)
GOODS = MapOf(Str(NAME_CHARS), COUNT, max_len=MAX_GUILDS)
TILE = Str(NAME_CHARS)

COMMANDS = command_table(
    # planning: the sealed-planning phase's own (plan, pass, wait, retract)
    PLANNING.commands,
    {
        # actions (``total`` and ``tile`` are informational: optional, checked when given)
        "sell": Fields({"count": COUNT}, optional={"total": TALERS}),
        "buy": Fields({"goods": GOODS}, optional={"total": TALERS}),
        "hire": Fields(
            {"window": Int(0, 9), "payment": GOODS, "to_front": Bool()}, optional={"tile": TILE}
        ),
        "nothing": Fields(),
        # citizen choices
        "steal": Fields({"victim": SEAT, "goods": GOODS}, optional={"paid": TALERS}),
        "bailiff": Fields({"tiles": ListOf(TILE, max_len=2)}),
        "decline": Fields(),
        "peddler_good": Fields({"good": Str(NAME_CHARS)}),
        "judge_house": Fields({"guild": GUILD}),
        "historian": Fields({"give": GUILD, "take": GUILD}),
        "duchess": Fields({"guild": GUILD}),
    },
)


def check_command(cmd: Any) -> None:
    """RuleError('bad_command') unless ``cmd`` has exactly the shape of a Norenberc command."""
    COMMANDS.check(cmd)
