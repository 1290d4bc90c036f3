"""Notices to players away from their table ("your move"): the outbox (``outbox``: what is
owed, claimed and retried from the database), what a notice says (``notice``), the channel
contract (``channel``) and the channels: Web Push (``push``, with its subscriptions,
``subscriptions``, and VAPID keys, ``vapid``), the webhook (``webhook``) and e-mail (``mail``);
a seat's and a table's addresses (``contacts``). ``docs/notifications.md`` tells the whole
story."""
