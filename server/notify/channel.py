"""What a channel is: a name, ``deliver(notice) -> "sent" | "retry" | "gone"``, and which
seats it has an address for. ``server.notify.outbox.CHANNELS`` lists the channels there are.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.settings import Settings

from .notice import Deliver

if TYPE_CHECKING:
    from .addresses import Guard
    from .push import PushNotices

# (table id, seat) pairs of playing tables that a channel has somewhere to send to.
Addressed = Callable[[AsyncSession], Awaitable[set[tuple[str, int]]]]


@dataclass(frozen=True)
class Channel:
    """One way a notice reaches a player.

    - ``deliver(notice)``: send it; return ``"sent"``, ``"retry"`` (a failure worth trying
      again later: a timeout, a 5xx, a refused connection) or ``"gone"`` (it can never be
      delivered there: no address any more, the receiver said 404/410). An exception counts
      as ``"retry"``. It must not take longer than the channel's own timeout.
    - ``addressed(session)``: the (table id, seat) pairs it has an address for, among
      playing tables; the outbox owes notices only to those seats.
    """

    name: str
    deliver: Deliver
    addressed: Addressed


@dataclass(frozen=True)
class ChannelContext:
    """What a channel factory gets: the settings, the database, the webhook guard (the
    address check any channel sending to a URL a stranger typed should use), the app's
    started Web Push sender (None: no push) and the clock (the service's: tests move it)."""

    settings: Settings
    sessions: async_sessionmaker[AsyncSession]
    guard: Guard
    push: PushNotices | None = None
    now: Callable[[], float] = time.time


# A factory returns None when its channel is not configured (e-mail without an SMTP host).
ChannelFactory = Callable[[ChannelContext], Channel | None]
