"""Each e-mail address's hourly budget of mails, all tables and processes together.

Anyone with a seat may type anyone's address, and anyone may make tables, so the number of
mails one address gets is bounded where it is sent from, not per table: at most
GUILDHALL_MAIL_PER_HOUR mails an address per clock hour, confirmation links and notices
alike. The count is a row per address and hour in the database (``mail_budget``), taken
with one conditional UPDATE, so two processes never both take the last mail of an hour. The
address itself is not stored there: a keyed hash of its mailbox (``mailbox``), so the budget
is one for every spelling that reaches the same inbox.
"""

from __future__ import annotations

import hmac

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import MailBudgetRow

HOUR = 3600
# Gmail delivers a.n.n.a@ and anna@ alike, and googlemail.com is gmail.com.
DOTLESS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


def mailbox(address: str) -> str:
    """The inbox ``address`` reaches, as far as the common providers tell: lower case,
    without a ``+tag`` (sub-addressing: Gmail, Outlook, Fastmail, iCloud … deliver
    ``anna+1@`` to ``anna@``), and at Gmail without dots. Otherwise a stranger could give one
    victim a fresh budget per spelling.

    >>> mailbox("Anna+Guildhall@Example.org"), mailbox("a.n.n.a+1@GoogleMail.com")
    ('anna@example.org', 'anna@gmail.com')
    """
    local, _, domain = address.lower().rpartition("@")
    local = local.split("+", 1)[0]
    if domain in DOTLESS:
        local, domain = local.replace(".", ""), DOTLESS[domain]
    return f"{local}@{domain}"


def address_key(secret_key: str, address: str) -> str:
    """The keyed hash that stands for ``address``'s mailbox in the budget."""
    key = b"mail-budget\0" + mailbox(address).encode()
    return hmac.new(secret_key.encode(), key, "sha256").hexdigest()


async def spend(
    session: AsyncSession, secret_key: str, address: str, per_hour: int, now: float
) -> float | None:
    """Take one mail of ``address``'s budget for the hour of ``now``, in the session's
    transaction (the caller commits; a rollback gives it back). None if it was taken, else
    the seconds until the next hour, when the budget is whole again."""
    key, hour = address_key(secret_key, address), int(now // HOUR)
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    await session.execute(
        dialect.insert(MailBudgetRow)
        .values(address_key=key, hour=hour, sent=0)
        .on_conflict_do_nothing(index_elements=["address_key", "hour"])
    )
    taken = await session.execute(
        sa.update(MailBudgetRow)
        .where(
            MailBudgetRow.address_key == key,
            MailBudgetRow.hour == hour,
            MailBudgetRow.sent < per_hour,
        )
        .values(sent=MailBudgetRow.sent + 1)
    )
    # This address's hours gone by count no more. Only its own rows: they are taken one
    # transaction at a time (the UPDATE above locks this hour's), where deleting every
    # address's old rows could lock them in two orders in two transactions (a deadlock).
    await session.execute(
        sa.delete(MailBudgetRow).where(
            MailBudgetRow.address_key == key, MailBudgetRow.hour < hour - 1
        )
    )
    if getattr(taken, "rowcount", 0) == 1:
        return None
    return (hour + 1) * HOUR - now
