"""The table service: the one writer per table, and the in-memory picture of each table."""

from .data import SeatInfo, ServiceError, TableData
from .service import TableService

__all__ = ["SeatInfo", "ServiceError", "TableData", "TableService"]
