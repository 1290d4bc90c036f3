"""Notices to players away from their table ("your move"): Web Push (``push``), its
subscriptions (``subscriptions``) and VAPID keys (``vapid``)."""
