"""The clock keeper: fires what the turn clocks say is due, in whichever process sees it first.

Deadlines live in the database (``tables.clock`` and the indexed ``tables.due_at``, written
with every change), never only here. Each process arms one timer for the soonest ``due_at``
it knows of, re-arms it on every change it announces or hears of through the fan-out, and
sweeps the database at start-up and every ``clock_sweep`` seconds for what another process
changed. Whatever fires goes through a compare-and-set on the table version: of two
processes firing one deadline, one stores the bot's move and the other's write matches no
row; a command of the player that was stored a moment before the deadline makes both do
nothing.

A timeout (``model.timed_out``) is covered: the cover bot plays that one decision from the
seat's own view through ``TableService.submit``, and the seat log says "time ran out". The
timeout that makes ``model.HANDOVER_AFTER`` in a row instead hands the seat to a stand-in
bot (the seat model's, ``docs/seats.md``) until its player takes it back.

A decision is made once: when the table moved on while the bot thought (most often a
person's hidden planning step, in simultaneous planning), the firing looks at the table
again, and a seat still asked the same question (the same decision, the same view) plays
what its bot chose, claimed by the new version, instead of thinking again.

A bot command the game refuses is replaced by the seat's first legal command. When even
that is refused, or the seat has none, the seat is left alone for a while
(``model.stall``), so that a table never stays due at every sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.clocks import model
from server.engine import Command, RuleError, State, get_game
from server.store import queries
from server.store.sessions import SessionSource
from server.tables import clock as table_clock
from server.tables import seats as seat_model
from server.tables.bots import BotRunner
from server.tables.data import ServiceError, TableData
from server.tables.service import TableService

from . import downtime

log = logging.getLogger(__name__)

# How long a timer may sleep before it looks again anyway (a clock set back, a lost notice).
LONGEST_SLEEP = 30.0
MIN_GAP = 0.2  # seconds between the starts of two sweeps at the least
# Seconds another process waits past a table's due moment before it fires it itself: the
# process that stored the table's last change fires it on time, so two seldom both think.
HEAD_START = 1.0


@dataclass(frozen=True)
class Decided:
    """What a seat's bot chose during one firing, and the question it answered: the bot's
    kind, when the seat's decision began (``since`` in the clock) and the state it saw."""

    kind: str
    since: float | None
    state: State
    cmd: Command


