"""How a test client reads the server's answer to a command.

A command is acknowledged by the document message (``patch`` or ``snapshot``) that brings the
mover's document to its version, which carries ``ack: <id>``, or, when the mover already held
that document (or the id was a repeat), by an ``ack{id, version}`` of its own. Refused, it is
answered by ``error{id}``.
"""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


def acked_id(message: Message) -> str | None:
    """The command id ``message`` acknowledges, if it acknowledges one."""
    if message.get("type") == "ack":
        return message.get("id")
    if message.get("type") in ("patch", "snapshot"):
        return message.get("ack")
    return None


def is_ack(message: Message) -> bool:
    return acked_id(message) is not None


def answers(message: Message, command_id: str) -> bool:
    """Does ``message`` answer ``command_id`` (acknowledge or refuse it)?"""
    if message.get("type") == "error":
        return message.get("id") == command_id
    return acked_id(message) == command_id
