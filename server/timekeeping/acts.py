"""What people do to a table's clock, as versioned table changes (docs/clocks.md): propose,
agree to, decline and end a pause; set "away until"; nudge a silent seat and vote to hand it
to a bot (untimed tables); the creator's added time lives in ``keeper.add_time``.

Each act is authorised by the seat token of a person at the table (the seat model's
``check_person``, checked again on the version the act is stored on), computed by the pure
``model`` and ``votes`` functions, logged in the table's seat log (public: it holds nothing a
seat hides) and stored through ``TableService.change_clock``: one compare-and-set on the table
version, so of two processes deciding at once one stores and the other decides again on the
new version.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from server.clocks import model, votes
from server.tables import seats as seat_model
from server.tables.data import ServiceError, TableData
from server.tables.service import TableService

log = logging.getLogger(__name__)

# A clock act's change: (table, clock, acting seat, now) -> (new clock, seat log entries,
# seats handed to a bot with it).
Act = Callable[
    [TableData, model.Clock, int, float],
    tuple[model.Clock, list[dict[str, Any]], dict[int, str]],
]
# Told of each stored nudge: (table as stored, nudged seat, nudging seat).
NudgeListener = Callable[[TableData, int, int], Awaitable[None] | None]


class ClockActs:
    """The table acts of ``service``'s tables (one per app, beside the clock keeper)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.settings = service.settings
        self.on_nudge: list[NudgeListener] = []

    # ---------------------------------------------------------------- pause

    async def propose_pause(self, table_id: str, token: str, until: float | None) -> TableData:
        """Propose a pause (resuming at ``until``, seconds since the epoch, if given).

        Raises ServiceError: 'bad_token', 'seat_lost', 'not_started', 'finished', 'paused',
        'proposal_open', 'bad_time'.
        """

        def act(data: TableData, clock: model.Clock, seat: int, now: float) -> _Change:
            people = seat_model.people(data)
            new, paused = votes.propose_pause(clock, seat, until, now, people)
            entries = [_entry(data, "pause_proposed", seat, until=until)]
            return new, entries + ([_paused(until)] if paused else []), {}

        return await self._act(table_id, token, act)

    async def agree_pause(self, table_id: str, token: str, proposal: int) -> TableData:
        """Agree to proposal number ``proposal``; the last person to agree pauses the table.

        Raises ServiceError: 'bad_token', 'seat_lost', 'not_started', 'finished',
        'no_proposal', 'bad_time'.
        """

        def act(data: TableData, clock: model.Clock, seat: int, now: float) -> _Change:
            people = seat_model.people(data)
            new, paused = votes.agree_pause(clock, seat, proposal, now, people)
            until = clock["proposal"]["until"]
            entries = [_entry(data, "pause_agreed", seat)]
            return new, entries + ([_paused(until)] if paused else []), {}

        return await self._act(table_id, token, act)

    async def decline_pause(self, table_id: str, token: str, proposal: int) -> TableData:
        """Decline proposal number ``proposal`` (its proposer: withdraw it); it ends.

        Raises ServiceError: 'bad_token', 'seat_lost', 'not_started', 'finished',
        'no_proposal'.
        """

        def act(data: TableData, clock: model.Clock, seat: int, now: float) -> _Change:
            new, dropped = votes.drop_proposal(clock, proposal)
            kind = "pause_withdrawn" if dropped["by"] == seat else "pause_declined"
            return new, [_entry(data, kind, seat)], {}

        return await self._act(table_id, token, act)

    async def resume(self, table_id: str, token: str) -> TableData:
        """End the pause now: any one person at the table may (resuming only restores play).

        Raises ServiceError: 'bad_token', 'seat_lost', 'not_started', 'finished',
        'not_paused'.
        """

        def act(data: TableData, clock: model.Clock, seat: int, now: float) -> _Change:
            return model.resume(clock, now), [_entry(data, "resumed", seat)], {}

        return await self._act(table_id, token, act)

    # ---------------------------------------------------------------- away

    async def set_away(
        self, table_id: str, token: str, seat: int, until: float | None
    ) -> TableData:
        """Show ``seat`` as away until ``until`` (None: back); its own token, over-days tables.

        Raises ServiceError: 'bad_token', 'bad_seat', 'not_your_seat', 'seat_lost',
        'not_started', 'finished', 'not_days', 'bad_time'.
        """

        def act(data: TableData, clock: model.Clock, by: int, now: float) -> _Change:
            _check_seat(data, seat)
            if by != seat:
                raise ServiceError("not_your_seat", "only a seat's own player sets it away")
            new = model.set_away(clock, seat, until, now)
            kind = "away_set" if until is not None else "away_cleared"
            return new, [_entry(data, kind, seat, until=until)], {}

        return await self._act(table_id, token, act)

    # ---------------------------------------------------------------- untimed tables

    async def nudge(self, table_id: str, token: str, seat: int) -> TableData:
        """Remind ``seat``'s player that the table waits for them; logged, and told to the
        ``on_nudge`` listeners. Raises ServiceError: 'bad_token', 'bad_seat', 'seat_lost',
        'not_started', 'finished', 'timed', 'paused', 'own_seat', 'not_to_act', 'too_soon'.
        """
        nudger: dict[str, int] = {}

        def act(data: TableData, clock: model.Clock, by: int, now: float) -> _Change:
            _check_seat(data, seat)
            people = seat_model.people(data)
            after, every = self.settings.nudge_after, self.settings.nudge_every
            new = votes.nudge(clock, seat, by, now, people, after, every)
            nudger["seat"] = by
            return new, [_entry(data, "nudged", seat, by=by)], {}

        data = await self._act(table_id, token, act)
        for listener in list(self.on_nudge):
            try:
                told = listener(data, seat, nudger["seat"])
                if inspect.isawaitable(told):
                    await told
            except Exception:  # the nudge is stored; a failing notice must not undo it
                log.exception("nudge listener failed on table %s seat %s", table_id, seat)
        return data

    async def vote_hand_over(self, table_id: str, token: str, seat: int) -> TableData:
        """Vote to hand ``seat``, silent for ``vote_after`` seconds, to a bot; the vote that
        makes a majority of the other people hands it to the cover bot as a stand-in (its
        player takes it back with "take my seat back"). Raises ServiceError: 'bad_token',
        'bad_seat', 'seat_lost', 'not_started', 'finished', 'timed', 'paused', 'own_seat',
        'not_to_act', 'too_soon', 'already_voted'.
        """

        def act(data: TableData, clock: model.Clock, by: int, now: float) -> _Change:
            _check_seat(data, seat)
            people = seat_model.people(data)
            after = self.settings.vote_after
            new, hand_over = votes.vote_hand_over(clock, seat, by, now, people, after)
            entries = [_entry(data, "bot_vote", seat, by=by)]
            if not hand_over:
                return new, entries, {}
            kind = self.settings.clock_bot
            entries.append({**_entry(data, "vote_handover", seat), "bot": kind})
            return new, entries, {seat: kind}

        return await self._act(table_id, token, act)

    # ---------------------------------------------------------------- storing

    async def _act(self, table_id: str, token: str, act: Act) -> TableData:
        by = await self.service.authenticate(table_id, token)
        token_hash = self.service.token_hash(token)
        now = self.service.now()

        def change(data: TableData, clock: model.Clock) -> tuple[model.Clock, dict[str, Any]]:
            seat_model.check_person(data, by.seat, token_hash)
            try:
                new, entries, handed = act(data, clock, by.seat, now)
            except model.ClockError as exc:
                raise ServiceError(exc.code, exc.message) from None
            placed = [{**entry, "at": len(data.log)} for entry in entries]
            return new, {"seat_log": [*data.seat_log, *placed], "stand_ins": handed}

        return await self.service.change_clock(table_id, change, actor=by.seat)


_Change = tuple[model.Clock, list[dict[str, Any]], dict[int, str]]


def _check_seat(data: TableData, seat: int) -> None:
    if not 0 <= seat < len(data.seats):
        raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")


def _entry(data: TableData, kind: str, seat: int, **more: Any) -> dict[str, Any]:
    """A seat log entry about ``seat`` (``by``: the seat that acted on it, named too)."""
    entry = {"type": kind, "seat": seat, "name": data.seats[seat].name, "bot": None, **more}
    if "by" in more:
        entry["by_name"] = data.seats[more["by"]].name
    return entry


def _paused(until: float | None) -> dict[str, Any]:
    """The entry of the moment every person agreed: the table pauses."""
    return {"type": "paused", "seat": None, "name": None, "bot": None, "until": until}
