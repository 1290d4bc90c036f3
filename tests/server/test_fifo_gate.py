"""The gate in front of the command path's connection pool serves commands in arrival order."""

from __future__ import annotations

import asyncio

import pytest

from server.store.fifo import FifoGate


async def settle() -> None:
    """Let every ready task run until each waits again."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_freed_slot_goes_to_the_oldest_waiter_not_to_a_newcomer() -> None:
    """The pool's own queue let a command that arrived just as a connection came back take
    it, sending the woken waiter to the back of the line."""
    gate = FifoGate(1)
    order: list[str] = []

    async def waiter() -> None:
        async with gate:
            order.append("waiter")

    await gate.__aenter__()
    order.append("first")
    waiting = asyncio.create_task(waiter())
    await settle()
    assert gate.waiting == 1
    await gate.__aexit__(None, None, None)
    # Straight back in, before the woken waiter has run: it must queue behind it.
    await gate.__aenter__()
    order.append("newcomer")
    await gate.__aexit__(None, None, None)
    await waiting
    assert order == ["first", "waiter", "newcomer"]


async def test_holders_never_exceed_the_slots_and_enter_in_arrival_order() -> None:
    gate = FifoGate(3)
    inside, most = 0, 0
    entered: list[int] = []

    async def user(n: int) -> None:
        nonlocal inside, most
        async with gate:
            entered.append(n)
            inside += 1
            most = max(most, inside)
            await settle()  # held longer than arrivals are apart: a queue forms
            inside -= 1

    tasks = []
    for n in range(40):
        tasks.append(asyncio.create_task(user(n)))
        await asyncio.sleep(0)  # arrivals spread over the others' holding
    await asyncio.gather(*tasks)
    assert most == 3
    assert entered == list(range(40))
    assert gate.waiting == 0


async def test_a_cancelled_waiter_loses_nothing_and_leaks_no_slot() -> None:
    gate = FifoGate(1)
    order: list[str] = []

    async def user(name: str) -> None:
        async with gate:
            order.append(name)

    await gate.__aenter__()
    handed = asyncio.create_task(user("handed"))
    plain = asyncio.create_task(user("plain"))
    last = asyncio.create_task(user("last"))
    await settle()
    plain.cancel()  # cancelled while still waiting
    await settle()
    await gate.__aexit__(None, None, None)  # the slot is handed to ``handed`` …
    handed.cancel()  # … which is cancelled before it could run: it must pass it on
    await asyncio.gather(handed, plain, last, return_exceptions=True)
    assert handed.cancelled() and plain.cancelled()
    assert order == ["last"]
    # The one slot is free again: taken at once, without waiting.
    await asyncio.wait_for(gate.__aenter__(), timeout=1)
    await gate.__aexit__(None, None, None)


def test_a_gate_has_at_least_one_slot() -> None:
    with pytest.raises(ValueError):
        FifoGate(0)
