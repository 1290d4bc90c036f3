"""Web Push as a channel of the outbox: the app's started ``push.PushNotices`` (its VAPID
keys read) delivers each notice to every device of the seat (``PushNotices.deliver``), and
``subscriptions.addressed`` names the seats that have a device; the outbox schedules, claims
and retries it like every channel."""

from __future__ import annotations

from . import subscriptions
from .channel import Channel, ChannelContext


def channel(context: ChannelContext) -> Channel | None:
    """The push channel, or None when the app runs without push notices: ``deliver`` sends to
    the seat's devices (a notice no device will take, such as one whose time is up, is
    ``gone``), ``addressed`` the seats of playing tables with a device."""
    if context.push is None:
        return None
    return Channel(name="push", deliver=context.push.deliver, addressed=subscriptions.addressed)
