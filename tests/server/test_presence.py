"""Who counts as connected: only a seat whose page has connected. Joining is no visit: a
player who took a seat and never opened the table is not announced to the creator as
connected (docs/seats.md, "Presence across processes")."""

from __future__ import annotations

from tests.support.testclient import TestClient


def test_a_player_who_joined_but_never_connected_is_not_taken_for_connected(
    client: TestClient,
) -> None:
    made = client.post("/api/tables", json={"game": "toy", "seats": 2, "name": "Ada"}).json()
    table_id, creator = made["table_id"], {"Authorization": f"Bearer {made['token']}"}
    client.post(f"/api/tables/{table_id}/join", json={"name": "Bea", "invite": made["invite"]})
    assert client.post(f"/api/tables/{table_id}/start", headers=creator).status_code == 200
    bea = client.get(f"/api/tables/{table_id}").json()["seats"][1]
    assert bea["connected"] is False
    assert bea["away_seconds"] is not None  # null would say "connected now"
    # The creator is not refused with "Bea is connected": she never came.
    handed = client.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"kind": "random"}, headers=creator
    )
    assert handed.status_code == 200, handed.text
    assert handed.json()["seats"][1]["stand_in"] is True
