"""The e-mail channel: a short plain-text mail through the configured SMTP server.

Off unless ``GUILDHALL_SMTP_HOST`` is set. The address is the one the seat's player entered
(``contacts``) and confirmed through the link mailed to it: an address nobody confirmed gets
the link once and nothing else. It is read at each send and written nowhere else: not in a
log line (a failure logs the table, the seat and the SMTP error's class only), not in the
notice. Every mail, link or notice, takes one from the address's hourly budget
(``server.notify.budget``); a notice to an address whose budget is spent is not sent.
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

from . import budget
from .channel import Channel, ChannelContext
from .notice import Notice, Outcome

log = logging.getLogger(__name__)


def _mail(sender: str, to: str, subject: str, text: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = formatdate(localtime=False)
    mail["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    mail["Auto-Submitted"] = "auto-generated"
    mail.set_content(text)
    return mail


def message(notice: Notice, sender: str, to: str) -> EmailMessage:
    """The mail of ``notice`` from ``sender`` to ``to``."""
    footer = (
        "\n\nYou get this because you asked for e-mail when it is your move at this table. "
        "Open the table with your own seat link to play; you can remove your address there."
    )
    return _mail(sender, to, notice.subject, notice.text + footer)


def confirmation(table_name: str, link: str, hours: int, sender: str, to: str) -> EmailMessage:
    """The mail that asks ``to`` to confirm it wants the notices of ``table_name``.

    It says nothing a stranger typed (no player's name): whoever typed the address may not
    own it, and the mail must not carry their words to its owner.
    """
    text = (
        f"Someone playing at {table_name} asked for an e-mail to this address whenever it is "
        "their move there.\n\n"
        f"If that was you, confirm the address within {hours} hours:\n{link}\n\n"
        "If it was not you, ignore this mail: without a confirmation no more mail goes to "
        "you from this table."
    )
    return _mail(sender, to, f"Confirm your e-mail for {table_name}", text)


async def send(settings: Settings, mail: EmailMessage) -> None:
    """Send ``mail`` through the configured SMTP server. Raises aiosmtplib's errors,
    OSError or TimeoutError."""
    await aiosmtplib.send(
        mail,
        hostname=settings.smtp_host,
        port=settings.smtp_port,
        username=settings.smtp_user or None,
        password=settings.smtp_password or None,
        use_tls=settings.smtp_tls == "tls",
        start_tls=settings.smtp_tls == "starttls",
        timeout=settings.smtp_timeout,
    )


class Email:
    """The channel: one mail per notice to the seat's own address."""

    name = "email"

    def __init__(self, context: ChannelContext) -> None:
        self._sessions = context.sessions
        self._settings: Settings = context.settings
        self._now = context.now

    async def deliver(self, notice: Notice) -> Outcome:
        settings = self._settings
        async with self._sessions() as session:
            to = (
                await session.execute(
                    sa.select(SeatRow.email).where(
                        SeatRow.table_id == notice.table_id,
                        SeatRow.seat == notice.seat,
                        SeatRow.email_confirmed_at.is_not(None),
                    )
                )
            ).scalar_one_or_none()
            if not to:
                return "gone"
            wait = await budget.spend(
                session, settings.secret_key, to, settings.mail_per_hour, self._now()
            )
            await session.commit()
        if wait is not None:
            log.info(
                "e-mail budget spent", extra={"table_id": notice.table_id, "seat": notice.seat}
            )
            return "gone"
        try:
            await send(settings, message(notice, settings.mail_from, to))
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
        """Seats of playing tables whose player left an address and confirmed it."""
        query = (
            sa.select(SeatRow.table_id, SeatRow.seat)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(
                TableRow.status == "playing",
                SeatRow.email.is_not(None),
                SeatRow.email_confirmed_at.is_not(None),
            )
        )
        return {(t, s) for t, s in (await session.execute(query)).all()}


def channel(context: ChannelContext) -> Channel | None:
    """The e-mail channel, or None when no SMTP server is configured."""
    if not context.settings.email_on:
        return None
    mail = Email(context)
    return Channel(name=mail.name, deliver=mail.deliver, addressed=mail.addressed)
