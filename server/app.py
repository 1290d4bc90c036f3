"""The FastAPI application: ``create_app(settings)`` wires the service, fan-out and routes.

The app never creates the schema: ``guildhall migrate`` (Alembic) does, before ``serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from server import metrics
from server.analysis import Params
from server.analysis.job import AnalysisJob
from server.api import analysis, chat, clock_acts, health, notify, push, replay, rights, tables, ws
from server.api.body_limit import BodyLimit
from server.api.compression import Compression
from server.api.errors import status_of
from server.api.headers import SecurityHeaders
from server.chat import ChatService
from server.chat.store import SEQS_SQL
from server.engine import RuleError
from server.logs import configure_logging
from server.notify.addresses import Guard
from server.notify.channel import ChannelContext
from server.notify.contacts import ContactBook
from server.notify.outbox import Outbox, build_channels
from server.notify.push import PushNotices
from server.realtime.fanout import FanOut, MemoryFanOut
from server.realtime.hub import Hub
from server.settings import Settings, load_settings
from server.store.db import make_engine, make_sessionmaker
from server.store.models import TableRow
from server.tables import ServiceError, TableData, TableService
from server.tables.bots import BotRunner
from server.tables.seats import heartbeat_interval
from server.timekeeping.acts import ClockActs
from server.timekeeping.keeper import ClockKeeper

log = logging.getLogger(__name__)

# Seconds each part of the app is given to stop at shutdown (see ``_stop``).
SHUTDOWN_STEP = 10.0


def create_app(settings: Settings | None = None) -> FastAPI:
    """A Guildhall app for ``settings`` (default: from the environment)."""
    settings = settings or load_settings()
    configure_logging(settings.log_format)
    app = FastAPI(
        title="Guildhall",
        summary="Rules-enforced Norenberc and Strasbourg for friends, self-hosted.",
        version="0.1.0",
        lifespan=_lifespan,
    )
    app.state.settings = settings
    # Called once start-up is complete (``guildhall serve`` tunes the collector there).
    app.state.on_started = []
    app.state.hub = Hub()
    app.state.connection_cap = ws.ConnectionCap(settings.max_connections_per_ip)
    routers = (
        tables.router,
        clock_acts.router,
        notify.router,
        replay.router,
        analysis.router,
        health.router,
    )
    # Who may use each route is the seat model's table, checked in front of all of them.
    seat_rights = [Depends(rights.authorize)]
    for router in (*routers, chat.router, ws.router, push.router, *_optional_routers()):
        app.include_router(router, dependencies=seat_rights)
    rights.check_every_route(app)
    _add_error_handlers(app)
    # Innermost of ours: its refusal still gets the security headers.
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Compression)
    return app


def _optional_routers() -> list[Any]:
    """Routers of modules that may not exist in every build (the browser pages)."""
    try:
        pages = importlib.import_module("server.api.pages")
    except ModuleNotFoundError as exc:
        if exc.name != "server.api.pages":
            raise
        return []
    return [pages.router]


def make_fanout(settings: Settings, chat: bool = False) -> FanOut:
    """The fan-out backend the settings ask for; Postgres only loaded when asked for.

    ``chat``: the table chat's own, on a channel of its own, which announces a table's
    newest chat ``seq`` where the game's announces its version.
    """
    if settings.fanout == "postgres":
        from server.realtime.pg_fanout import PostgresFanOut

        if chat:
            channel, sql = "guildhall_chat", SEQS_SQL
            backend: FanOut = PostgresFanOut(
                settings.database_url, channel=channel, versions_sql=sql
            )
        else:
            backend = PostgresFanOut(settings.database_url)
        return backend
    return MemoryFanOut()


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    engine = make_engine(
        settings.database_url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_timeout=settings.db_pool_timeout,
    )
    sessions = make_sessionmaker(engine)
    app.state.push = PushNotices(sessions, settings)
    fanout = make_fanout(settings)
    await fanout.start()
    service = TableService(settings, sessions, fanout)
    chat_fanout = make_fanout(settings, chat=True)
    await chat_fanout.start()
    app.state.chat = ChatService(service, chat_fanout, service.sessions)
    service.presence = app.state.hub.connected
    service.on_change.append(app.state.push.finished)
    heartbeat = asyncio.get_running_loop().create_task(_note_presence(service, app.state.hub))
    tracker = TableTracker()
    service.on_change.append(tracker.changed)
    bots = BotRunner(service)
    clocks = ClockKeeper(service, service.sessions, bots)
    listeners = getattr(fanout, "listeners", None)
    if listeners is not None:
        listeners.every_table.append(clocks.heard)
    app.state.service, app.state.bots, app.state.clocks = service, bots, clocks
    app.state.clock_acts = ClockActs(service)
    # "Your move" notices: the webhook guard is shared by the route that sets a URL and the
    # channel that sends to it (tests replace its resolver).
    guard = Guard(settings.webhook_allow_private)
    context = ChannelContext(
        settings, service.sessions.maker, guard, push=app.state.push, now=lambda: service.now()
    )
    channels = build_channels(context)
    outbox = Outbox(service, channels, service.sessions)
    app.state.webhook_guard, app.state.outbox = guard, outbox
    app.state.contacts = ContactBook(service, guard, service.sessions)
    # Finished games are analysed in the background, within the CPU share set here.
    analysis = AnalysisJob(
        service.sessions.maker,
        settings.analysis_cpu,
        lock=service.sessions.writer_lock,
        params=Params.for_playouts(settings.analysis_playouts),
    )
    service.on_change.append(analysis.finished)
    app.state.analysis = analysis
    app.state.clock_acts.on_nudge.append(outbox.nudged)  # a nudged player away is told
    app.state.chat.on_message.append(outbox.chat.wrote)  # ... and one someone wrote to
    try:
        # The VAPID key pair: made once, by whichever process on the database starts first.
        await app.state.push.start()
        await _resume_bots(engine, service, tracker)
        await clocks.start()
        await outbox.start()
        await analysis.start()
        for started in app.state.on_started:
            started()
        yield
    finally:
        heartbeat.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await heartbeat
        await _stop("analysis", analysis.stop())
        await _stop("notice outbox", outbox.stop())
        await _stop("clock keeper", clocks.stop())
        await _stop("bots", bots.stop())
        await _stop("push", app.state.push.close())
        await _stop("command path", service.close())
        await _stop("chat fan-out", chat_fanout.stop())
        await _stop("fan-out", fanout.stop())
        await _stop("database", engine.dispose())


async def _stop(part: str, stopping: Awaitable[None]) -> None:
    """One step of the shutdown, given ``SHUTDOWN_STEP`` seconds: a part that does not stop
    in time is named in the log and left behind, so the rest still stop and the process
    exits (a hung shutdown keeps a restart, or a deploy, waiting for ever)."""
    try:
        await asyncio.wait_for(stopping, timeout=SHUTDOWN_STEP)
    except TimeoutError:
        log.error("shutdown: the %s did not stop within %.0f s; going on", part, SHUTDOWN_STEP)


async def _note_presence(service: TableService, hub: Hub) -> None:
    """Keep ``seats.seen_at`` fresh for every seat connected here, so that every process can
    tell how long a player has been away (the creator's hand-over waits for that)."""
    interval = heartbeat_interval(service.settings.handover_after)
    while True:
        await asyncio.sleep(interval)
        try:
            await service.mark_seen(hub.occupied())
        except Exception:
            log.warning("could not note presence", exc_info=True)


class TableTracker:
    """Follows table statuses seen by this process: logs starts and finishes and keeps the
    ``guildhall_active_tables`` gauge equal to the tables playing.

    The service's own count only covers the tables it holds in memory, which after a restart
    is not every playing table; this runs after it on each change and sets the full count.
    """

    def __init__(self) -> None:
        self.playing: set[str] = set()

    def seed(self, playing: list[str]) -> None:
        """Tables found playing in the database at start-up."""
        self.playing.update(playing)
        metrics.set_active_tables(len(self.playing))

    def changed(self, data: TableData) -> None:
        """Called with every new version of a table this process announces."""
        fields = {"table_id": data.id, "version": data.version, "status": data.status}
        if data.status == "playing" and data.id not in self.playing:
            self.playing.add(data.id)
            log.info("table started", extra=fields)
        elif data.status == "finished":
            # A finished table takes no further versions, so this is announced once (by
            # whichever process committed the last command).
            self.playing.discard(data.id)
            log.info("table finished", extra=fields)
        metrics.set_active_tables(len(self.playing))


async def _resume_bots(engine: Any, service: TableService, tracker: TableTracker) -> None:
    """After a restart, let bots whose turn it is play on (they wake on changes otherwise)."""
    async with engine.connect() as conn:
        rows = await conn.execute(sa.select(TableRow.id).where(TableRow.status == "playing"))
        playing = [row[0] for row in rows]
    tracker.seed(playing)
    for table_id in playing:
        for callback in service.on_change:
            callback(await service.get(table_id))


def _error(status: int, code: str, message: str, retry_after: int | None = None) -> JSONResponse:
    metrics.record_error(code)
    if retry_after is None:
        return JSONResponse({"code": code, "message": message}, status_code=status)
    body = {"code": code, "message": message, "retry_after": retry_after}
    return JSONResponse(body, status_code=status, headers={"Retry-After": str(retry_after)})


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return _error(status_of(exc.code), exc.code, exc.message, exc.retry_after)

    @app.exception_handler(RuleError)
    async def rule_error(_request: Request, exc: RuleError) -> JSONResponse:
        return _error(400, exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        if first.get("type") == "json_invalid":
            # Not a body of the wrong shape but no JSON at all: the code docs/api.md gives it.
            return _error(400, "bad_json", f"the body is not valid JSON: {first['msg']}")
        where = ".".join(str(p) for p in first["loc"])
        return _error(422, "bad_request", f"{where}: {first['msg']}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {
            400: "bad_json",
            404: "not_found",
            405: "method_not_allowed",
            413: "body_too_large",  # server.api.body_limit
        }.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))
