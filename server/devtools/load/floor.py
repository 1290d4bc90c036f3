"""The floor: the least a server can do per move of the counter game, to measure Guildhall by.

A bare Starlette + asyncpg app that speaks just enough of Guildhall's protocol for the load
test's players: create / join / start a table over HTTP, ``hello`` → ``snapshot`` and
``command`` → one frame to each socket of the table over a websocket. Per accepted move it
does exactly this: check the move, run one transaction that inserts the move and updates the
table's ~2 KB state (with the version check), then send one frame to each of the table's
sockets (the mover's frame carries its ``ack``). Nothing else: no cache, no history, no log,
no reconnection, no presence, no fan-out between processes.

``guildhall loadtest --floor`` starts it as ``python -m server.devtools.load.floor`` on a fresh
database of the same Postgres server and plays the same counter tables against it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from server.devtools.load import counter
from server.engine import RuleError
from server.realtime.pg_fanout import asyncpg_dsn

SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_tables (
    id text PRIMARY KEY, version integer NOT NULL, state json NOT NULL
);
CREATE TABLE IF NOT EXISTS floor_moves (
    table_id text NOT NULL REFERENCES floor_tables (id), seq integer NOT NULL,
    seat integer NOT NULL, body json NOT NULL, PRIMARY KEY (table_id, seq)
);
"""


@dataclass
class FloorTable:
    """One table: its state and version, the seat tokens, the sockets by seat."""

    id: str
    seats: int
    state: dict[str, Any]
    version: int = 1
    tokens: dict[str, int] = field(default_factory=dict)
    sockets: dict[int, WebSocket] = field(default_factory=dict)
    playing: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def doc(self, seat: int) -> dict[str, Any]:
        status = "playing" if self.playing else "open"
        return {
            "table": {"id": self.id, "status": status, "version": self.version},
            "you": {"seat": seat},
            "game": self.game(seat),
        }

    def game(self, seat: int) -> dict[str, Any]:
        return {
            "count": self.state["count"],
            "turn": self.state["turn"],
            "legal": counter.legal_moves(self.state["turn"], seat) if self.playing else [],
        }


class Floor:
    """The floor server's tables and its connection pool."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.pool: asyncpg.Pool | None = None
        self.tables: dict[str, FloorTable] = {}

    @asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        self.pool = await asyncpg.create_pool(self.dsn, min_size=2, max_size=10)
        async with self.pool.acquire() as conn:
            await conn.execute(SCHEMA)
        try:
            yield
        finally:
            await self.pool.close()

    # -------------------------------------------------------------- HTTP

    async def create(self, request: Request) -> JSONResponse:
        body = await request.json()
        seats = int(body.get("seats", 4))
        table = FloorTable(secrets.token_urlsafe(6), seats, counter.new_state(seats))
        assert self.pool is not None
        await self.pool.execute(
            "INSERT INTO floor_tables (id, version, state) VALUES ($1, 1, $2)",
            table.id,
            json.dumps(table.state),
        )
        self.tables[table.id] = table
        return JSONResponse({"table_id": table.id, **self.seat(table, 0)})

    async def join(self, request: Request) -> JSONResponse:
        table = self.tables[request.path_params["table_id"]]
        return JSONResponse(self.seat(table, len(table.tokens)))

    async def start(self, request: Request) -> JSONResponse:
        table = self.tables[request.path_params["table_id"]]
        table.playing = True
        return JSONResponse({"status": "playing"})

    async def healthz(self, _request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    @staticmethod
    def seat(table: FloorTable, seat: int) -> dict[str, Any]:
        token = secrets.token_urlsafe(16)
        table.tokens[token] = seat
        return {"seat": seat, "token": token}

    # -------------------------------------------------------------- websocket

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        table = self.tables.get(ws.path_params["table_id"])
        seat: int | None = None
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                if msg.get("type") == "hello" and table is not None:
                    seat = table.tokens.get(msg.get("token", ""))
                    if seat is not None:
                        table.sockets[seat] = ws
                        snapshot = {"type": "snapshot", "version": table.version}
                        await ws.send_text(json.dumps({**snapshot, "doc": table.doc(seat)}))
                elif msg.get("type") == "command" and table is not None and seat is not None:
                    await self.move(table, seat, msg)
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None and seat is not None and table.sockets.get(seat) is ws:
                del table.sockets[seat]

    async def move(self, table: FloorTable, seat: int, msg: dict[str, Any]) -> None:
        """Check, commit (one transaction), then one frame to each socket of the table."""
        async with table.lock:
            try:
                step = counter.check_move(table.state, seat, msg.get("cmd"))
            except RuleError as exc:
                error = {"type": "error", "id": msg.get("id"), "code": exc.code}
                await table.sockets[seat].send_text(json.dumps({**error, "message": exc.message}))
                return
            state = counter.advanced(table.state, seat, step)
            assert self.pool is not None
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute(
                    "INSERT INTO floor_moves (table_id, seq, seat, body) VALUES ($1, $2, $3, $4)",
                    table.id,
                    table.version,
                    seat,
                    json.dumps(msg["cmd"]),
                )
                updated = await conn.execute(
                    "UPDATE floor_tables SET state = $1, version = $2 WHERE id = $3"
                    " AND version = $4",
                    json.dumps(state),
                    table.version + 1,
                    table.id,
                    table.version,
                )
                if updated != "UPDATE 1":
                    raise RuntimeError("the floor has one writer per table")
            table.state, base = state, table.version
            table.version += 1
            for to, ws in list(table.sockets.items()):
                game = table.game(to)
                ops = [
                    {"op": "replace", "path": "/table/version", "value": table.version},
                    {"op": "replace", "path": "/game/count", "value": game["count"]},
                    {"op": "replace", "path": "/game/turn", "value": game["turn"]},
                    {"op": "replace", "path": "/game/legal", "value": game["legal"]},
                ]
                frame: dict[str, Any] = {
                    "type": "patch",
                    "version": table.version,
                    "base": base,
                    "ops": ops,
                }
                if to == seat:
                    frame["ack"] = msg.get("id")
                try:
                    await ws.send_text(json.dumps(frame))
                except (WebSocketDisconnect, RuntimeError, OSError):
                    table.sockets.pop(to, None)


def create_app(dsn: str) -> Starlette:
    floor = Floor(asyncpg_dsn(dsn))
    routes = [
        Route("/healthz", floor.healthz),
        Route("/api/tables", floor.create, methods=["POST"]),
        Route("/api/tables/{table_id}/join", floor.join, methods=["POST"]),
        Route("/api/tables/{table_id}/start", floor.start, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", floor.socket),
    ]
    return Starlette(routes=routes, lifespan=floor.lifespan)


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="the floor server of `guildhall loadtest`")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    args = parser.parse_args()
    uvicorn.run(
        create_app(args.database_url), host="127.0.0.1", port=args.port, log_level="warning"
    )


if __name__ == "__main__":
    main()
