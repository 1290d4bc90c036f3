"""The command table: the bidding phase's (bid, wait, retract)."""

from __future__ import annotations

from server.engine.phases import command_table

from .flow import BIDDING

COMMANDS = command_table(BIDDING.commands)
check_command = COMMANDS.check
