"""Where a table's notices go: a seat's e-mail address and the table's webhook URL.

Both are kept beside the table, never in it: no document, summary, record, replay or log line
holds them. An e-mail address is set, read and removed only with its seat's own token; the
webhook URL only with the creator's (seat 0's, as for the clock). Neither changes the table's
version: nobody else's page changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlalchemy as sa

from server.store import queries
from server.store.models import SeatRow, TableRow
from server.tables import ServiceError, TableService
from server.tables import seats as seat_model

from .addresses import Guard

MAX_EMAIL = 254
# An ordinary address: ASCII, one @, a dotted domain; nothing that could end a mail header.
EMAIL = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
)


@dataclass(frozen=True)
class Contacts:
    """What a token may know of its table's notices (``GET …/notifications``)."""

    seat: int
    creator: bool
    email: str | None  # the token's own seat's address
    email_on: bool  # the server can send e-mail (an SMTP host is configured)
    webhook: str | None  # the table's webhook URL: for the creator only, else None


def check_email(address: str) -> str:
    """``address`` trimmed, if it is an ordinary e-mail address. Raises ServiceError('bad_email').

    >>> check_email(" anna@example.org ")
    'anna@example.org'
    """
    address = address.strip()
    if len(address) > MAX_EMAIL or not EMAIL.fullmatch(address):
        raise ServiceError(
            "bad_email", "an e-mail address looks like name@example.org (ASCII, at most 254)"
        )
    return address


class ContactBook:
    """Reads and changes the addresses, each through the seat model's rules."""

    def __init__(self, service: TableService, guard: Guard) -> None:
        self.service = service
        self.guard = guard

    async def read(self, table_id: str, token: str) -> Contacts:
        """The token's view. Raises ServiceError('bad_token', 'unknown_table')."""
        by = await self.service.authenticate(table_id, token)
        async with self.service._sessions() as session:
            email = (
                await session.execute(
                    sa.select(SeatRow.email).where(
                        SeatRow.table_id == table_id, SeatRow.seat == by.seat
                    )
                )
            ).scalar_one_or_none()
            hook = None
            if by.has_creator_rights:  # not while a bot plays seat 0 (docs/seats.md)
                hook = (
                    await session.execute(
                        sa.select(TableRow.webhook_url).where(TableRow.id == table_id)
                    )
                ).scalar_one_or_none()
        return Contacts(
            seat=by.seat,
            creator=by.has_creator_rights,
            email=email,
            email_on=self.service.settings.email_on,
            webhook=hook,
        )

    async def set_email(self, table_id: str, token: str, seat: int, email: str | None) -> Contacts:
        """Set (or with None remove) ``seat``'s address; only its own token may.

        Raises ServiceError: 'bad_token', 'bad_seat', 'not_your_seat', 'email_off',
        'bad_email'.
        """
        by = await self.service.authenticate(table_id, token)
        data = await self.service.get_stored(table_id)
        if not 0 <= seat < len(data.seats):
            raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")
        if by.seat != seat:
            raise ServiceError("not_your_seat", "only a seat's own player sets its e-mail", 403)
        if email is not None:
            if not self.service.settings.email_on:
                raise ServiceError("email_off", "this server sends no e-mail", 409)
            email = check_email(email)
        async with self.service.cache.sqlite_lock(), self.service._sessions() as session:
            await queries.update_seat(session, table_id, seat, email=email)
            await session.commit()
        return await self.read(table_id, token)

    async def set_webhook(self, table_id: str, token: str, url: str | None) -> Contacts:
        """Set (or with None remove) the table's webhook URL; only the creator may.

        Raises ServiceError: 'bad_token', 'not_creator', 'seat_lost', 'bad_webhook',
        'private_webhook'.
        """
        seat_model.check_creator(await self.service.authenticate(table_id, token), playing=True)
        if url is not None:
            url = await self.guard.check(url.strip())
        async with self.service.cache.sqlite_lock(), self.service._sessions() as session:
            await session.execute(
                sa.update(TableRow).where(TableRow.id == table_id).values(webhook_url=url)
            )
            await session.commit()
        return await self.read(table_id, token)
