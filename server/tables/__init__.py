"""The table service: the one writer per table, and the in-memory picture of each table.

``TableService`` (``service``) puts together the cache (``cache``), the lobby changes
(``lobby``) and play (``play``); callers import what they need from this package.
"""

from .cache import TableCache
from .data import SeatInfo, ServiceError, TableData
from .lobby import Lobby
from .play import Play
from .service import TableService

__all__ = ["Lobby", "Play", "SeatInfo", "ServiceError", "TableCache", "TableData", "TableService"]
