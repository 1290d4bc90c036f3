"""The table chat: messages beside the game, never in its state, version or record
(``docs/protocol.md``, "Table chat")."""

from .service import ChatService, Speaker

__all__ = ["ChatService", "Speaker"]
