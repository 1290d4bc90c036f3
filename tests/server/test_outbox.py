"""The outbox of one connection: frames in order, nothing waits to queue, and a client that
does not take its frames (a send that never completes, or a full queue) is dropped."""

from __future__ import annotations

import asyncio

import pytest

from server.realtime.outbox import TOO_SLOW, TOO_SLOW_CLOSE, Outbox


class FakeSocket:
    """Records what is sent; while ``stuck``, sends and closes wait as uvicorn's do for a
    transport that has no room."""

    def __init__(self, stuck: bool = False) -> None:
        self.sent: list[str] = []
        self.closes: list[tuple[int, str]] = []
        self.room = asyncio.Event()
        if not stuck:
            self.room.set()

    async def send_text(self, text: str) -> None:
        await self.room.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.room.wait()
        self.closes.append((code, reason))


def outbox(ws: FakeSocket, send_timeout: float = 5.0, capacity: int = 8) -> Outbox:
    return Outbox(ws, send_timeout, capacity)  # type: ignore[arg-type]  # a stand-in socket


async def test_frames_go_out_in_order_and_nothing_after_a_close() -> None:
    ws = FakeSocket()
    box = outbox(ws)
    box.put("a")
    box.put("b")
    box.close(4403, "seat_lost")
    box.put("c")
    assert await box.flush() is False  # the close ends the connection
    assert ws.sent == ["a", "b"] and ws.closes == [(4403, "seat_lost")]
    assert box.dropped is None


async def test_a_client_that_reads_gets_everything_and_the_connection_goes_on() -> None:
    ws = FakeSocket()
    box = outbox(ws)
    for text in "xyz":
        box.put(text)
    assert await box.flush() is True
    assert ws.sent == ["x", "y", "z"] and len(box) == 0


async def test_a_send_that_does_not_complete_in_time_drops_the_client() -> None:
    ws = FakeSocket(stuck=True)
    box = outbox(ws, send_timeout=0.2)
    box.put("a")
    box.put("b")  # putting never waits, even with the socket stuck
    async with asyncio.timeout(5):
        assert await box.flush() is False
    assert box.dropped is not None and "0.2 s" in box.dropped
    assert ws.sent == [] and ws.closes == []  # the close could not go out either: cut
    box.put("late")
    assert len(box) == 0


async def test_a_full_queue_drops_the_client_with_the_too_slow_close() -> None:
    ws = FakeSocket()
    box = outbox(ws, capacity=4)
    for n in range(6):
        box.put(str(n))  # the writer has not run: the queue fills up
    assert await box.flush() is False
    assert box.dropped == "4 frames were waiting"
    assert ws.sent == [] and ws.closes == [(TOO_SLOW_CLOSE, TOO_SLOW)]


async def test_the_reader_waits_for_room_only_while_half_the_queue_is_taken() -> None:
    ws = FakeSocket(stuck=True)
    box = outbox(ws, capacity=4)
    box.put("a")
    await asyncio.wait_for(box.room(), 1)  # one of four: room
    box.put("b")
    waiting = asyncio.ensure_future(box.room())
    await asyncio.sleep(0.05)
    assert not waiting.done()
    writer = asyncio.ensure_future(box.flush())
    ws.room.set()  # the client reads again
    await asyncio.wait_for(waiting, 1)
    assert await asyncio.wait_for(writer, 1) is True
    assert ws.sent == ["a", "b"]


class FakeServerProtocol:
    """What the outbox reads of uvicorn's websocket protocol: the ``writable`` flag its send
    waits for, and the transport a dropped client's socket is cut on."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.transport = self
        self.aborted = False

    async def receive(self) -> dict[str, str]:
        raise AssertionError("the outbox never receives")

    def abort(self) -> None:
        self.aborted = True


class UvicornLikeSocket(FakeSocket):
    """A socket whose send waits, as uvicorn's does, only while its transport has no room."""

    def __init__(self) -> None:
        super().__init__()
        self.protocol = FakeServerProtocol()
        self._receive = self.protocol.receive
        self.room = self.protocol.writable


async def test_a_frame_the_transport_takes_at_once_arms_no_timer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    timers: list[float] = []
    real_timeout = asyncio.timeout

    def counted(delay: float | None) -> asyncio.Timeout:
        timers.append(delay or 0.0)
        return real_timeout(delay)

    monkeypatch.setattr(asyncio, "timeout", counted)
    ws = UvicornLikeSocket()
    box = outbox(ws)
    for text in "abc":
        box.put(text)
    assert await box.flush() is True
    assert ws.sent == ["a", "b", "c"] and timers == []
    box.close(4403, "seat_lost")  # a close frame still goes out under the timer
    assert await box.flush() is False
    assert ws.closes == [(4403, "seat_lost")] and timers == [5.0]


async def test_a_transport_without_room_still_drops_a_client_that_does_not_read() -> None:
    ws = UvicornLikeSocket()
    box = outbox(ws, send_timeout=0.2)
    box.put("a")
    assert await box.flush() is True
    ws.protocol.writable.clear()  # the peer stopped reading: uvicorn paused its writes
    box.put("b")
    async with asyncio.timeout(5):
        assert await box.flush() is False
    assert box.dropped is not None and "0.2 s" in box.dropped
    assert ws.sent == ["a"] and ws.protocol.aborted
