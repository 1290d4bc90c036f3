"""Rematch: the same people, and bots, at a new table of a finished game's game, options and
clock (docs/seats.md, "Rematch").

Any person seated at a finished table may ask, with their seat token. The first ask makes the
new table in the same versioned step that records it on the old table (``TableRow.rematch``),
so a finished table has at most one rematch however many people, in however many processes,
ask at once: a step that loses the version race is computed again and finds the rematch made.

Every person of the old table owns the same seat of the new one from the start, under a token
derived from their old seat's token hash with the server key (``seat_token``): only the server
can compute it, and it gives it only to whoever shows the old token, so nobody can claim
another person's seat, and asking again (from another device) gives the same link. Bots sit
where bots sat; a bot standing in for a person at the end leaves that person's seat to them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from server.clocks import model as clock_model
from server.store.models import SeatRow

from .data import ServiceError, TableData, hash_token


class AlreadyMade(Exception):
    """The finished table has its rematch already: ``table_id``."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


def check_finished(data: TableData) -> None:
    """Raises ServiceError('not_finished', 409) unless the game at ``data`` is over."""
    if data.status != "finished":
        raise ServiceError("not_finished", "a rematch is made once the game is over")


def seat_token(secret_key: str, table_id: str, old_token_hash: str) -> str:
    """The seat token, at the rematch ``table_id``, of the person whose old seat token has
    ``old_token_hash``: 192 bits of HMAC under the server key, shaped like ``new_token``."""
    message = f"rematch:{table_id}:{old_token_hash}".encode()
    digest = hmac.new(secret_key.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def clock_config(old: TableData) -> dict[str, Any]:
    """The old table's clock settings (a table older than clocks: untimed)."""
    return clock_model.check_config(old.clock["config"] if old.clock else None)


def seat_rows(old: TableData, table_id: str, secret_key: str) -> list[SeatRow]:
    """The rematch's seats: each person's under their derived token, bots where bots sat."""
    rows = []
    for seat in old.seats:
        if seat.token_hash is None:
            rows.append(SeatRow(table_id=table_id, seat=seat.seat, bot=seat.bot))
            continue
        token = seat_token(secret_key, table_id, seat.token_hash)
        owner = hash_token(secret_key, token)
        rows.append(SeatRow(table_id=table_id, seat=seat.seat, name=seat.name, token_hash=owner))
    return rows
