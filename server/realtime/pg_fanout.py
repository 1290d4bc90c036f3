"""Fan-out across app instances through Postgres ``LISTEN/NOTIFY``.

Every instance listens on one channel. After a command commits, the instance that wrote it
calls ``publish(table_id, version)``: its own subscribers are told at once, and a ``NOTIFY``
carrying only ``"<table_id>:<version>"`` reaches the other instances, whose subscribers then
read what they need from the database. Nothing else travels through the channel, so the
payload limit (8000 bytes) and hidden information are never a concern.

A lost listening connection is reopened with a bounded back-off. Notifications sent while it
was down are gone, so every subscribed table is then announced at its current version (read
from ``tables``) and its receivers catch up instead of waiting for the table's next move.

A notification can also be lost at the sender: a process killed between its commit and its
``NOTIFY``. Every ``sweep_interval`` seconds one query reads the versions of the tables this
process has listeners for, and announces any that moved on unnoticed; without it, clients on
the other processes could wait for that version until the table's next change, which may be
theirs to make.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

import asyncpg

from server import metrics
from server.store.db import asyncpg_dsn

from .fanout import Listener, LocalListeners

# What a lost or half-closed connection raises: a killed connection can leave asyncpg in the
# middle of an operation, which it reports as an InternalClientError rather than an OSError.
CONNECTION_ERRORS = (
    OSError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)

log = logging.getLogger(__name__)

__all__ = ["CHANNEL", "PostgresFanOut", "asyncpg_dsn", "decode_payload", "encode_payload"]

CHANNEL = "guildhall_tables"
VERSIONS_SQL = "SELECT id, version FROM tables WHERE id = ANY($1::text[])"


def encode_payload(table_id: str, version: int, origin: str = "") -> str:
    """The NOTIFY payload for a table at ``version``: ``"<table_id>:<version>"``, followed by
    ``"@<origin>"`` when the sending process names itself (so it can skip its own echo)."""
    return f"{table_id}:{version}" + (f"@{origin}" if origin else "")


def payload_origin(payload: str) -> str:
    """The sending process's name in a payload ('' when it gave none)."""
    return payload.rpartition("@")[2] if "@" in payload else ""


def decode_payload(payload: str) -> tuple[str, int] | None:
    """``(table_id, version)`` from a payload, or None when it is not one of ours."""
    if "@" in payload:
        payload = payload.rpartition("@")[0]
    table_id, sep, version = payload.rpartition(":")
    if not sep or not table_id or not version.isdigit():
        return None
    return table_id, int(version)


