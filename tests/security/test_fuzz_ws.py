"""A websocket fuzzer against a real uvicorn: garbage and altered legal commands in every phase
of both games, at least 1,000 frames in the fast tier and 5,000 in the soak tier (``make soak``;
``GUILDHALL_SOAK_SCALE`` multiplies).

Every seat of each table is a person played by this test. Before a legal move the acting
seat (and now and then another seat or a spectator) sends a burst of bad frames, each followed
by a ``ping``: every frame must get exactly one ``error`` with a clear code before the
``pong`` (zero ``internal_error``, and the socket is never closed below the frame cap), the
table version must not move, and every seat's fresh snapshot must equal the one before the
burst. The tables then play on to the end, and the stored record holds exactly the commands
that were acknowledged. The figures (frames, errors by code, time) are printed.

The soak tier bursts before every move; the fast tier before every move until a table has
had its share of the frames, then before the first two moves of each phase only.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.support.acks import acked_id, is_ack
from tests.web.conftest import ServerThread

from .mutations import mutate


@dataclass(frozen=True)
class Size:
    """How much a run fuzzes: at least ``min_frames`` frames, shared out among the tables:
    24-frame bursts before every step until a table has sent its share; after that, 4-frame
    bursts before every step (``per_phase`` None) or only before the first ``per_phase`` steps
    of each phase, the other steps played without one."""

    min_frames: int
    per_phase: int | None


# Five hundred frames a game reach every error code asserted below and, with the bursts after
# them, every phase of both games (the tables play to their end whatever the size); bursts
# before every step of whole games, 5,000 frames and more, find rarer combinations: soak tier.
FAST = Size(min_frames=1000, per_phase=2)
FULL = Size(
    min_frames=5000 * max(1, int(os.environ.get("GUILDHALL_SOAK_SCALE", "1"))), per_phase=None
)
CAP = 4096  # the frame cap of the fuzzed server
TABLES = [("norenberc", 3), ("strasbourg", 3)]
MAX_STEPS = 2000
READ_SECONDS = 10
FRAME_IDS = itertools.count()  # a fresh id per frame: a repeated id of a stored command is
# answered with its first ack again, as the protocol says, and would look like a new one
# Types whose well-formed frames are answered without an error; the fuzzer sends none of them
# as garbage (a ``ping`` is its own end-of-answers marker).
ANSWERED_TYPES = ("ping", "snapshot_request", "hello")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    from server.app import create_app
    from server.settings import Settings
    from server.store.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz-ws') / 'guildhall.db'}"
    migrating = threading.Thread(target=upgrade, args=(url,))  # Alembic runs its own loop
    migrating.start()
    migrating.join()
    settings = Settings(
        database_url=url, secret_key="fuzz", bot_delay=0.0, rate_limit=1e6, max_message_bytes=CAP
    )
    with ServerThread(create_app(settings)) as running:
        yield running


class Seat:
    """One websocket of one seat (or a spectator), holding the document it was sent."""

    def __init__(self, server: ServerThread, table_id: str, token: str | None) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}"
        # No cap on unread messages: the seats read only what they wait for, and a reader
        # thread stopped by a full queue would not see the server's close frame either, so
        # each close at a table's end would wait out the whole close timeout (10 s).
        self.ws: ClientConnection = connect(url, max_size=2**24, max_queue=None).__enter__()
        self.token = token
        self.doc: dict[str, Any] = {}
        self.ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
        self.read_until({"snapshot"})

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=READ_SECONDS))
        if message["type"] == "snapshot":
            self.doc = message["doc"]
        elif message["type"] == "patch":
            import jsonpatch

            self.doc = jsonpatch.apply_patch(self.doc, message["ops"])
        return message

    def read_until(self, types: set[str]) -> dict[str, Any]:
        while (message := self.read())["type"] not in types:
            pass
        return message

    def answers(self, burst: list[str | bytes]) -> list[dict[str, Any]]:
        """Send the frames then a ping; every answer that came back before the pong."""
        for frame in burst:
            self.ws.send(frame)
        self.ws.send('{"type":"ping"}')
        replies = []
        while (message := self.read())["type"] != "pong":
            # Document updates are checked through snapshots; one carrying an ack answers.
            if message["type"] not in ("presence", "patch", "snapshot") or is_ack(message):
                replies.append(message)
        return replies

    def snapshot(self) -> dict[str, Any]:
        self.ws.send('{"type":"snapshot_request"}')
        self.read_until({"snapshot"})
        return self.doc

    def play(self, cmd: dict[str, Any], command_id: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "command", "id": command_id, "cmd": cmd}))
        while not (is_ack(message := self.read()) or message["type"] == "error"):
            pass
        return message


def garbage(rng: random.Random, legal: list[dict[str, Any]], seat: int) -> str | bytes:
    """One bad frame: raw junk, a bad message, or a legal command altered."""
    kind = rng.randrange(12)
    if kind == 0:
        return "".join(
            chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0xD7FF)]))
            for _ in range(rng.randrange(0, 40))
        )
    if kind == 1:
        return rng.choice(["", "{", "[]", "null", "1", '"x"', "{}", '{"type":1}', "\u0000"])
    if kind == 2:
        depth = rng.choice([33, 200, 1500])
        return "[" * depth + "]" * depth
    if kind == 3:
        return json.dumps({"type": "command", "id": "big", "cmd": {"type": "x" * (CAP + 10)}})
    if kind == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
    if kind == 5:
        token = rng.choice(["nope", "\ud800", "a\u0000", "x" * 201, 7])
        return json.dumps({"type": "hello", "token": token})
    if kind == 6:
        bad: dict[str, Any] = rng.choice(
            [
                {"id": 7},
                {"id": ""},
                {"id": "x" * 65},
                {"cmd": [1]},
                {"cmd": "plan"},
                {"seat": "0"},
                {"seat": seat + 1},
                {"id": "\ud800"},
                {},
            ]
        )
        frame = {"type": "command", "id": f"m{next(FRAME_IDS)}", "cmd": rng.choice(legal), **bad}
        return json.dumps(frame)
    if kind == 7:
        return json.dumps({"type": rng.choice(["Command", "cmd", "", None, 3, ["command"]])})
    # Most frames: a legal command of this very moment with one thing wrong.
    cmd = mutate(rng.choice(legal), rng)
    return json.dumps({"type": "command", "id": f"f{next(FRAME_IDS)}", "cmd": cmd})


def start_table(api: httpx.Client, game: str, seats: int) -> tuple[str, list[str]]:
    created = api.post("/api/tables", json={"game": game, "seats": seats, "name": "P0"}).json()
    tokens = [created["token"]]
    for seat in range(1, seats):
        joined = api.post(
            f"/api/tables/{created['table_id']}/join",
            json={"name": f"P{seat}", "invite": created["invite"]},
        )
        tokens.append(joined.json()["token"])
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    assert api.post(f"/api/tables/{created['table_id']}/start", headers=auth).status_code == 200
    return created["table_id"], tokens


@pytest.mark.slow
@pytest.mark.parametrize(
    "size", [pytest.param(FAST, id="fast"), pytest.param(FULL, id="full", marks=pytest.mark.soak)]
)
def test_thousands_of_bad_frames_in_every_phase_change_nothing_and_every_table_finishes(
    server: ServerThread, size: Size
) -> None:
    started = time.perf_counter()
    rng = random.Random("fuzz-ws")
    codes: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    frames = 0
    api = httpx.Client(base_url=server.url)
    games_played = 0
    try:
        while frames < size.min_frames or games_played < len(TABLES):
            game, seats = TABLES[games_played % len(TABLES)]
            table_id, tokens = start_table(api, game, seats)
            players = [Seat(server, table_id, token) for token in tokens]
            spectator = Seat(server, table_id, None)
            share = frames + size.min_frames // len(TABLES)  # this table's frames end here
            acked: list[dict[str, Any]] = []
            for step in range(MAX_STEPS):
                first = players[0].snapshot()
                if first["table"]["status"] == "finished":
                    break
                seat = rng.choice(first["game"]["to_act"])
                actor = players[seat]
                phase = f"{game}:{first['game'].get('phase')}"
                per_step = 24 if frames < share else 4
                if (
                    frames >= share
                    and size.per_phase is not None
                    and phases[phase] >= size.per_phase
                ):
                    # Enough bursts in this phase: play on, from the actor's fresh document.
                    if seat != 0:
                        actor.snapshot()
                    cmd = rng.choice(actor.doc["game"]["legal"])
                    outcome = actor.play(cmd, f"s{step}")
                    assert is_ack(outcome), (cmd, outcome)
                    acked.append(cmd)
                    continue
                version = api.get(f"/api/tables/{table_id}").json()["version"]
                before = [first, *(p.snapshot() for p in players[1:])]
                legal = actor.doc["game"]["legal"]
                phases[phase] += 1
                # Bursts per sender, pipelined: all its frames, then one ping.
                bursts: dict[int, list[str | bytes]] = {}
                senders = [*players, spectator]
                for _ in range(per_step):
                    who = seat if rng.random() < 0.8 else rng.randrange(len(senders))
                    frame = garbage(rng, legal, seat)
                    if not (isinstance(frame, str) and _answered_type(frame)):
                        bursts.setdefault(who, []).append(frame)
                stored = False
                for who, burst in bursts.items():
                    replies = senders[who].answers(burst)
                    frames += len(burst)
                    for reply in replies:
                        if is_ack(reply):
                            # The alteration left an exactly legal command (an informational
                            # field dropped, say): it was rightly stored, the only way the
                            # table may move here.
                            acked.append(sent_command(burst, str(acked_id(reply))))
                            stored = True
                        else:
                            assert reply["type"] == "error", reply
                            codes[reply["code"]] += 1
                    assert len(replies) == len(burst), (burst, replies)
                if stored:
                    continue
                assert api.get(f"/api/tables/{table_id}").json()["version"] == version
                assert [p.snapshot() for p in players] == before
                cmd = rng.choice(legal)
                outcome = actor.play(cmd, f"s{step}")
                assert is_ack(outcome), (cmd, outcome)
                acked.append(cmd)
            else:
                pytest.fail(f"{game} table {table_id} did not finish in {MAX_STEPS} steps")
            record = api.get(f"/api/tables/{table_id}/record").json()
            assert [entry["cmd"] for entry in record["commands"]] == acked
            for p in [*players, spectator]:
                p.ws.close()
            games_played += 1
    finally:
        api.close()
    seconds = time.perf_counter() - started
    print(
        f"\nfuzzed {frames} frames at {games_played} tables in {seconds:.1f} s; "
        f"errors by code: {dict(codes.most_common())}; fuzzed steps by phase: {dict(phases)}"
    )
    assert codes["internal_error"] == 0
    assert server.errors.lines == []  # nothing failed on the server's side either
    assert frames >= size.min_frames
    assert {"bad_json", "bad_command", "bad_message", "too_deep", "bad_text"} <= set(codes)
    assert "message_too_large" in codes and "unknown_message" in codes


def sent_command(burst: list[str | bytes], command_id: str) -> dict[str, Any]:
    """The command of the frame in ``burst`` whose id is ``command_id``."""
    for frame in burst:
        if isinstance(frame, str) and f'"{command_id}"' in frame:
            message = json.loads(frame)
            if message.get("id") == command_id:
                return dict(message["cmd"])
    raise AssertionError(f"ack for a command never sent: {command_id}")


def _answered_type(frame: str) -> bool:
    try:
        raw = json.loads(frame)
    except (ValueError, RecursionError):
        return False
    return isinstance(raw, dict) and raw.get("type") in ANSWERED_TYPES and "token" not in raw
