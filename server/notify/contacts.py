"""Where a table's notices go: a seat's e-mail address and the table's webhook URL.

Both are kept beside the table, never in it: no document, summary, record, replay or log line
holds them. An e-mail address is set, read and removed only with its seat's own token; the
webhook URL only with the creator's (seat 0's, as for the clock). Neither changes the table's
version: nobody else's page changes.

An e-mail address is anyone's that a seat holder types, so it gets one mail, a link to
confirm it (valid ``CONFIRM_HOURS``, once; the database keeps only the token's SHA-256), and
no notice until its owner has opened the link and confirmed. A seat has ``MAX_LINKS`` links
mailed at most, whatever addresses it types; every mail takes one from the address's hourly
budget (``server.notify.budget``).
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from dataclasses import dataclass

import aiosmtplib
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.engine import get_game
from server.store import queries
from server.store.models import SeatRow, TableRow
from server.store.sessions import SessionSource
from server.tables import ServiceError, TableService
from server.tables import seats as seat_model

from . import budget, mail
from .addresses import Guard
from .notice import table_name

log = logging.getLogger(__name__)

MAX_EMAIL = 254
CONFIRM_HOURS = 24  # how long a confirmation link works
MAX_LINKS = 5  # confirmation links one seat may have mailed, whatever addresses it typed
MAX_TOKEN = 64  # longer than any token we make: refused before it is hashed
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
    email_confirmed: bool = False  # its owner opened the link and confirmed the address
    email_links_left: int = MAX_LINKS  # confirmation links the seat may still have mailed


@dataclass(frozen=True)
class Confirmation:
    """A confirmation link's seat, and the table's name as the mail said it."""

    table_id: str
    seat: int
    table_name: str
    email: str


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

    def __init__(self, service: TableService, guard: Guard, sessions: SessionSource) -> None:
        """``sessions``: the table service's session source (its SQLite writer lock)."""
        self.service = service
        self.sessions = sessions
        self.guard = guard

    async def read(self, table_id: str, token: str) -> Contacts:
        """The token's view. Raises ServiceError('bad_token', 'unknown_table')."""
        by = await self.service.authenticate(table_id, token)
        async with self.sessions.read() as session:
            row = (
                await session.execute(
                    sa.select(SeatRow.email, SeatRow.email_confirmed_at, SeatRow.email_links).where(
                        SeatRow.table_id == table_id, SeatRow.seat == by.seat
                    )
                )
            ).one_or_none()
            hook = None
            if by.has_creator_rights:  # not while a bot plays seat 0 (docs/seats.md)
                hook = (
                    await session.execute(
                        sa.select(TableRow.webhook_url).where(TableRow.id == table_id)
                    )
                ).scalar_one_or_none()
        email, confirmed_at, links = row if row is not None else (None, None, 0)
        return Contacts(
            seat=by.seat,
            creator=by.has_creator_rights,
            email=email,
            email_on=self.service.settings.email_on,
            webhook=hook,
            email_confirmed=email is not None and confirmed_at is not None,
            email_links_left=max(0, MAX_LINKS - (links or 0)),
        )

    async def set_email(self, table_id: str, token: str, seat: int, email: str | None) -> Contacts:
        """Set (or with None remove) ``seat``'s address; only its own token may. A new
        address, or the same one still waiting, is mailed a confirmation link; the same
        address once confirmed stays confirmed and is mailed nothing.

        Raises ServiceError: 'bad_token', 'bad_seat', 'not_your_seat', 'email_off',
        'bad_email', 'too_many_links' and 'mail_budget' (429, nothing changed),
        'email_not_sent' (503: the address is kept, waiting; the link may be sent again).
        """
        by = await self.service.authenticate(table_id, token)
        data = await self.service.get_stored(table_id)
        if not 0 <= seat < len(data.seats):
            raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")
        if by.seat != seat:
            raise ServiceError("not_your_seat", "only a seat's own player sets its e-mail")
        if email is None:
            await self._remove_email(table_id, seat)
            return await self.read(table_id, token)
        if not self.service.settings.email_on:
            raise ServiceError("email_off", "this server sends no e-mail")
        email = check_email(email)
        link = await self._ask(table_id, seat, email)
        if link is not None:
            await self._mail_link(table_name(get_game(data.game).title, table_id), link, email)
        return await self.read(table_id, token)

    async def _remove_email(self, table_id: str, seat: int) -> None:
        """The seat's address gone, and its link with it (the links it had stay counted)."""
        async with self.sessions.write() as session:
            await queries.update_seat(
                session, table_id, seat, email=None, email_confirmed_at=None,
                email_token_hash=None, email_token_until=None,
            )  # fmt: skip
            await session.commit()

    async def _ask(self, table_id: str, seat: int, email: str) -> str | None:
        """Store ``email`` on the seat, waiting, with a new link's token, and take the link
        from the seat's links and the mail from the address's budget, all in one
        transaction; the link to mail, or None when the address is already confirmed."""
        settings, now = self.service.settings, self.service.now()
        of_seat = (SeatRow.table_id == table_id) & (SeatRow.seat == seat)
        async with self.sessions.write() as session:
            current = (
                await session.execute(
                    sa.select(SeatRow.email, SeatRow.email_confirmed_at).where(of_seat)
                )
            ).one()
            # The same mailbox, however its name is capitalised (as the budget counts it).
            same = (current.email or "").lower() == email.lower()
            if same and current.email_confirmed_at is not None:
                return None
            took = await session.execute(
                sa.update(SeatRow)
                .where(of_seat, SeatRow.email_links < MAX_LINKS)
                .values(email_links=SeatRow.email_links + 1)
            )
            if getattr(took, "rowcount", 0) != 1:
                raise ServiceError(
                    "too_many_links",
                    f"this seat has had {MAX_LINKS} confirmation links mailed; "
                    "no more are sent from it",
                )
            wait = await budget.spend(
                session, settings.secret_key, email, settings.mail_per_hour, now
            )
            if wait is not None:
                await session.rollback()
                raise ServiceError(
                    "mail_budget",
                    f"this address has had its {settings.mail_per_hour} e-mails this hour; "
                    f"try again in {int(wait // 60) + 1} min",
                )
            token = secrets.token_urlsafe(32)
            await session.execute(
                sa.update(SeatRow).where(of_seat).values(
                    email=email, email_confirmed_at=None, email_token_hash=token_key(token),
                    email_token_until=now + CONFIRM_HOURS * 3600,
                )
            )  # fmt: skip
            await session.commit()
        return f"{settings.public_url}/email/confirm/{token}"

    async def _mail_link(self, table: str, link: str, email: str) -> None:
        settings = self.service.settings
        try:
            await mail.send(
                settings,
                mail.confirmation(table, link, CONFIRM_HOURS, settings.mail_from, email),
            )
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            log.info("confirmation e-mail failed: %s", type(exc).__name__)
            raise ServiceError(
                "email_not_sent",
                "the mail server did not take the confirmation mail; the address waits, "
                "send the link again later",
            ) from None

    async def pending(self, token: str) -> Confirmation:
        """The seat a confirmation link is for, while it works; changes nothing.

        Raises ServiceError: 'unknown_link' (404: never made, used, replaced or removed),
        'link_expired' (410).
        """
        async with self.sessions.read() as session:
            return await self._find(session, token)

    async def confirm(self, token: str) -> Confirmation:
        """Confirm the address of the link's seat: notices go to it from now on, and the
        link works no more. Raises ServiceError as ``pending``."""
        async with self.sessions.write() as session:
            found = await self._find(session, token)
            done = await session.execute(
                sa.update(SeatRow)
                .where(SeatRow.email_token_hash == token_key(token))
                .values(
                    email_confirmed_at=self.service.now(),
                    email_token_hash=None,
                    email_token_until=None,
                )
            )
            if getattr(done, "rowcount", 0) != 1:  # confirmed at the same moment elsewhere
                raise _unknown_link()
            await session.commit()
        return found

    async def _find(self, session: AsyncSession, token: str) -> Confirmation:
        if not 0 < len(token) <= MAX_TOKEN:
            raise _unknown_link()
        row = (
            await session.execute(
                sa.select(
                    SeatRow.table_id, SeatRow.seat, SeatRow.email, SeatRow.email_token_until
                ).where(SeatRow.email_token_hash == token_key(token))
            )
        ).one_or_none()
        if row is None or row.email is None:
            raise _unknown_link()
        if (row.email_token_until or 0) < self.service.now():
            raise ServiceError(
                "link_expired",
                f"this link worked for {CONFIRM_HOURS} hours; type the address again at the "
                "table to have a new one sent",
            )
        data = await self.service.get_stored(row.table_id)
        name = table_name(get_game(data.game).title, row.table_id)
        return Confirmation(row.table_id, row.seat, name, row.email)

    async def set_webhook(self, table_id: str, token: str, url: str | None) -> Contacts:
        """Set (or with None remove) the table's webhook URL; only the creator may.

        Raises ServiceError: 'bad_token', 'not_creator', 'seat_lost', 'bad_webhook',
        'private_webhook'.
        """
        seat_model.check_creator(await self.service.authenticate(table_id, token), playing=True)
        if url is not None:
            url = await self.guard.check(url.strip())
        async with self.sessions.write() as session:
            await session.execute(
                sa.update(TableRow).where(TableRow.id == table_id).values(webhook_url=url)
            )
            await session.commit()
        return await self.read(table_id, token)


def token_key(token: str) -> str:
    """What the database keeps of a confirmation link's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _unknown_link() -> ServiceError:
    return ServiceError("unknown_link", "this confirmation link is not (or no longer) one of ours")
