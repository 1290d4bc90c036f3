"""The table acts over HTTP against the real app (SQLite): pause by agreement, resume, away,
nudge, vote and the creator's added time; and every way an outsider, a spectator, a rogue
seated player or a stand-in's owner is refused, with the table unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from server.settings import Settings
from tests.support.acks import is_ack
from tests.support.testclient import TestClient

from .conftest import T0, FakeTime

DAY = 86400.0
pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture
def client(settings: Settings, now: FakeTime) -> Iterator[TestClient]:
    from tests.support.play import running_app

    with running_app(settings) as running:
        running.app.state.service.now = now  # type: ignore[attr-defined]
        yield running


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def started(client: TestClient, clock: dict[str, Any], people: int = 2) -> tuple[str, list[str]]:
    """A started toy table of ``people`` people and one bot; (id, tokens by seat)."""
    made = client.post(
        "/api/tables",
        json={
            "game": "toy",
            "seats": people + 1,
            "name": "Anna",
            "bots": [None] * people + ["random"],
            "clock": clock,
        },
    ).json()
    table_id, tokens = made["table_id"], [made["token"]]
    for name in ("Bela", "Cara", "Dora")[: people - 1]:
        joined = client.post(
            f"/api/tables/{table_id}/join", json={"name": name, "invite": made["invite"]}
        )
        tokens.append(joined.json()["token"])
    assert client.post(f"/api/tables/{table_id}/start", headers=bearer(tokens[0])).is_success
    return table_id, tokens


def version(client: TestClient, table_id: str) -> int:
    return int(client.get(f"/api/tables/{table_id}").json()["version"])


def test_two_players_pause_by_agreement_and_one_resumes(client: TestClient, now: FakeTime) -> None:
    table_id, (anna, bela) = started(client, {"mode": "days", "per_decision": 86400})
    until = T0 + 2 * DAY
    proposed = client.post(
        f"/api/tables/{table_id}/pause", json={"until": until}, headers=bearer(anna)
    )
    assert proposed.status_code == 200, proposed.text
    proposal = proposed.json()["clock"]["proposal"]
    assert proposal == {"id": 1, "by": 0, "until": until, "at": T0, "agreed": [0]}
    agreed = client.post(
        f"/api/tables/{table_id}/pause/agree", json={"proposal": 1}, headers=bearer(bela)
    ).json()
    assert agreed["clock"]["paused"] == {"since": T0, "until": until}
    assert agreed["clock"]["proposal"] is None
    assert [s["held"] for s in agreed["clock"]["seats"]] == [True, True, False]
    assert agreed["clock"]["seats"][0]["free"] == DAY  # what each seat keeps, shown
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["clock"]["paused"]["until"] == until
    assert summary["clock_rules"] == {"nudge_after": 900, "nudge_every": 3600, "vote_after": DAY}
    now.at = T0 + DAY
    resumed = client.post(f"/api/tables/{table_id}/resume", headers=bearer(anna))
    assert resumed.status_code == 200 and resumed.json()["clock"]["paused"] is None
    assert resumed.json()["clock"]["seats"][0]["deadline"] == T0 + 2 * DAY
    again = client.post(f"/api/tables/{table_id}/resume", headers=bearer(bela))
    assert again.status_code == 409 and again.json()["code"] == "not_paused"


def test_the_creator_adds_time_and_sets_nobody_else_away(client: TestClient) -> None:
    table_id, (anna, bela) = started(client, {"mode": "days", "per_decision": 43200})
    added = client.post(
        f"/api/tables/{table_id}/seats/1/time", json={"seconds": 3600}, headers=bearer(anna)
    )
    assert added.status_code == 200
    assert added.json()["clock"]["seats"][1]["deadline"] == T0 + 43200 + 3600
    rogue = client.post(
        f"/api/tables/{table_id}/seats/1/time", json={"seconds": 3600}, headers=bearer(bela)
    )
    assert rogue.status_code == 403 and rogue.json()["code"] == "not_creator"
    away = client.post(
        f"/api/tables/{table_id}/seats/1/away", json={"until": T0 + 3 * DAY}, headers=bearer(bela)
    )
    assert away.status_code == 200
    assert away.json()["clock"]["seats"][1]["away_until"] == T0 + 3 * DAY
    other = client.post(
        f"/api/tables/{table_id}/seats/1/away", json={"until": None}, headers=bearer(anna)
    )
    assert other.status_code == 403 and other.json()["code"] == "not_your_seat"


def test_nudge_and_vote_over_http(client: TestClient, now: FakeTime) -> None:
    table_id, (anna, bela) = started(client, {"mode": "untimed"})
    soon = client.post(f"/api/tables/{table_id}/seats/1/nudge", headers=bearer(anna))
    assert soon.status_code == 409 and soon.json()["code"] == "too_soon"
    now.at = T0 + 900
    nudged = client.post(f"/api/tables/{table_id}/seats/1/nudge", headers=bearer(anna))
    assert nudged.status_code == 200 and nudged.json()["clock"]["seats"][1]["nudged"] == {
        "0": T0 + 900
    }
    own = client.post(f"/api/tables/{table_id}/seats/1/nudge", headers=bearer(bela))
    assert own.status_code == 400 and own.json()["code"] == "own_seat"
    now.at = T0 + DAY
    voted = client.post(f"/api/tables/{table_id}/seats/1/vote", headers=bearer(anna)).json()
    assert voted["seats"][1]["stand_in"] is True  # the only other person: her vote decides
    lost = client.post(f"/api/tables/{table_id}/pause", json={}, headers=bearer(bela))
    assert lost.status_code == 403 and lost.json()["code"] == "seat_lost"


ROUTES = [
    ("pause", {"until": None}),
    ("pause/agree", {"proposal": 1}),
    ("pause/decline", {"proposal": 1}),
    ("resume", None),
    ("seats/1/away", {"until": None}),
    ("seats/1/nudge", None),
    ("seats/1/vote", None),
    ("seats/1/time", {"seconds": 60}),
]


def test_outsiders_spectators_and_rogues_are_refused_and_nothing_changes(
    client: TestClient,
) -> None:
    table_id, (anna, bela) = started(client, {"mode": "days", "per_decision": 86400})
    other_id, (stranger, _) = started(client, {"mode": "days", "per_decision": 86400})
    client.post(f"/api/tables/{table_id}/pause", json={}, headers=bearer(anna))
    before = version(client, table_id)
    for route, body in ROUTES:
        url = f"/api/tables/{table_id}/{route}"
        spectator = client.post(url, json=body)
        assert (spectator.status_code, spectator.json()["code"]) == (401, "no_token"), route
        outsider = client.post(url, json=body, headers=bearer(stranger))
        assert (outsider.status_code, outsider.json()["code"]) == (403, "bad_token"), route
        unknown = client.post(f"/api/tables/nosuchtable/{route}", json=body, headers=bearer(anna))
        assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_table"), route
        if body is None:
            continue  # a route without a body reads none
        broken = client.post(
            url, content=b"{not json", headers={**bearer(anna), "Content-Type": "application/json"}
        )
        assert broken.status_code == 400 and broken.json()["code"] == "bad_json", route
    bad_bodies = [
        ("pause", {"until": "soon"}, 422, "bad_request"),
        ("pause", {"until": 1e300}, 409, "proposal_open"),
        ("pause/agree", {"proposal": 0}, 422, "bad_request"),
        ("pause/agree", {"proposal": 1, "extra": True}, 422, "bad_request"),
        ("pause/agree", {"proposal": 99}, 409, "no_proposal"),
        ("seats/1/away", {"until": T0 - 1}, 400, "bad_time"),
        ("seats/1/away", {"until": 1e300}, 400, "bad_time"),
        ("seats/0/away", {"until": None}, 403, "not_your_seat"),
        ("seats/7/away", {"until": None}, 400, "bad_seat"),
        ("seats/1/nudge", None, 409, "timed"),
        ("seats/1/time", {"seconds": 60}, 403, "not_creator"),
    ]
    for route, body, status, code in bad_bodies:
        answer = client.post(f"/api/tables/{table_id}/{route}", json=body, headers=bearer(bela))
        assert (answer.status_code, answer.json()["code"]) == (status, code), (route, answer.text)
    assert version(client, table_id) == before
    assert version(client, other_id) > 0
    declined = client.post(
        f"/api/tables/{table_id}/pause/decline", json={"proposal": 1}, headers=bearer(bela)
    )
    far = client.post(f"/api/tables/{table_id}/pause", json={"until": 1e300}, headers=bearer(bela))
    assert declined.status_code == 200 and (far.status_code, far.json()["code"]) == (
        400,
        "bad_time",
    )


def test_over_the_websocket_a_paused_table_refuses_moves_and_everyone_sees_the_pause(
    client: TestClient, now: FakeTime
) -> None:
    from tests.support.wsclient import WsClient

    table_id, (anna, bela) = started(client, {"mode": "live"})
    player, spectator = (
        WsClient(client, table_id, anna).connect(),
        WsClient(client, table_id).connect(),
    )
    client.post(f"/api/tables/{table_id}/pause", json={}, headers=bearer(anna))
    paused = client.post(
        f"/api/tables/{table_id}/pause/agree", json={"proposal": 1}, headers=bearer(bela)
    ).json()
    for ws in (player, spectator):
        ws.sync(paused["version"])
        assert ws.doc is not None and ws.doc["table"]["clock"]["paused"] == {
            "since": T0,
            "until": None,
        }
        assert [e["type"] for e in ws.doc["table"]["seat_log"]][-1] == "paused"
    refused = player.outcome(player.command({"type": "plan", "value": 1}))
    assert refused["type"] == "error" and refused["code"] == "paused"
    assert version(client, table_id) == paused["version"]  # nothing stored
    client.post(f"/api/tables/{table_id}/resume", headers=bearer(bela))
    assert is_ack(player.outcome(player.command({"type": "plan", "value": 1})))
    player.close()
    spectator.close()