class PostgresFanOut:
    """Tell every instance's subscribers that a table reached a new version.

    ``start()`` opens two connections (one only listens, one sends ``NOTIFY``) and must run
    before ``publish``; ``stop()`` closes them. ``subscribe``/``unsubscribe`` are synchronous
    and may be called before ``start``.
    """

    def __init__(
        self,
        database_url: str,
        *,
        channel: str = CHANNEL,
        max_backoff: float = 5.0,
        sweep_interval: float = 2.0,
        versions_sql: str = VERSIONS_SQL,
    ) -> None:
        self._dsn = asyncpg_dsn(database_url)
        self._channel = channel
        self._max_backoff = max_backoff
        self.listeners = LocalListeners()
        self._listen_conn: asyncpg.Connection | None = None
        self._notify_conn: asyncpg.Connection | None = None
        self._notify_lock = asyncio.Lock()
        self._own_pid: int | None = None
        self._reconnect_task: asyncio.Task[None] | None = None
        self._sweep_interval = sweep_interval
        # ``(id, version)`` of the subscribed tables (``$1``): what a reconnect and the sweep
        # announce. Another log fanned out this way (the chat's ``seq``) brings its own.
        self._versions_sql = versions_sql
        self._sweeper: asyncio.Task[None] | None = None
        self._latest: dict[str, int] = {}  # newest version announced here, by table
        self._stopped = True
        self._origin = secrets.token_hex(4)  # names this process in the payloads it sends

    # -- subscriptions -------------------------------------------------------------------

    def subscribe(self, table_id: str, listener: Listener) -> None:
        """Call ``listener(table_id, version)`` whenever ``table_id`` changes on any instance."""
        self.listeners.add(table_id, listener)

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        """Stop calling ``listener`` for ``table_id``; unknown pairs are ignored."""
        self.listeners.remove(table_id, listener)

    # -- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Open the listening and notifying connections; raises if Postgres is unreachable."""
        self._stopped = False
        await self._open_listener()
        await self._open_notifier()
        self._sweeper = asyncio.ensure_future(self._sweep_forever())

    async def stop(self) -> None:
        """Stop reconnecting and close both connections; safe to call twice."""
        self._stopped = True
        tasks = [t for t in (self._reconnect_task, self._sweeper) if t is not None]
        self._reconnect_task = self._sweeper = None
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in (self._listen_conn, self._notify_conn):
            if conn is not None and not conn.is_closed():
                with contextlib.suppress(Exception):
                    await conn.close(timeout=2)
        self._listen_conn = self._notify_conn = None

    async def _open_listener(self) -> None:
        conn = await asyncpg.connect(self._dsn)
        try:
            conn.add_termination_listener(self._on_listener_lost)
            await conn.add_listener(self._channel, self._on_notification)
        except BaseException:
            # Cancelled by stop() (or failed) between connecting and listening: nobody else
            # holds this connection, so it is closed here or it leaks.
            conn.terminate()
            raise
        lost, self._listen_conn = self._listen_conn, conn
        if lost is not None and lost is not conn:
            lost.terminate()  # the dead one it replaces; terminate() never waits

    async def _open_notifier(self) -> None:
        conn = await asyncpg.connect(self._dsn)
        # Our own echoes are recognised by backend pid. Only the current one is kept: a pid
        # the OS later reuses for another instance must not silence it, and a late echo
        # from an old one is merely a duplicate, which receivers ignore by version.
        self._own_pid = conn.get_server_pid()
        self._drop_notifier()
        self._notify_conn = conn

    def _drop_notifier(self) -> None:
        # A broken connection left to the garbage collector keeps its socket open until then
        # (and asyncpg warns of it): it is closed here, at once; terminate() never waits.
        lost, self._notify_conn = self._notify_conn, None
        if lost is not None and not lost.is_closed():
            lost.terminate()

    # -- publishing ----------------------------------------------------------------------

    async def publish(self, table_id: str, version: int) -> None:
        """Announce that ``table_id`` committed ``version``: locally now, elsewhere via NOTIFY.

        Called after the commit. A failed NOTIFY is retried once on a new connection and then
        logged, never raised: the command is already durable, and remote receivers catch up
        at the table's next version or when their clients ask for a snapshot.
        """
        self._announce(table_id, version)
        payload = encode_payload(table_id, version)
        for attempt in (1, 2):
            try:
                await self._notify(payload)
                metrics.record_fanout("sent")
                return
            except CONNECTION_ERRORS as exc:
                log.warning("NOTIFY %s failed (attempt %d): %s", payload, attempt, exc)
                self._drop_notifier()
        metrics.record_fanout("send_failed")

    async def _notify(self, payload: str) -> None:
        async with self._notify_lock:
            if self._notify_conn is None or self._notify_conn.is_closed():
                await self._open_notifier()
            assert self._notify_conn is not None
            await self._notify_conn.execute("SELECT pg_notify($1, $2)", self._channel, payload)

    # -- receiving -----------------------------------------------------------------------

    def notification(self, table_id: str, version: int) -> tuple[str, str]:
        """(channel, payload) for a writer that sends the NOTIFY inside its own commit,
        then calls ``announce_local``: one round trip less per command than ``publish``."""
        return self._channel, encode_payload(table_id, version, self._origin)

    def announce_local(self, table_id: str, version: int) -> None:
        """Tell this process's subscribers about a version whose NOTIFY went with its commit."""
        self._announce(table_id, version)

    def _on_notification(self, _conn: Any, pid: int, _channel: str, payload: str) -> None:
        if pid == self._own_pid or payload_origin(payload) == self._origin:
            return  # already delivered locally by publish() or announce_local()
        decoded = decode_payload(payload)
        if decoded is None:
            log.warning("ignoring foreign payload on %s: %r", self._channel, payload[:100])
            return
        metrics.record_fanout("received")
        self._announce(*decoded)

    # -- reconnecting --------------------------------------------------------------------

    def _on_listener_lost(self, _conn: Any) -> None:
        if self._stopped or (self._reconnect_task and not self._reconnect_task.done()):
            return
        log.warning("lost the LISTEN connection; reconnecting")
        self._reconnect_task = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.05
        while not self._stopped:
            try:
                await self._open_listener()
            except CONNECTION_ERRORS as exc:
                log.warning("LISTEN reconnect failed, retrying in %.2fs: %s", delay, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._max_backoff)
                continue
            metrics.record_fanout("reconnected")
            await self._resync()
            return

    async def _resync(self) -> None:
        """Announce each subscribed table at its current version, read from ``tables``.

        Notifications sent while the listener was down are lost; this gives receivers the
        newest version so that they re-read instead of waiting for the table's next move.
        """
        tables = self.listeners.tables()
        log.info("LISTEN connection restored; resyncing %d tables", len(tables))
        if not tables or self._listen_conn is None:
            return
        try:
            rows = await self._listen_conn.fetch(self._versions_sql, tables)
        except CONNECTION_ERRORS as exc:
            log.warning("could not read table versions after reconnecting: %s", exc)
            return
        for row in rows:
            self._announce(row["id"], row["version"])

    # -- sweeping ------------------------------------------------------------------------

    def _announce(self, table_id: str, version: int) -> None:
        self._latest[table_id] = max(version, self._latest.get(table_id, version))
        self.listeners.call(table_id, version)

    async def _sweep_forever(self) -> None:
        while not self._stopped:
            await asyncio.sleep(self._sweep_interval)
            try:
                await self.sweep()
            except CONNECTION_ERRORS as exc:
                log.warning("version sweep failed: %s", exc)

    async def sweep(self) -> int:
        """Announce every subscribed table whose stored version is newer than any announced
        here; returns how many had been announced before (their notifications were lost)."""
        tables = self.listeners.tables()
        if not tables:
            return 0
        async with self._notify_lock:
            if self._notify_conn is None or self._notify_conn.is_closed():
                await self._open_notifier()
            assert self._notify_conn is not None
            rows = await self._notify_conn.fetch(self._versions_sql, tables)
        missed = 0
        for row in rows:
            known = self._latest.get(row["id"])
            if known is not None and row["version"] <= known:
                continue
            # A table never announced here may still be new to a receiver: tell it, too.
            missed += known is not None
            self._announce(row["id"], row["version"])
        metrics.record_fanout("swept", missed)
        return missed
