"""Post-game analysis: win chances after every step and the cost of each person's decisions.

``compute`` is pure (a record in, figures out; one position at a time so that a background
job can store and resume them); ``job`` runs it in the background of an app process.
Ranked above the bots (it plays out positions with their policy) and below the tables.
"""

from __future__ import annotations

from .compute import DEFAULT_PARAMS, Params, analyse, analyse_step, replay_record, summarise

__all__ = ["DEFAULT_PARAMS", "Params", "analyse", "analyse_step", "replay_record", "summarise"]
