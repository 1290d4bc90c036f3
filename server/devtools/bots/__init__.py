"""Bots against bots: tournaments (``tournament``), their statistics (``stats``) and the bots'
section of ``make bench`` (``bench``)."""
