"""An in-page stand-in for the table websocket, driven by the real engine.

Used by the client-only browser tests: Playwright's ``route_web_socket`` answers the page's
``/ws/tables/{id}`` with documents built exactly as docs/protocol.md describes (snapshot,
then patches made with ``jsonpatch``), so the page is tested against real engine views
without the server. Bot seats play a seeded random legal command.
"""

from __future__ import annotations

import json
import random
import re
from types import SimpleNamespace
from typing import Any

import jsonpatch
from fastapi import FastAPI

from server.api import pages
from server.engine import Event, get_game, is_visible, log_entry
from server.tables import ServiceError


class PageGames:
    """Just enough of TableService for the page router: which game a table id plays, so
    ``/t/fake`` loads the module, style and strings of the fake table made last."""

    def __init__(self) -> None:
        self.games: dict[str, str] = {}

    async def get(self, table_id: str) -> SimpleNamespace:
        if table_id not in self.games:
            raise ServiceError("unknown_table", f"there is no table {table_id!r}")
        return SimpleNamespace(game=self.games[table_id])


PAGE_GAMES = PageGames()


def pages_app() -> FastAPI:
    """The page router alone, serving ``/t/fake`` as the last FakeTable's game."""
    app = FastAPI()
    app.include_router(pages.router)
    app.state.service = PAGE_GAMES
    return app


