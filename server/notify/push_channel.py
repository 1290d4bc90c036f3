"""Web Push as a channel of the outbox: each notice goes to every device of the seat through
``push.PushNotices`` (which the app starts, reading its VAPID keys), on the outbox's
schedule, claims and retries like the other channels."""

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
