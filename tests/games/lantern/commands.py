"""The command table: every command type and the exact JSON type of its fields."""

from __future__ import annotations

from typing import Any

from server.engine.schema import CommandSchema, Fields, Int

COMMANDS = CommandSchema(
    {
        "bid": Fields({"amount": Int(0, 99)}),
        "wait": Fields(),
        "retract": Fields(),
    }
)


def check_command(cmd: Any) -> None:
    """RuleError('bad_command') unless ``cmd`` has exactly the shape of a command."""
    COMMANDS.check(cmd)
