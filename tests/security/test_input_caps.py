"""The abuse caps against real ``guildhall serve`` processes (SQLite; Postgres with two
processes, where each limit must hold for both together): tables a minute per address,
tables nobody else joined (per address and in all), tables only bots play, and the bots'
thinking budget. Client addresses come from ``X-Forwarded-For`` through a trusted proxy
(127.0.0.1), so that one test can speak for several addresses."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server.devtools.load.servers import ServerProcess
from tests.security.seat_actors import TLS, WAIT, Deployment, deployment

pytestmark = pytest.mark.slow

CAPS = {
    "GUILDHALL_CREATE_RATE": "4",
    "GUILDHALL_UNJOINED_PER_ADDRESS": "2",
    "GUILDHALL_UNJOINED_TABLES": "6",
    "GUILDHALL_BOT_TABLES": "1",
    "GUILDHALL_TRUSTED_PROXIES": "127.0.0.1",
    # Bots that play slowly: an all-bot table must not finish while the test looks at it.
    "GUILDHALL_BOT_DELAY": "2",
}
DEPLOYMENTS = [
    pytest.param(("sqlite", 1), id="sqlite-1"),
    pytest.param(("postgres", 2), id="postgres-2", marks=pytest.mark.postgres),
]


@pytest.fixture(scope="module", params=DEPLOYMENTS)
def dep(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    kind, processes = request.param
    with deployment(kind, processes, tmp_path_factory.mktemp("caps"), **CAPS) as running:
        yield running


async def call(
    server: ServerProcess,
    method: str,
    path: str,
    body: Any = None,
    address: str = "192.0.2.1",
    token: str | None = None,
) -> tuple[int, dict[str, Any]]:
    headers = {"X-Forwarded-For": address}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, verify=TLS) as client:
        response = await client.request(method, path, json=body, headers=headers)
    return response.status_code, response.json()


async def create(
    server: ServerProcess, address: str, bots: list[str | None] | None = None
) -> tuple[int, dict[str, Any]]:
    body = {"game": "norenberc", "seats": 3, "name": "Anna", "bots": bots or []}
    return await call(server, "POST", "/api/tables", body, address)


async def join(server: ServerProcess, made: dict[str, Any], address: str) -> dict[str, Any]:
    body = {"name": "Bea", "invite": made["invite"]}
    status, joined = await call(
        server, "POST", f"/api/tables/{made['table_id']}/join", body, address
    )
    assert status == 201, joined
    return joined


async def test_the_creation_rate_holds_for_all_processes_together(dep: Deployment) -> None:
    address = "198.51.100.10"
    for k in range(4):  # alternating processes, each table joined (only the rate counts)
        status, made = await create(dep.server(k), address)
        assert status == 201, made
        await join(dep.server(k + 1), made, "198.51.100.99")
    for k in range(len(dep.servers)):
        status, refused = await create(dep.server(k), address)
        assert (status, refused["code"]) == (429, "too_many_tables"), refused
        assert re.search(r"try again in \d+ s", refused["message"]), refused
    # Another address is not held back, on any process.
    status, made = await create(dep.server(1), "198.51.100.11")
    assert status == 201
    await join(dep.server(0), made, "198.51.100.99")


async def test_an_address_may_leave_only_a_few_tables_unjoined(dep: Deployment) -> None:
    address = "203.0.113.20"
    made = [(await create(dep.server(k), address))[1] for k in range(2)]
    assert all("table_id" in m for m in made), made
    for k in range(len(dep.servers)):
        status, refused = await create(dep.server(k), address)
        assert (status, refused["code"]) == (429, "too_many_unjoined_tables"), refused
    # Somebody joins one of them (through the other process): the address may make another.
    await join(dep.server(1), made[0], "203.0.113.21")
    status, third = await create(dep.server(0), address)
    assert status == 201, third
    for table in (made[1], third):  # joined, so that they do not count in the next tests
        await join(dep.server(0), table, "203.0.113.21")


async def test_creations_at_the_same_moment_on_every_process_are_counted_together(
    dep: Deployment,
) -> None:
    address = "203.0.113.40"
    answers = await asyncio.gather(*(create(dep.server(k), address) for k in range(8)))
    made = [body for status, body in answers if status == 201]
    refused = sorted({(status, body["code"]) for status, body in answers if status != 201})
    assert len(made) == 2 and refused == [(429, "too_many_unjoined_tables")], answers
    for table in made:
        await join(dep.server(1), table, "203.0.113.41")


async def test_at_most_one_table_plays_with_bots_alone(dep: Deployment) -> None:
    async def all_bot_table(k: int, address: str = "192.0.2.30") -> tuple[str, str]:
        """A started-or-ready table on which bots will play every seat (a guest took seat 1
        and left it to a bot, so it is not an unjoined table)."""
        status, made = await create(dep.server(k), address, [None, None, "greedy"])
        assert status == 201, made
        guest = await join(dep.server(k + 1), made, "192.0.2.99")
        table = made["table_id"]
        for token, seat in ((guest["token"], 1), (made["token"], 0)):
            status, body = await call(
                dep.server(k), "POST", f"/api/tables/{table}/seats/{seat}/bot",
                {"kind": "greedy"}, token=token,
            )  # fmt: skip
            assert status == 200, body
        return table, made["token"]

    first, first_token = await all_bot_table(0)
    status, body = await call(
        dep.server(0), "POST", f"/api/tables/{first}/start", token=first_token
    )
    assert status == 200, body
    second, second_token = await all_bot_table(1)
    for k in range(len(dep.servers)):
        status, refused = await call(
            dep.server(k), "POST", f"/api/tables/{second}/start", token=second_token
        )
        assert (status, refused["code"]) == (503, "too_many_bot_tables"), refused
        status, summary = await call(dep.server(k), "GET", f"/api/tables/{second}")
        assert summary["status"] == "open"
    # The creator of the first comes back to her seat: the second may start now.
    status, body = await call(
        dep.server(1), "POST", f"/api/tables/{first}/seats/0/reclaim", token=first_token
    )
    assert status == 200, body
    status, body = await call(
        dep.server(1), "POST", f"/api/tables/{second}/start", token=second_token
    )
    assert status == 200, body
    # ...and the first creator cannot leave her seat to a bot again while the second plays.
    status, refused = await call(
        dep.server(0), "POST", f"/api/tables/{first}/seats/0/bot", {"kind": "greedy"},
        token=first_token,
    )  # fmt: skip
    assert (status, refused["code"]) == (503, "too_many_bot_tables"), refused
    status, summary = await call(dep.server(0), "GET", f"/api/tables/{first}")
    assert summary["seats"][0]["bot"] is None  # she still plays it
    # Someone from another address, with no such table, is not refused because of hers.
    third, third_token = await all_bot_table(0, "192.0.2.39")
    status, body = await call(
        dep.server(1), "POST", f"/api/tables/{third}/start", token=third_token
    )
    assert status == 200, body


async def test_the_server_holds_only_so_many_unjoined_tables(dep: Deployment) -> None:
    # Six unjoined tables in all, two from each of three addresses (the others are joined).
    for n in range(3):
        for k in range(2):
            status, made = await create(dep.server(k), f"10.9.{n}.1")
            assert status == 201, made
    # An address with none still gets its first; its second meets the total.
    status, made = await create(dep.server(0), "10.9.7.1")
    assert status == 201, made
    for k in range(len(dep.servers)):
        status, refused = await create(dep.server(k), "10.9.7.1")
        assert (status, refused["code"]) == (503, "server_full"), refused


async def test_table_acts_are_counted_for_all_processes_together(dep: Deployment) -> None:
    """Ten acts of one seat token a minute, wherever they land; then every process refuses
    the eleventh, with the wait, and the table is left as it was."""
    # Three people and no bot: nothing but these acts may move the table's version.
    status, made = await create(dep.server(0), "198.51.100.60")
    assert status == 201, made
    await join(dep.server(1), made, "198.51.100.61")
    await join(dep.server(0), made, "198.51.100.62")
    table, token = made["table_id"], made["token"]
    status, body = await call(dep.server(0), "POST", f"/api/tables/{table}/start", token=token)
    assert status == 200, body
    for k in range(5):  # a pause proposed and withdrawn: two acts, each on another process
        status, body = await call(
            dep.server(k), "POST", f"/api/tables/{table}/pause", {}, token=token
        )
        assert status == 200, body
        proposal = {"proposal": body["clock"]["proposal"]["id"]}
        status, body = await call(
            dep.server(k + 1), "POST", f"/api/tables/{table}/pause/decline", proposal, token=token
        )
        assert status == 200, body
    version = body["version"]
    for k in range(len(dep.servers)):
        status, refused = await call(
            dep.server(k), "POST", f"/api/tables/{table}/pause", {}, token=token
        )
        assert (status, refused["code"]) == (429, "rate_limited"), refused
        assert 0 < refused["retry_after"] <= 60
        status, summary = await call(dep.server(k), "GET", f"/api/tables/{table}")
        assert summary["version"] == version


# -------------------------------------------------------------------- the bots' budget

BOT_TABLES = 3
BUDGET = 0.1  # seconds of search a second: a twentieth of one decision's full search


@pytest.fixture(scope="module")
def thin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    env = {
        "GUILDHALL_BOT_CPU": str(BUDGET),
        "GUILDHALL_BOT_DELAY": "0",
        "GUILDHALL_BOT_TABLES": str(BOT_TABLES),
        # Each table is made from an address of its own (its X-Forwarded-For), so the
        # address's share of the bot tables leaves the total to the budget under test.
        "GUILDHALL_TRUSTED_PROXIES": "127.0.0.1",
    }
    with deployment("sqlite", 1, tmp_path_factory.mktemp("bot-cpu"), **env) as running:
        yield running


def metric(text: str, name: str, label: str) -> float:
    found = re.search(rf'^{name}{{search="{label}"}} (\S+)$', text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def test_searching_bots_think_less_when_the_budget_is_spent_and_never_stall(
    thin: Deployment,
) -> None:
    server = thin.server(0)
    tables = []
    for n in range(BOT_TABLES):
        status, made = await create(server, f"192.0.2.{n}", [None, "mcts", "mcts"])
        assert status == 201, made
        table = made["table_id"]
        status, body = await call(
            server, "POST", f"/api/tables/{table}/seats/0/bot", {"kind": "mcts"},
            token=made["token"],
        )  # fmt: skip
        assert status == 200, body
        status, body = await call(server, "POST", f"/api/tables/{table}/start", token=made["token"])
        assert status == 200, body
        tables.append(table)
    started = time.monotonic()
    deadline = started + 240
    finished: set[str] = set()
    while len(finished) < len(tables) and time.monotonic() < deadline:
        await asyncio.sleep(1)
        for table in tables:
            status, summary = await call(server, "GET", f"/api/tables/{table}")
            if summary["status"] == "finished":
                finished.add(table)
    elapsed = time.monotonic() - started
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, verify=TLS) as client:
        text = (await client.get("/metrics")).text
    decisions = {
        s: metric(text, "guildhall_bot_decisions_total", s) for s in ("full", "short", "none")
    }
    seconds = {s: metric(text, "guildhall_bot_seconds_total", s) for s in ("full", "short", "none")}
    searched = seconds["full"] + seconds["short"]
    print(
        f"\n{len(finished)}/{len(tables)} all-mcts tables finished in {elapsed:.1f} s; "
        f"decisions {decisions}; seconds {seconds}; "
        f"search {searched / elapsed:.3f} s/s against a budget of {BUDGET} s/s"
    )
    assert finished == set(tables), "every bot table plays to the end"
    # The budget ran out, and the heuristic played on instead of the bots waiting for it.
    assert decisions["none"] > 0 and decisions["none"] > decisions["full"]
