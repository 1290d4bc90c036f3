"""The e-mail channel: a short plain-text mail through the configured SMTP server.

Off unless ``GUILDHALL_SMTP_HOST`` is set. The address is the one the seat's player entered
(``contacts``); it is read at each send and written nowhere else: not in a log line (a
failure logs the table, the seat and the SMTP error's class only), not in the notice.
"""

from __future__ import annotations

import logging
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

import aiosmtplib
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.settings import Settings
from server.store.models import SeatRow, TableRow

from .channel import Channel, ChannelContext
from .notice import Notice, Outcome

log = logging.getLogger(__name__)


def message(notice: Notice, sender: str, to: str) -> EmailMessage:
    """The mail of ``notice`` from ``sender`` to ``to``."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = notice.subject
    mail["Date"] = formatdate(localtime=False)
    mail["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    mail["Auto-Submitted"] = "auto-generated"
    footer = (
        "\n\nYou get this because you asked for e-mail when it is your move at this table. "
        "Open the table with your own seat link to play; you can remove your address there."
    )
    mail.set_content(notice.text + footer)
    return mail


class Email:
    """The channel: one mail per notice to the seat's own address."""

    name = "email"

    def __init__(self, context: ChannelContext) -> None:
        self._sessions = context.sessions
        self._settings: Settings = context.settings

    async def deliver(self, notice: Notice) -> Outcome:
        async with self._sessions() as session:
            to = (
                await session.execute(
                    sa.select(SeatRow.email).where(
                        SeatRow.table_id == notice.table_id, SeatRow.seat == notice.seat
                    )
                )
            ).scalar_one_or_none()
        if not to:
            return "gone"
        settings = self._settings
        try:
            await aiosmtplib.send(
                message(notice, settings.mail_from, to),
                hostname=settings.smtp_host,
                port=settings.smtp_port,
                username=settings.smtp_user or None,
                password=settings.smtp_password or None,
                use_tls=settings.smtp_tls == "tls",
                start_tls=settings.smtp_tls == "starttls",
                timeout=settings.smtp_timeout,
            )
        except aiosmtplib.SMTPRecipientsRefused:
            log.info("e-mail refused", extra={"table_id": notice.table_id, "seat": notice.seat})
            return "gone"
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            log.info(
                "e-mail failed: %s",
                type(exc).__name__,
                extra={"table_id": notice.table_id, "seat": notice.seat},
            )
            return "retry"
        return "sent"

    async def addressed(self, session: AsyncSession) -> set[tuple[str, int]]:
        """Seats of playing tables whose player left an address."""
        query = (
            sa.select(SeatRow.table_id, SeatRow.seat)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(TableRow.status == "playing", SeatRow.email.is_not(None))
        )
        return {(t, s) for t, s in (await session.execute(query)).all()}


def channel(context: ChannelContext) -> Channel | None:
    """The e-mail channel, or None when no SMTP server is configured."""
    if not context.settings.email_on:
        return None
    mail = Email(context)
    return Channel(name=mail.name, deliver=mail.deliver, addressed=mail.addressed)