class FakeTable:
    """One table (Norenberc unless ``game`` says otherwise): seat 0 is the browser, every
    other seat a random bot."""

    def __init__(
        self,
        seats: int = 3,
        seed: str = "web-test",
        names: list[str | None] | None = None,
        options: dict[str, Any] | None = None,
        game: str = "norenberc",
    ) -> None:
        self.game = get_game(game)
        PAGE_GAMES.games["fake"] = game
        self.options = {**self.game.default_options(), **(options or {})}
        self.state = self.game.new(seats, seed, self.options)
        self.names = names or ["Ada"] + [None] * (seats - 1)
        self.events: list[Event] = []
        self.seed = seed
        self.commands: list[dict[str, Any]] = []  # {seat, cmd} in order, as a record holds them
        self.version = 1
        self.rng = random.Random(seed)
        self.sockets: list[Any] = []
        self.sent: dict[int, dict[str, Any]] = {}
        self.acked: set[str] = set()
        self.received: list[dict[str, Any]] = []
        # The clause of the rules the next refusal of refuse_next_command met, as the server
        # names it with a refused game command (None: a refusal that is no rule's, "conflict").
        self.refusal_clause: str | None = None
        # When set, the next command is neither applied nor answered and its socket closes,
        # as when a connection drops after sending.
        self.drop_next_command = False
        # When set to (code, message), the next command is refused with that error.
        self.refuse_next_command: tuple[str, str] | None = None
        # When set to (code, message), the next hello is refused with that error (a seat
        # link whose seat a bot plays now is refused with "seat_lost").
        self.refuse_next_hello: tuple[str, str] | None = None
        # Members the table part of every document (and the table summary) gets besides its
        # own: a clock, the seat log, a rematch, seats as a bot standing in shows them.
        self.table_extra: dict[str, Any] = {}
        # What GET …/analysis answers once the game is over (None: an analysis just queued).
        self.analysis: dict[str, Any] | None = None

    def doc(self, seat: int | None) -> dict[str, Any]:
        seats = [
            {
                "seat": s,
                "name": self.names[s],
                "bot": None if self.names[s] else "random",
                "connected": s == seat or self.names[s] is None,
            }
            for s in range(len(self.names))
        ]
        status = "finished" if self.game.result(self.state) else "playing"
        return {
            "table": {
                "id": "fake",
                "game": self.game.name,
                "title": self.game.title,
                "status": status,
                "version": self.version,
                "seed_sha256": "0" * 64,
                "options": self.options,
                "seats": seats,
                **self.table_extra,
            },
            "you": {"seat": seat},
            "game": self.game.view(self.state, seat),
            "log": [log_entry(e) for e in self.events if is_visible(e, seat)],
        }

    def play(self, seat: int, cmd: dict[str, Any]) -> None:
        """Apply ``cmd`` for ``seat``, then let the bots move until a human must act."""
        self.state, events = self.game.apply(self.state, seat, cmd)
        self.events.extend(events)
        self.commands.append({"seat": seat, "cmd": cmd})
        self.version += 1
        self.run_bots()

    def run_bots(self) -> None:
        while self.game.result(self.state) is None:
            bots = [s for s in sorted(self.game.to_act(self.state)) if self.names[s] is None]
            if not bots:
                return
            seat = bots[0]
            cmd = self.rng.choice(self.game.legal(self.state, seat))
            self.state, events = self.game.apply(self.state, seat, cmd)
            self.events.extend(events)
            self.commands.append({"seat": seat, "cmd": cmd})
            self.version += 1

    def record(self) -> dict[str, Any]:
        """The game so far as the table record holds it (what the replay route replays)."""
        return {
            "game": self.game.name,
            "seats": len(self.names),
            "seed": self.seed,
            "options": self.options,
            "commands": self.commands,
        }

    # ---- the page's routes -------------------------------------------------------------

    def serve(self, page: Any, seat: int | None = 0) -> None:
        """Answer ``page``'s websocket, table summary, seat lookup (``GET …/me``) and the
        seat's notification settings for ``seat``, as server/api/tables.py and
        server/api/notify.py would for seat ``seat``'s link (no e-mail, no webhook). The page
        at ``/t/fake`` is this table's game's (its module, style and strings), whichever fake
        table was made last."""
        PAGE_GAMES.games["fake"] = self.game.name
        page.route_web_socket(re.compile(r".*/ws/tables/.*"), lambda ws: self.attach(ws, seat))
        page.route(
            re.compile(r".*/api/tables/fake$"),
            lambda route: route.fulfill(json=self.doc(seat)["table"]),
        )
        page.route(
            re.compile(r".*/api/tables/fake/me$"),
            lambda route: route.fulfill(json=self.my_seat(seat)),
        )
        page.route(
            re.compile(r".*/api/tables/fake/notifications$"),
            lambda route: route.fulfill(json=self.notifications(seat)),
        )
        page.route(
            re.compile(r".*/api/tables/fake/analysis$"),
            lambda route: route.fulfill(json=self.analysis or self.queued_analysis()),
        )

    def queued_analysis(self) -> dict[str, Any]:
        """``GET …/analysis`` of a finished game whose analysis has not begun."""
        steps = len(self.commands) + 1
        return {
            "status": "queued",
            "done": 0,
            "steps": steps,
            "seats": len(self.names),
            "names": self.names,
            "chances": [None] * steps,
            "rounds": [None] * steps,
            "costliest": {},
            "swings": [],
        }

    def notifications(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "creator": seat == 0,
            "email": None,
            "email_on": False,
            "webhook": None,
            "email_confirmed": False,
            "email_links_left": 5,
        }

    def my_seat(self, seat: int | None) -> dict[str, Any]:
        return {
            "table_id": "fake",
            "seat": seat,
            "plays": True,
            "creator": seat == 0,
            "invite": "fake-invite",
            "invite_link": "/t/fake#invite=fake-invite",
        }

    # ---- the websocket side -----------------------------------------------------------

    def attach(self, ws: Any, seat: int | None) -> None:
        """Serve one routed websocket for ``seat``."""
        self.sockets.append((ws, seat))
        ws.on_message(lambda message: self.receive(ws, seat, json.loads(message)))
        ws.on_close(
            lambda *_: self.sockets.remove((ws, seat)) if (ws, seat) in self.sockets else None
        )

    def receive(self, ws: Any, seat: int | None, msg: dict[str, Any]) -> None:
        self.received.append(msg)
        kind = msg.get("type")
        if kind == "hello" and self.refuse_next_hello:
            code, message = self.refuse_next_hello
            self.refuse_next_hello = None
            ws.send(json.dumps({"type": "error", "code": code, "message": message}))
        elif kind in ("hello", "snapshot_request"):
            self.snapshot(ws, seat)
        elif kind == "ping":
            ws.send(json.dumps({"type": "pong"}))
        elif kind == "command":
            self.command(ws, seat, msg)

    def snapshot(self, ws: Any, seat: int | None, **carried: str) -> None:
        doc = self.doc(seat)
        self.sent[id(ws)] = doc
        ws.send(json.dumps({"type": "snapshot", "version": self.version, "doc": doc, **carried}))

    def command(self, ws: Any, seat: int | None, msg: dict[str, Any]) -> None:
        if self.drop_next_command:
            self.drop_next_command = False
            ws.close()
            return
        if self.refuse_next_command:
            code, message = self.refuse_next_command
            clause, self.refuse_next_command, self.refusal_clause = self.refusal_clause, None, None
            refusal = {"type": "error", "id": msg["id"], "code": code, "message": message}
            ws.send(json.dumps({**refusal, **({"clause": clause} if clause else {})}))
            return
        if msg["id"] in self.acked:
            ws.send(json.dumps({"type": "ack", "id": msg["id"], "version": self.version}))
            return
        try:
            self.play(seat, msg["cmd"])  # type: ignore[arg-type]
        except Exception as exc:  # RuleError carries a code; anything else is a test bug
            code = getattr(exc, "code", "internal")
            error = {"type": "error", "id": msg["id"], "code": code, "message": str(exc)}
            if getattr(exc, "clause", None):  # as the server sends a refusal's rule
                error["clause"] = exc.clause  # type: ignore[attr-defined]
            ws.send(json.dumps(error))
            return
        self.acked.add(msg["id"])
        # As the server does (docs/protocol.md): the patch that brings the move carries its
        # ack, so a page is never told "done" before it holds what the move did.
        self.broadcast(ack=(ws, msg["id"]))

    def broadcast(self, skew: int = 0, ack: tuple[Any, str] | None = None) -> None:
        """Send every socket its patch; ``skew`` shifts ``base`` to fake a missed patch;
        ``ack`` (a socket, a command id) rides on that socket's message."""
        for ws, seat in list(self.sockets):
            old = self.sent.get(id(ws))
            new = self.doc(seat)
            base = old["table"]["version"] + skew if old else None
            carried = {"ack": ack[1]} if ack is not None and ack[0] is ws else {}
            if old is None:
                self.snapshot(ws, seat, **carried)
                continue
            ops = jsonpatch.make_patch(old, new).patch
            self.sent[id(ws)] = new
            message = {"type": "patch", "base": base, "version": self.version, "ops": ops}
            ws.send(json.dumps({**message, **carried}))
