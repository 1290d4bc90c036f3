"""Tables for a load run, made over the HTTP API as people make them: create, join every seat,
start."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx


@dataclass(frozen=True)
class SeatedTable:
    """A started table and the token of each of its seats (index = seat)."""

    id: str
    tokens: list[str]


async def create_table(client: httpx.AsyncClient, game: str, seats: int) -> SeatedTable:
    """Create a table, fill every seat with a named person, start it; HTTPError on refusal."""
    created = await post(client, "/api/tables", {"game": game, "seats": seats, "name": "p0"})
    table_id = created["table_id"]
    tokens = {int(created["seat"]): created["token"]}
    # The floor server has no seat model and so no invite; Guildhall's tables are private.
    invite = created.get("invite")
    for i in range(1, seats):
        body: dict[str, Any] = {"name": f"p{i}"} | ({"invite": invite} if invite else {})
        joined = await post(client, f"/api/tables/{table_id}/join", body)
        tokens[int(joined["seat"])] = joined["token"]
    await post(client, f"/api/tables/{table_id}/start", {}, token=tokens[0])
    return SeatedTable(table_id, [tokens[s] for s in range(seats)])


async def post(
    client: httpx.AsyncClient, path: str, body: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    """POST JSON and return the JSON answer; raises HTTPStatusError with the server's reason."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await client.post(path, json=body, headers=headers)
    if response.is_error:
        raise httpx.HTTPStatusError(
            f"POST {path} -> {response.status_code}: {response.text[:300]}",
            request=response.request,
            response=response,
        )
    data = response.json()
    return data if isinstance(data, dict) else {}
