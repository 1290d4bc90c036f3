"""``make bench`` section "views and patches": server CPU per delivered message.

Plays a few random Norenberc games (and, in brief, Strasbourg games) with the engine and,
after every command, builds each seat's and one spectator's document and the JSON Patch
against the previous one exactly as a websocket connection does
(``server.realtime.views.deliver``). Prints CPU time per delivered message (document build +
diff + serialization; this thread's CPU time, not wall time, which a busy machine inflates),
how often a snapshot replaced a patch, and the average message size. Then the table chat's
cost per delivered message, next to a command's.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from server.chat.log import ChatLog, Entry
from server.engine import get_game
from server.metrics import VIEW_STATS
from server.realtime.views import Doc, build_document, clear_caches, deliver
from server.tables.data import SeatInfo, TableData, seed_hash

GAMES = ((2, "bench-a"), (3, "bench-b"), (4, "bench-c"), (5, "bench-d"))
# The other game, in brief: its documents are smaller and its commands more numerous.
OTHER_GAMES = {"strasbourg": ((3, "bench-a"), (4, "bench-b"), (5, "bench-c"))}


def _table(game_name: str, seats: int, seed: str) -> TableData:
    game = get_game(game_name)
    return TableData(
        id="bench",
        game=game_name,
        title=game.title,
        options=game.default_options(),
        seed=seed,
        seed_sha256=seed_hash(seed),
        status="playing",
        version=1,
        seats=tuple(SeatInfo(s, f"P{s}", None) for s in range(seats)),
        state=game.new(seats, seed, game.default_options()),
    )


def play_and_deliver(
    seats: int, seed: str, game_name: str = "norenberc"
) -> tuple[int, float, float]:
    """Play one random game, delivering every change to every seat and a spectator.

    Returns (commands played, CPU seconds spent delivering, CPU seconds spent building seat
    0's document again without the document cache: its game view made from the version's
    spectator view, as for a second presence at one version).
    """
    game = get_game(game_name)
    data = _table(game_name, seats, seed)
    viewers: list[int | None] = [*range(seats), None]
    connected = frozenset(range(seats))
    held: dict[int | None, tuple[Doc | None, int]] = {v: (None, 0) for v in viewers}
    rng = random.Random(seed)
    commands, deliver_cpu, build_cpu = 0, 0.0, 0.0
    while data.state is not None and game.result(data.state) is None:
        started = time.thread_time()
        for viewer in viewers:
            last, base = held[viewer]
            held[viewer] = (deliver(data, viewer, connected, last, base).doc, data.version)
        deliver_cpu += time.thread_time() - started
        started = time.thread_time()
        build_document(data, 0, connected)
        build_cpu += time.thread_time() - started
        seat = rng.choice(sorted(game.to_act(data.state)))
        legal = [c for c in game.legal(data.state, seat) if c.get("type") != "retract"]
        state, events = game.apply(
            data.state, seat, rng.choice(legal or game.legal(data.state, seat))
        )
        data = replace(data, state=state, version=data.version + 1, log=data.log + tuple(events))
        commands += 1
    return commands, deliver_cpu, build_cpu


def bench() -> None:
    """Print the figures (never asserted)."""
    command_ms = _bench_game("norenberc", GAMES, detailed=True)
    for game_name, games in OTHER_GAMES.items():
        _bench_game(game_name, games, detailed=False)
    _bench_chat(command_ms)


CHAT_MESSAGES = 2000
CHAT_READERS = 5  # four seats and a spectator


def _bench_chat(command_ms: float) -> None:
    """A chat message per delivered socket, next to a command's: what a process does once
    per message (add it to its copy of the log) and per connection (the ``chat`` message
    for that reader, ``ChatLog.since``), without the database read and the socket."""
    log = ChatLog()
    readers = [(True, True)] * (CHAT_READERS - 1) + [(False, True)]
    held = [0] * CHAT_READERS
    size, delivered = 0, 0
    started = time.thread_time()
    for seq in range(1, CHAT_MESSAGES + 1):
        text = f"message {seq}: back tonight, sorry for the slow week!"
        log.apply([Entry(seq, "text", "players", seq % 4, f"P{seq % 4}", text, None, 1.0)], set())
        for i, (seated, public) in enumerate(readers):
            message = log.since(held[i], seated, public)
            held[i] = log.newest
            if message is not None:
                size += len(message)
                delivered += 1
    chat_ms = 1000 * (time.thread_time() - started) / max(1, delivered)
    print(
        f"Table chat ({CHAT_MESSAGES} messages, {CHAT_READERS} readers): "
        f"{chat_ms:.4f} ms CPU per delivered message, {size / max(1, delivered):.0f} bytes "
        f"on average (a Norenberc command: {command_ms:.3f} ms per delivered message)"
    )


def _bench_game(game_name: str, games: tuple[tuple[int, str], ...], detailed: bool) -> float:
    """Print the game's figures; returns its CPU milliseconds per delivered message."""
    VIEW_STATS.reset()
    clear_caches()
    commands, deliver_cpu, build_cpu = 0, 0.0, 0.0
    for seats, seed in games:
        played, delivering, building = play_and_deliver(seats, seed, game_name)
        commands, deliver_cpu, build_cpu = (
            commands + played,
            deliver_cpu + delivering,
            build_cpu + building,
        )
    messages = VIEW_STATS.messages
    per_message_ms = 1000 * deliver_cpu / max(1, messages)
    title = get_game(game_name).title
    low, high = games[0][0], games[-1][0]
    if not detailed:
        print(
            f"{title} ({len(games)} games, {low}-{high} seats, {messages} messages): "
            f"{per_message_ms:.3f} ms CPU per delivered message, "
            f"{VIEW_STATS.bytes_sent / max(1, messages):.0f} bytes on average"
        )
        return per_message_ms
    print(f"games: {len(games)} random {title} games ({low}-{high} seats), {commands} commands")
    print(f"messages delivered (seats + 1 spectator): {messages}")
    print(f"CPU per delivered message (build + diff + JSON): {per_message_ms:.3f} ms")
    build_ms = 1000 * build_cpu / max(1, commands)
    print(f"  building one seat's document (from the version's spectator view): {build_ms:.3f} ms")
    share = VIEW_STATS.snapshots / max(1, messages)
    print(f"snapshots instead of patches: {VIEW_STATS.snapshots} ({share:.1%})")
    print(f"average message size: {VIEW_STATS.bytes_sent / max(1, messages):.0f} bytes")
    return per_message_ms


if __name__ == "__main__":
    bench()
