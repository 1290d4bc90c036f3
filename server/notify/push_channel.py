"""Web Push as a channel of the outbox: each notice goes to every device of the seat through
``push.PushNotices`` (which the app starts, reading its VAPID keys), on the outbox's
schedule, claims and retries like the other channels."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import PushSubscriptionRow, TableRow

from .channel import Channel, ChannelContext
from .notice import Notice, Outcome
from .push import PushNotices, YourMove


def channel(context: ChannelContext) -> Channel | None:
    """The push channel, or None when the app runs without push notices."""
    if context.push is None:
        return None
    pushes: PushNotices = context.push

    async def deliver(notice: Notice) -> Outcome:
        move = YourMove(
            table_id=notice.table_id,
            table_name=notice.table_name,
            seat=notice.seat,
            seat_name=notice.seat_name,
            seconds_left=notice.seconds_left,
            reminder=notice.kind == "reminder",
        )
        outcome = await pushes.notify(move)
        # "failed": the decision's time is up, so the notice is stale: never worth a retry.
        return "gone" if outcome == "failed" else outcome

    async def addressed(session: AsyncSession) -> set[tuple[str, int]]:
        """Seats of playing tables with at least one device."""
        query = (
            sa.select(PushSubscriptionRow.table_id, PushSubscriptionRow.seat)
            .join(TableRow, TableRow.id == PushSubscriptionRow.table_id)
            .where(TableRow.status == "playing")
            .distinct()
        )
        return {(t, s) for t, s in (await session.execute(query)).all()}

    return Channel(name="push", deliver=deliver, addressed=addressed)
