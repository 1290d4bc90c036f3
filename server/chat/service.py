"""The chat service: who may write what in a table's chat, the durable write, and the log
each process holds for its readers.

A chat entry is written by one transaction of its own that appends row ``seq`` of the table's
log (unique per table: of two writers, across processes too, one gets the seq and the other
tries again) and touches nothing of the game: no version, no state, no command, no record.
Only once it is committed is it acknowledged and announced on the chat's own fan-out (in
every process, as game changes are), and each process's readers catch up from its copy of the
log (``log.ChatLog``), read from the database once per table and change.

A message's author is a connection's identity, never something the message says: the seat a
token owns (its owner may chat while a bot stands in: chatting is not playing; the owner
must still own the seat at the moment of writing), or a spectator, who writes in the
spectators' room only. Bots have no connection and never chat.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.store.models import ChatRow
from server.store.sessions import SessionSource
from server.tables import ServiceError, TableData, TableService
from server.tables import seats as seat_model
from server.tables.fanout import FanOut
from server.tables.writes import WRITE_ATTEMPTS, kept_changing

from . import rules, store
from .log import KEEP, ChatLog, reads


@dataclass(frozen=True)
class Speaker:
    """Who a connection chats as: ``seat`` (None: a spectator) and ``author``, the owner's
    token hash or a spectator connection's own key (what makes a resent message one);
    ``person`` is what the rate limit counts by (the token hash, or a spectator's address)."""

    seat: int | None
    author: str
    person: str

    @property
    def seated(self) -> bool:
        return self.seat is not None


class ChatService:
    """Writes and reads table chats for every connection of this process."""

    def __init__(self, tables: TableService, fanout: FanOut, sessions: SessionSource) -> None:
        """``sessions``: the table service's session source (its SQLite writer lock)."""
        self.tables = tables
        self.fanout = fanout
        self.sessions = sessions
        self._logs: dict[str, ChatLog] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._readers: dict[str, int] = {}  # connections here that follow a table's chat
        self.limiter = rules.Limiter()
        self.now: Callable[[], float] = time.time
        # Called after each committed message (not hides or room changes) with the table's
        # data, the room and the author's seat: the away notices listen here.
        self.on_message: list[Callable[[TableData, str, int | None], Awaitable[None]]] = []

    # ---------------------------------------------------------------- writing

    async def post(
        self,
        table_id: str,
        speaker: Speaker,
        room: str,
        client_id: str,
        text: str | None = None,
        phrase: str | None = None,
        name: str | None = None,
    ) -> int:
        """Write a message; returns its seq (the first one's again for a resent
        ``client_id``). Raises ServiceError: 'unknown_table', 'bad_token' (the token owns
        its seat no more), 'players_only' (a spectator in the players' room), 'room_closed',
        'rate_limited', 'bad_message', 'too_long', 'unknown_phrase'."""
        data = await self.tables.get(table_id)
        self._check_author(data, speaker)
        if room == "players" and not speaker.seated:
            raise ServiceError("players_only", "spectators write in the spectators' room")
        if (phrase is None) == (text is None):
            raise ServiceError("bad_message", "a chat message has either text or a phrase")
        kind, body = (
            ("phrase", rules.check_phrase(phrase))
            if phrase is not None
            else ("text", rules.clean_text(text or ""))
        )
        # A seat's messages show its owner's name (also while a bot stands in); a
        # spectator's, the name they gave, in their room only.
        if speaker.seat is not None:
            shown = data.seats[speaker.seat].name or ""
        else:
            shown = rules.clean_name(name)
        if room == "spectators" and not (await self.log(table_id)).spectators_open:
            raise ServiceError("room_closed", "the table's creator closed the spectators' room")
        if not self.limiter.allow(table_id, speaker.person):
            raise _rate_limited()
        row = ChatRow(kind=kind, room=room, seat=speaker.seat, name=shown, text=body)
        row.person = rules.person_key(self.tables.settings.secret_key, table_id, speaker.person)
        seq, new = await self._append(table_id, speaker, client_id, row)
        if new:
            for listener in list(self.on_message):
                await listener(data, room, speaker.seat)
        return seq

    async def hide(self, table_id: str, speaker: Speaker, target: int, client_id: str) -> int:
        """The creator hides message ``target`` for everyone (kept in the database, marked
        hidden). Raises 'not_creator', 'unknown_chat' (no such message)."""
        data = await self._creator(table_id, speaker)
        log = await self.log(table_id)
        message = log.message(target)
        if message is None:
            async with self.sessions.read() as session:
                kind = await store.kind_of(session, table_id, target)
            if kind not in ("text", "phrase"):
                raise ServiceError("unknown_chat", f"the chat has no message {target}")
        row = ChatRow(kind="hide", room="players", seat=0, name=data.seats[0].name or "", text="")
        row.target = target
        seq, _new = await self._append(table_id, speaker, client_id, row)
        return seq

    async def set_room(self, table_id: str, speaker: Speaker, open_: bool, client_id: str) -> int:
        """The creator opens or closes the spectators' room. Raises 'not_creator'."""
        data = await self._creator(table_id, speaker)
        text = "open" if open_ else "closed"
        row = ChatRow(
            kind="room", room="spectators", seat=0, name=data.seats[0].name or "", text=text
        )
        seq, _new = await self._append(table_id, speaker, client_id, row)
        return seq

    def _check_author(self, data: TableData, speaker: Speaker) -> None:
        if speaker.seat is None:
            return
        owner = seat_model.owned_seat(data, speaker.author)
        if owner != speaker.seat:
            raise ServiceError("bad_token", "this token owns no seat of the table any more")

    async def _creator(self, table_id: str, speaker: Speaker) -> TableData:
        data = await self.tables.get(table_id)
        self._check_author(data, speaker)
        if speaker.seat != seat_model.CREATOR_SEAT:
            raise ServiceError("not_creator", "only the table's creator may do this")
        return data

    async def _append(
        self, table_id: str, speaker: Speaker, client_id: str, row: ChatRow
    ) -> tuple[int, bool]:
        """Commit ``row`` as the table's next entry; (seq, True), or (the earlier seq, False)
        when this author already wrote ``client_id``. Announced once committed. A message
        (a row with a ``person``) is refused 'rate_limited' when the person's messages
        stored in the last LOOKBACK seconds, by any process, leave no room for it."""
        row.table_id, row.author, row.client_id = table_id, speaker.author, client_id
        row.hidden, row.at = False, round(self.now(), 3)
        for _attempt in range(WRITE_ATTEMPTS):
            try:
                async with self.sessions.write() as session:
                    earlier = await store.repeat(session, table_id, speaker.author, client_id)
                    if earlier is not None:
                        return earlier, False
                    if row.person is not None:
                        since = row.at - rules.LOOKBACK
                        times = await store.times_of(session, table_id, row.person, since)
                        if not rules.allows(times, row.at):
                            raise _rate_limited()  # written through other processes
                    fresh = _copy(row)
                    fresh.seq = await store.next_seq(session, table_id)
                    session.add(fresh)
                    if fresh.kind == "hide" and fresh.target is not None:
                        await store.hide(session, table_id, fresh.target)
                    await session.commit()
            except IntegrityError:
                continue  # another process took the seq (or wrote this very client_id)
            await self.fanout.publish(table_id, fresh.seq)
            return fresh.seq, True
        raise kept_changing()

    # ---------------------------------------------------------------- reading

    async def log(self, table_id: str, wanted: int | None = None) -> ChatLog:
        """This process's copy of the table's chat, read on first use and brought up to
        ``wanted`` (a seq announced) when it is behind; without ``wanted``, brought up to
        what the database holds now (a reader's hello: the copy of a table nobody here
        followed may have missed entries)."""
        log = self._logs.get(table_id)
        if log is not None and wanted is not None and log.newest >= wanted:
            return log
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            log = self._logs.get(table_id)
            if log is not None and wanted is not None and log.newest >= wanted:
                return log
            async with self.sessions.read() as session:
                if log is None:
                    log = await _load(session, table_id)
                    self._logs[table_id] = log
                else:
                    rows = await store.after(session, table_id, log.newest)
                    log.apply([store.entry(r) for r in rows], {r.seq for r in rows if r.hidden})
        return log

    async def older(
        self, table_id: str, before: int, seated: bool, public: bool
    ) -> tuple[list[dict[str, Any]], bool]:
        """Up to HISTORY messages a reader may read before ``before``, oldest first, and
        whether there are more."""
        rooms = tuple(room for room in rules.ROOMS if reads(room, seated, public))
        async with self.sessions.read() as session:
            rows = await store.messages_before(session, table_id, before, rooms, rules.HISTORY + 1)
        more = len(rows) > rules.HISTORY
        shown = [store.entry(r).wire(r.hidden) for r in reversed(rows[: rules.HISTORY])]
        return shown, more

    async def transcript(self, table_id: str, token: str | None) -> dict[str, Any]:
        """A finished table's chat, to download beside its record: every message the asker
        may read (as on the websocket: the players' room of a private table only with a
        token of its seats), hidden ones without their text. Raises 'not_finished' before
        the end, 'bad_token' for a token that owns no seat of the table."""
        data = await self.tables.get_stored(table_id)
        if data.status != "finished":
            raise ServiceError("not_finished", "the chat is published once the game ends")
        seated = False
        if token is not None:
            if seat_model.access(data, self.tables.settings.secret_key, token) is None:
                raise ServiceError("bad_token", "the token owns no seat of this table")
            seated = True
        async with self.sessions.read() as session:
            rows = await store.messages(session, table_id)
        messages = [
            store.entry(r).wire(r.hidden) for r in rows if reads(r.room, seated, data.public)
        ]
        return {"table_id": data.id, "game": data.game, "messages": messages}

    async def newest_for(self, asked: list[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """For each (table, seat), the seq of the newest message someone else wrote there
        (0: none): what the lobby's "your tables" compares with what the browser has read.
        A seat's owner reads both rooms. One query for every table asked about."""
        async with self.sessions.read() as session:
            newest = await store.newest_by_author(session, sorted({t for t, _ in asked}))
        return {
            (table_id, seat): max(
                (seq for author, seq in newest.get(table_id, {}).items() if author != seat),
                default=0,
            )
            for table_id, seat in asked
        }

    def follow(self, table_id: str) -> None:
        """A connection here follows the table's chat (its copy is kept while one does)."""
        self._readers[table_id] = self._readers.get(table_id, 0) + 1

    def unfollow(self, table_id: str) -> None:
        """A connection stopped following; the last one takes this process's copy with it
        (the next reader reads it again), so a long-lived process holds only live chats."""
        left = self._readers.get(table_id, 0) - 1
        if left > 0:
            self._readers[table_id] = left
            return
        self._readers.pop(table_id, None)
        self._logs.pop(table_id, None)
        self._locks.pop(table_id, None)


async def _load(session: AsyncSession, table_id: str) -> ChatLog:
    rows = await store.newest(session, table_id, KEEP)
    log = ChatLog(spectators_open=await store.room_state(session, table_id))
    log.apply([store.entry(r) for r in rows], {r.seq for r in rows if r.hidden})
    log.complete = len(rows) < KEEP
    return log


def _copy(row: ChatRow) -> ChatRow:
    """A new row of the same values (a failed attempt's row stays with its session)."""
    return ChatRow(
        table_id=row.table_id,
        kind=row.kind,
        room=row.room,
        seat=row.seat,
        name=row.name,
        text=row.text,
        target=row.target,
        hidden=row.hidden,
        author=row.author,
        client_id=row.client_id,
        at=row.at,
        person=row.person,
    )


def _rate_limited() -> ServiceError:
    return ServiceError(
        "rate_limited",
        f"at most {rules.BURST} chat messages at once, then one every "
        f"{1 / rules.RATE:g} s; slow down",
    )
