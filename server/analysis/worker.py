"""The analysis's child process: positions are computed away from the app's event loop.

A position is seconds of pure Python. Computed in a thread of the app process it held the
GIL the event loop needs, and every await of the loop waited up to the interpreter's switch
interval: the command path at 20 busy tables got a third slower while a game was analysed
(docs/bots.md, "The live tables while an analysis runs"). So each position goes to one child
process (``Worker``), started with "spawn" (a fork of a process that runs an event loop and
threads would copy locks other threads hold), only when there is work, and ended when there
is none or the job stops.

The child keeps the last record it replayed, so a game is replayed once, not per position.
It keeps to the CPU share itself (``Throttle`` after every play-out, on the child's own CPU
time) and answers with the figures and the CPU seconds they took. The parent ends a position
by killing the child (a shutdown, a lost lease): a position half done is computed again
later, and its figures are deterministic. A child that dies (killed by the OS, a crash)
raises ``ChildDied`` in the parent; the next position starts a fresh child.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from server.engine import RuleError

from .compute import Params, Replayed, analyse_step, replay_record

JOIN = 10.0  # seconds a child that was told to end (or killed) is given to exit


class Stopped(Exception):
    """The throttle's stop event was set while a position ran."""


class Throttle:
    """Keeps a thread's CPU time within ``share`` of one core by sleeping between pieces of
    work: after a piece that took ``busy`` CPU seconds it sleeps ``busy * (1 - share) /
    share``. ``stop`` (a threading.Event) ends the sleep and the work early."""

    def __init__(self, share: float, stop: threading.Event) -> None:
        self.share, self.stop = share, stop
        self.mark = time.thread_time()
        self.busy = 0.0  # CPU seconds of work so far
        self.slept = 0.0

    def __call__(self) -> None:
        now = time.thread_time()
        busy, self.mark = now - self.mark, now
        self.busy += busy
        if self.share < 1:
            pause = busy * (1 - self.share) / self.share
            self.slept += pause
            if self.stop.wait(pause):
                raise Stopped()
        elif self.stop.is_set():
            raise Stopped()
        self.mark = time.thread_time()


class ChildDied(Exception):
    """The child process ended before it answered (killed, by the OS or by ``kill``)."""


class PositionFailed(Exception):
    """The child could not compute the position: the record does not replay
    (``unreplayable``) or the computation raised; the message is the child's traceback."""

    def __init__(self, text: str, *, unreplayable: bool) -> None:
        super().__init__(text)
        self.unreplayable = unreplayable


@dataclass(frozen=True)
class Computed:
    """A position as the child answers it."""

    figures: dict[str, Any]
    cpu: float  # the child's CPU seconds on it (a replay included)
    pid: int  # the child that computed it
    replayed: bool  # whether the child replayed the record first (a new game, a new child)


@dataclass(frozen=True)
class _Failure:
    text: str
    unreplayable: bool


class Worker:
    """One child process at a time computing positions (``compute``), started when one is
    asked for; ``kill`` ends it at once, ``close`` when it is idle."""

    def __init__(self) -> None:
        self.child: _Child | None = None
        self.pids: list[int] = []  # every child started here, in order (tests read it)

    @property
    def pid(self) -> int | None:
        """The live child's process id, if there is one."""
        return self.child.process.pid if self.child is not None else None

    async def compute(
        self, record: dict[str, Any], step: int, params: Params, share: float
    ) -> Computed:
        """Position ``step`` of ``record``, computed in the child within ``share`` of a
        core. ChildDied when the child ends first, PositionFailed when it cannot."""
        child = self.child
        if child is None:
            child = self.child = _Child.start()
            self.pids.append(child.pid)
        child.busy = True  # before the thread starts, so that ``close`` never shuts the pipe
        answer = await asyncio.to_thread(child.exchange, (record, step, params, share))
        if isinstance(answer, Computed):
            return answer
        if isinstance(answer, _Failure):
            raise PositionFailed(answer.text, unreplayable=answer.unreplayable)
        if self.child is child:
            self.child = None
        raise ChildDied(f"the analysis child {child.pid} ended (exit code {answer})")

    def kill(self) -> None:
        """End the child now, whatever it computes (``close`` then waits for its exit)."""
        if self.child is not None:
            self.child.process.kill()

    async def close(self) -> None:
        """End the child: told to when it is idle (its end of the pipe closes), killed when
        it is computing; return once it has exited."""
        child, self.child = self.child, None
        if child is None:
            return
        if child.busy:
            child.process.kill()  # the exchange thread sees the end of the pipe and returns
        else:
            child.conn.close()
        await asyncio.to_thread(child.process.join, JOIN)
        if child.process.exitcode is None:
            child.process.kill()
            await asyncio.to_thread(child.process.join, JOIN)


class _Child:
    """A started child process and the parent's end of its pipe."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process, self.conn = process, conn
        self.busy = False  # an exchange is under way (set and cleared by its thread)

    @property
    def pid(self) -> int:
        return int(self.process.pid or 0)

    @classmethod
    def start(cls) -> _Child:
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(
            target=serve, args=(theirs, os.getpid()), name="guildhall-analysis", daemon=True
        )
        process.start()
        theirs.close()  # only the child holds its end now: its exit ends our reads
        return cls(process, mine)

    def exchange(self, request: tuple[Any, ...]) -> Computed | _Failure | int | None:
        """Send one position and wait for the answer (in a worker thread: the wait holds no
        GIL); the child's exit code instead when it ended first (it is waited for, so no
        zombie stays)."""
        try:
            self.conn.send(request)
            answer: Computed | _Failure = self.conn.recv()
            return answer
        except (EOFError, OSError):
            self.process.join(JOIN)
            return self.process.exitcode
        finally:
            self.busy = False


# ------------------------------------------------------------------ in the child


def serve(conn: Connection, parent: int) -> None:
    """The child's loop: a position in, its figures out, until the parent closes the pipe."""
    # ^C reaches the whole process group; the parent ends the child itself as it stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    last: tuple[dict[str, Any], Replayed] | None = None
    while True:
        try:
            record, step, params, share = conn.recv()
        except EOFError:
            return
        answer: Computed | _Failure
        try:
            answer, last = _position(record, step, params, share, last, parent)
        except Exception:
            answer = _Failure(traceback.format_exc(), unreplayable=False)
        conn.send(answer)


def _position(
    record: dict[str, Any],
    step: int,
    params: Params,
    share: float,
    last: tuple[dict[str, Any], Replayed] | None,
    parent: int,
) -> tuple[Computed | _Failure, tuple[dict[str, Any], Replayed] | None]:
    started = time.thread_time()
    throttle = Throttle(share, threading.Event())  # nothing sets it: the parent kills instead
    if last is not None and last[0] == record:
        replayed = False
    else:
        replayed = True
        try:
            last = (record, replay_record(record))
        except (RuleError, KeyError, ValueError):
            return _Failure(traceback.format_exc(), unreplayable=True), None
        throttle()  # the replay counts towards the share too

    def pause() -> None:
        throttle()
        if os.getppid() != parent:  # the parent died: nobody will read the figures
            os._exit(0)

    figures = analyse_step(record, last[1], step, params, pause=pause)
    cpu = time.thread_time() - started
    return Computed(figures, cpu, os.getpid(), replayed), last