class ClockKeeper:
    """Fires due clocks of every table, from this process."""

    def __init__(
        self,
        service: TableService,
        sessions: SessionSource,
        bots: BotRunner | None = None,
        decide: Callable[..., Any] | None = None,
    ) -> None:
        self.service = service
        self.sessions = sessions  # the table service's, with its SQLite writer lock
        self.bots = bots  # whose thinking budget the keeper's bots share
        self.settings = service.settings
        self._decide = decide
        self._soonest: float | None = None  # the soonest due_at this process knows of
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._firing: set[str] = set()
        self._fire_tasks: set[asyncio.Task[None]] = set()
        self._known: dict[str, float] = {}  # tables this process changed: their due_at
        self._notice = False
        self.fired = 0  # timeouts this process fired (covered decisions and hand-overs)
        self.bot_moves = 0  # bot moves this process stored
        self.decisions = 0  # bot decisions this process asked for (reused ones not counted)
        service.on_change.append(self.changed)

    # ---------------------------------------------------------------- arming

    def changed(self, data: TableData) -> None:
        """A change this process stored: arm the timer for the table's next due moment."""
        if data.status != "playing" or data.due_at is None:
            self._known.pop(data.id, None)
            return
        self._known[data.id] = data.due_at
        self._wake.set()

    def heard(self, table_id: str, version: int) -> None:
        """A fan-out notice: unless this process holds that version already (its own change,
        which ``changed`` arms), another process changed the table: sweep soon."""
        if self.service.at_version(table_id, version) is not None:
            return
        self._notice = True
        self._wake.set()

    async def start(self) -> None:
        """The downtime extension, a first sweep, then the timer."""
        await self.extend_after_downtime()
        await self.sweep()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in list(self._fire_tasks):
            task.cancel()
        await asyncio.gather(*self._fire_tasks, return_exceptions=True)

    def _next_wake(self, now: float, next_sweep: float, notice_sweep: float) -> float:
        """Seconds until the timer must look again: the soonest of this process's own
        tables, the soonest other table (after the head start), the next sweep."""
        # A table being fired is looked at again when its firing ends (``fire`` wakes us).
        times = [next_sweep, *(d for t, d in self._known.items() if t not in self._firing)]
        if self._notice:
            times.append(notice_sweep)
        if self._soonest is not None:
            times.append(self._soonest + HEAD_START)
        return max(0.0, min(times) - now)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last_sweep = loop.time()
        while True:
            now = self.service.now()
            next_sweep = now + max(0.0, last_sweep + self.settings.clock_sweep - loop.time())
            notice_sweep = now + max(0.0, last_sweep + MIN_GAP - loop.time())
            self._wake.clear()
            wait = min(self._next_wake(now, next_sweep, notice_sweep), LONGEST_SLEEP)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            now = self.service.now()
            for table_id, due in list(self._known.items()):
                if due <= now and table_id not in self._firing:
                    del self._known[table_id]
                    self._spawn(table_id)
            sweep_due = loop.time() - last_sweep >= self.settings.clock_sweep
            other_due = self._soonest is not None and self._soonest + HEAD_START <= now
            # Notices can come by the hundred a second under load: one sweep per MIN_GAP.
            if (sweep_due or other_due or self._notice) and loop.time() - last_sweep >= MIN_GAP:
                self._notice = False
                last_sweep = loop.time()
                try:
                    await self.sweep(wait=False)
                except Exception:
                    log.exception("clock sweep failed")

    def _spawn(self, table_id: str) -> asyncio.Task[None] | None:
        if table_id in self._firing:
            return None
        task = asyncio.get_running_loop().create_task(self._fire_logged(table_id))
        self._fire_tasks.add(task)
        task.add_done_callback(self._fire_tasks.discard)
        return task

    async def _fire_logged(self, table_id: str) -> None:
        try:
            await self.fire(table_id)
        except Exception:
            log.exception("clock of table %s failed to fire", table_id)

    # ---------------------------------------------------------------- sweeping

    async def sweep(self, wait: bool = True) -> int:
        """Fire every table due by now; returns how many were fired. Notes the moment in the
        beat row, and re-arms for the soonest deadline still ahead.

        A table this process did not change itself is fired ``HEAD_START`` seconds late:
        the process that stored its last change fires it on time, unless it is gone.
        ``wait``: return once every table fired (else the firing goes on in tasks).
        """
        now = self.service.now()
        async with self.sessions.read() as session:
            due = await queries.due_tables(session, now)
            await queries.beat(session, now)
            await session.commit()
            self._soonest = await queries.next_due(session, now)
        tasks = []
        for table_id, due_at in due:
            if table_id in self._firing:
                continue  # its firing looks at the table again before it ends
            if table_id in self._known or due_at <= now - HEAD_START:
                self._known.pop(table_id, None)
                task = self._spawn(table_id)
                if task is not None:
                    tasks.append(task)
        if wait:
            await asyncio.gather(*tasks)
        return len(tasks)

    async def fire(self, table_id: str) -> None:
        """Do what ``table_id``'s clock says is due now (nothing if it is not)."""
        if table_id in self._firing:
            return
        self._firing.add(table_id)
        # Bot decisions of this firing by seat, kept while their command is not stored.
        decided: dict[int, Decided] = {}
        try:
            # A covered planning decision can take several steps; each is due at once.
            for _ in range(64):
                data = await self.service.get_stored(table_id)
                if not await self._fire_once(data, decided):
                    return
        finally:
            self._firing.discard(table_id)
            self._wake.set()  # a change made meanwhile may be due: the timer looks again

    async def _fire_once(self, data: TableData, decided: dict[int, Decided] | None = None) -> bool:
        """One look at ``data``: what is due is done (True: look again). ``decided``: the bot
        decisions of this firing whose command was not stored yet."""
        decided = {} if decided is None else decided
        now = self.service.now()
        if data.status != "playing" or data.clock is None or data.due_at is None:
            return False
        if data.due_at > now:
            return False
        if data.clock["paused"] is not None:
            return await self._resume_at_date(data, now)  # nothing else moves while paused
        clock = data.clock
        humans, bots = table_clock.split_to_act(data, data.state)
        late = [
            seat
            for seat in model.timed_out(clock, sorted(humans), now)
            if not model.is_stalled(clock, seat, now)
        ]
        if not late:
            return await self._bot_turn(data, bots, now, decided)
        seat = late[0]
        covered, newly, hand_over = model.cover(clock, seat)
        try:
            if hand_over:
                await self._hand_over(data, seat, covered)
            else:
                cover = table_clock.Cover(
                    seat=seat, version=data.version, clock=covered, newly=newly
                )
                seed = self._seed(data, seat, "cover")
                kind = self.settings.clock_bot
                if not await self._play(data, seat, kind, seed, cover, decided):
                    return await self._stall(data, seat, now)
        except ServiceError as exc:
            if exc.code in ("moved_on", "conflict"):
                return True  # someone came first: look at the table as it is now
            raise
        if newly or hand_over:
            self.fired += 1  # a covered decision's later steps are the same timeout
        return True

    async def _bot_turn(
        self, data: TableData, bots: set[int], now: float, decided: dict[int, Decided]
    ) -> bool:
        """Play the first bot seat whose move is due, claimed by the table version."""
        assert data.clock is not None
        delay = self.settings.bot_delay
        ready = [
            seat
            for seat in sorted(bots)
            if (since := data.clock["seats"][seat]["since"]) is not None
            and since + delay <= now
            and not model.is_stalled(data.clock, seat, now)
        ]
        if not ready:
            return False
        seat = ready[0]
        kind = data.seats[seat].bot
        assert kind is not None
        turn = table_clock.BotTurn(seat=seat, version=data.version)
        try:
            if not await self._play(data, seat, kind, self._seed(data, seat), turn, decided):
                return await self._stall(data, seat, now)
        except ServiceError as exc:
            if exc.code in ("moved_on", "conflict", "seat_lost"):
                return True  # another process played it, or the seat changed: look again
            raise
        self.bot_moves += 1
        return True

    async def _play(
        self,
        data: TableData,
        seat: int,
        kind: str,
        seed: str,
        by: table_clock.Cover | table_clock.BotTurn,
        decided: dict[int, Decided],
    ) -> bool:
        """Store bot ``kind``'s command for ``seat``, or the seat's first legal command if the
        game refuses it (a bot that chose badly must not stall the table, and its seed is
        the same at every try on this version). False when no command was accepted: the seat
        has none, or the game refused that one too. Raises ServiceError as ``submit`` does;
        on 'moved_on' the choice stays in ``decided`` for the next look at the table.
        """
        assert data.state is not None and data.clock is not None
        since = data.clock["seats"][seat]["since"]
        cmd = self._decided_before(data, seat, kind, since, decided.get(seat))
        if cmd is None:
            cmd = await self._decide_for(data, seat, kind, seed)
            if cmd is None:
                log.error("table %s seat %s must act but has no legal command", data.id, seat)
                return False
            self.decisions += 1
            decided[seat] = Decided(kind=kind, since=since, state=data.state, cmd=cmd)
        first = get_game(data.game).legal(data.state, seat)[:1]
        attempts = [cmd, *(c for c in first if c != cmd)]
        for index, attempt in enumerate(attempts):
            try:
                await self.service.submit(data.id, seat, attempt, by=by)
                decided.pop(seat, None)
                return True
            except RuleError as exc:
                then = "; its first legal command instead" if index + 1 < len(attempts) else ""
                log.warning(
                    "bot %s's command %r refused on table %s seat %s (%s)%s",
                    *(kind, attempt, data.id, seat, exc.code, then),
                )
        return False

    @staticmethod
    def _decided_before(
        data: TableData, seat: int, kind: str, since: float | None, before: Decided | None
    ) -> Command | None:
        """The command ``before`` chose, if ``seat`` is still at that decision: the same bot,
        the decision begun at the same moment, and the seat's view unchanged (what came
        between, such as another seat's hidden planning step or a clock change, told the
        bot nothing). None: the bot must decide on the table as it is."""
        if before is None or before.kind != kind or before.since != since:
            return None
        assert data.state is not None
        game = get_game(data.game)
        if before.state is not data.state and game.view(before.state, seat) != game.view(
            data.state, seat
        ):
            return None
        return before.cmd

    async def _stall(self, data: TableData, seat: int, now: float) -> bool:
        """Leave ``seat`` alone for a while (``model.stall``): no bot command of its decision
        was accepted, and trying again at every sweep would keep the table due for ever."""

        def change(_current: TableData, clock: model.Clock) -> tuple[model.Clock, dict[str, Any]]:
            return model.stall(clock, seat, now), {}

        stalled = await self.service.change_clock(data.id, change, version=data.version)
        until = stalled.clock["seats"][seat]["stalled"]["until"] if stalled.clock else now
        log.error(
            "no bot move accepted on table %s seat %s: tried again in %.0f s",
            data.id,
            seat,
            until - now,
        )
        return True

    async def _resume_at_date(self, data: TableData, now: float) -> bool:
        """End a pause whose resume date has come (its ``due_at``), claimed by the version."""
        until = data.clock["paused"].get("until") if data.clock else None
        if until is None or until > now:
            return False

        def change(current: TableData, clock: model.Clock) -> tuple[model.Clock, dict[str, Any]]:
            entry = {"type": "pause_ended", "seat": None, "name": None, "bot": None}
            return model.resume(clock, now), seat_model.logged_change(current, entry)

        try:
            await self.service.change_clock(data.id, change, version=data.version)
        except ServiceError as exc:
            if exc.code in ("moved_on", "conflict"):
                return True  # another process resumed it, or someone did: look again
            raise
        return True

    async def _hand_over(self, data: TableData, seat: int, clock: model.Clock) -> None:
        kind = self.settings.clock_bot
        info = data.seats[seat]

        def change(current: TableData, _clock: model.Clock) -> tuple[model.Clock, dict[str, Any]]:
            entry = {"type": "timeout_handover", "seat": seat, "name": info.name, "bot": kind}
            log_values = {"seat_log": [*current.seat_log, {**entry, "at": len(current.log)}]}
            return clock, log_values

        await self.service.change_clock(data.id, change, version=data.version, seats={seat: kind})

    def _seed(self, data: TableData, seat: int, purpose: str = "") -> str:
        """A seed for ``seat``'s bot at this version that tells nothing of the table's own."""
        message = f"{data.id}:{data.version}:{seat}{':' + purpose if purpose else ''}".encode()
        return hmac.new(self.settings.secret_key.encode(), message, hashlib.sha256).hexdigest()

    async def _decide_for(
        self, data: TableData, seat: int, kind: str, seed: str
    ) -> dict[str, Any] | None:
        """Bot ``kind``'s command for ``seat`` from that seat's view (None: it has no legal
        command); its first legal command if the bot fails (it must not stall the table)."""
        if self._decide is None and self.bots is not None:
            return await self.bots.think(data, seat, kind, seed)
        decide = self._decide
        if decide is None:
            from server.bots import decide as bot_decide  # loads the search; on first use

            decide = bot_decide
        assert data.state is not None
        view = get_game(data.game).view(data.state, seat)
        legal = view.get("legal") or []
        if not legal:
            return None
        try:
            cmd: dict[str, Any] = await asyncio.to_thread(decide, kind, data.game, view, seat, seed)
        except Exception:
            log.exception("bot %s failed on table %s seat %s", kind, data.id, seat)
            cmd = legal[0]
        return cmd

    # ---------------------------------------------------------------- acts

    async def add_time(self, table_id: str, token: str, seat: int, seconds: float) -> TableData:
        """The creator, playing seat 0, gives ``seat`` ``seconds`` more; the seat log says so.

        Raises ServiceError: 'bad_token', 'not_creator', 'seat_lost', 'bad_seat',
        'not_started', 'untimed', 'bad_time'.
        """
        by = await self.service.authenticate(table_id, token)
        seat_model.check_creator(by, playing=True)
        now = self.service.now()

        def change(data: TableData, clock: model.Clock) -> tuple[model.Clock, dict[str, Any]]:
            # The creator at the table on the version the time is added on, too.
            seat_model.check_right(seat_model.Right.CREATOR, data, by, None)
            if not 0 <= seat < len(data.seats):
                raise ServiceError("bad_seat", f"no seat {seat} (0-{len(data.seats) - 1})")
            try:
                new = model.add_time(clock, seat, seconds, now)
            except model.ClockError as exc:
                raise ServiceError(exc.code, exc.message) from None
            name = data.seats[seat].name
            entry = {
                "type": "time_added",
                "seat": seat,
                "name": name,
                "bot": None,
                "seconds": seconds,
                "at": len(data.log),
            }
            return new, {"seat_log": [*data.seat_log, entry]}

        return await self.service.change_clock(table_id, change, actor=by.seat)

    # ---------------------------------------------------------------- downtime

    async def extend_after_downtime(self) -> int:
        """Give live tables back the time every process was down (``server.timekeeping.downtime``);
        returns how many tables this process extended."""
        return await downtime.extend_after_downtime(self.service, self.sessions)
