"""Helpers for whole-game tests: set a table up over HTTP and play it over websockets."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from server.app import create_app
from server.settings import Settings
from tests.support.acks import is_ack
from tests.support.testclient import TestClient

from .wsclient import WsClient


@contextmanager
def running_app(settings: Settings) -> Iterator[TestClient]:
    """An app on ``settings`` with its lifespan running; open websockets are closed on exit."""
    with TestClient(create_app(settings)) as client:
        try:
            yield client
        finally:
            WsClient.close_all()


def set_up_table(
    client: TestClient,
    game: str,
    seats: int,
    bots: list[str | None] | None = None,
    planning: str = "simultaneous",
    start: bool = True,
) -> tuple[str, list[str | None]]:
    """Create a table, seat a person on every non-bot seat, start it.

    Returns (table id, token per seat — None for bot seats).
    """
    bots = bots or [None] * seats
    body = {
        "game": game,
        "seats": seats,
        "options": {"planning": planning},
        "bots": bots,
        "name": "P0",
    }
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    tokens: list[str | None] = [created.json()["token"]] + [None] * (seats - 1)
    invite = created.json()["invite"]
    for seat in range(1, seats):
        if bots[seat] is None:
            body = {"name": f"P{seat}", "invite": invite}
            joined = client.post(f"/api/tables/{table_id}/join", json=body)
            assert joined.status_code == 201, joined.text
            tokens[joined.json()["seat"]] = joined.json()["token"]
    if start:
        started = client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert started.status_code == 200, started.text
    return table_id, tokens


def seeded_table(client: TestClient, game: str, seats: int, seed: str) -> tuple[str, list[str]]:
    """A started table with a chosen seed (only the service can choose one; HTTP cannot)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    create = partial(service.create_table, game, seats, {}, [], "P0", seed=seed)
    assert client.portal is not None, "the client runs inside its with-block"
    data, token = client.portal.call(create)
    tokens = [token]
    invite = service.invite_code(data.id)
    for seat in range(1, seats):
        body = {"name": f"P{seat}", "invite": invite}
        joined = client.post(f"/api/tables/{data.id}/join", json=body)
        tokens.append(joined.json()["token"])
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/tables/{data.id}/start", headers=auth).status_code == 200
    return data.id, tokens


def step_all(
    client: TestClient, table_id: str, ws: WsClient, cmd: dict[str, Any], all_: list[WsClient]
) -> None:
    """``ws`` plays ``cmd`` (an id that counts per client, so reruns send the same ids), then
    every client reads up to the new version."""
    command_id = f"{ws.token and ws.token[:4]}-{len(ws.acks) + len(ws.errors)}"
    assert is_ack(ws.outcome(ws.command(cmd, command_id)))
    version = table_version(client, table_id)
    for other in all_:
        other.sync(version)


# The clock document's wall-clock moments (docs/clocks.md): they differ between two runs.
MOMENTS = ("asked", "deadline")


def _without_moments(node: Any) -> Any:
    if isinstance(node, list):
        return [_without_moments(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {
        k: "<moment>" if k in MOMENTS and isinstance(v, float) else _without_moments(v)
        for k, v in node.items()
    }
    path = node.get("path")  # a patch operation that sets one moment
    moment = isinstance(path, str) and path.rsplit("/", 1)[-1] in MOMENTS
    if moment and isinstance(node.get("value"), float):
        out["value"] = "<moment>"
    return out


def blanked(message: dict[str, Any], table_id: str, tokens: list[str]) -> str:
    """The message as text with this run's random names (table id, token prefixes) and the
    clock's moments blanked."""
    text = json.dumps(_without_moments(message)).replace(table_id, "T")
    for seat, token in enumerate(tokens):
        text = text.replace(f'"{token[:4]}-', f'"seat{seat}-')
    return text


def table_version(client: TestClient, table_id: str) -> int:
    return int(client.get(f"/api/tables/{table_id}").json()["version"])


def sync_all(clients: list[WsClient], version: int) -> None:
    for ws in clients:
        ws.sync(version)


def play_round_robin(
    client: TestClient,
    table_id: str,
    players: dict[int, WsClient],
    watchers: list[WsClient],
    rng: random.Random,
    check_every: int = 1,
    max_steps: int = 5000,
) -> int:
    """Play random legal commands until the game ends; several seats send at once when they
    may (sealed planning). Every ``check_every`` steps each client's patched document is
    compared with a fresh snapshot. Returns the number of commands acknowledged.
    """
    everyone = list(players.values()) + watchers
    acked = 0
    for step in range(max_steps):
        version = table_version(client, table_id)
        sync_all(everyone, version)
        doc = everyone[0].doc
        assert doc is not None
        if doc["table"]["status"] == "finished":
            return acked
        movers = [ws for ws in players.values() if ws.legal]
        sent = _send_batch(movers, rng)
        if not sent:  # bots are thinking (or only take-backs were drawn): wait for a change
            if set(doc["game"]["to_act"]) - set(players):
                everyone[0].read_until(lambda m: m["type"] in ("patch", "snapshot"))
            continue
        for ws, command_id in sent:
            outcome = ws.outcome(command_id)
            acked += is_ack(outcome)
        if step % check_every == 0:
            sync_all(everyone, table_version(client, table_id))
            for ws in everyone:
                assert ws.held_equals_snapshot(), f"patched document differs for {ws.token}"
    raise AssertionError("game did not finish")


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """A random legal command; taking a plan back only now and then (else games never end)."""
    forward = [cmd for cmd in legal if cmd.get("type") != "retract"]
    if forward:
        return rng.choice(forward)
    return legal[0] if legal and rng.random() < 0.1 else None


def _send_batch(movers: list[WsClient], rng: random.Random) -> list[tuple[WsClient, str]]:
    """Most movers send one random legal command at once, without waiting for the others."""
    sent: list[tuple[WsClient, str]] = []
    for ws in movers:
        cmd = pick(ws.legal, rng)
        if cmd is not None and (rng.random() < 0.8 or not sent):
            sent.append((ws, ws.command(cmd)))
    return sent
