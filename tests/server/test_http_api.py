"""The HTTP API: creating, joining, starting, listing, records, errors as {code, message}."""

from __future__ import annotations

import hashlib
import time
from functools import partial

from server.commands.verify import replay as verify
from tests.support.play import set_up_table
from tests.support.testclient import TestClient
from tests.support.toy import TOY


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(client: TestClient, **changes: object) -> dict[str, object]:
    body: dict[str, object] = {"game": "toy", "seats": 3, "name": "Ada", **changes}
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def test_creating_a_table_gives_seat_0_a_secret_link(client: TestClient) -> None:
    created = _create(client)
    token = str(created["token"])
    assert created["seat"] == 0 and len(token) >= 32
    assert created["link"] == f"http://testserver/t/{created['table_id']}#seat={token}"
    invite = str(created["invite"])
    assert len(invite) >= 20 and invite != token
    assert created["invite_link"] == f"http://testserver/t/{created['table_id']}#invite={invite}"
    summary = client.get(f"/api/tables/{created['table_id']}").json()
    assert summary["status"] == "open" and summary["version"] == 1
    assert [s["name"] for s in summary["seats"]] == ["Ada", None, None]
    assert token not in str(summary) and invite not in str(summary)
    assert len(summary["seed_sha256"]) == 64 and summary["public"] is False


def test_joining_fills_free_seats_then_bot_seats_then_refuses(client: TestClient) -> None:
    created = _create(client, bots=[None, None, "random"])
    table_id, invite = created["table_id"], created["invite"]
    uninvited = client.post(f"/api/tables/{table_id}/join", json={"name": "Eve"})
    assert uninvited.status_code == 403 and uninvited.json()["code"] == "invite_required"
    # One character changed (an invite that happens to start with "x" gets a "y").
    first_char = "y" if str(invite).startswith("x") else "x"
    wrong = {"name": "Eve", "invite": first_char + str(invite)[1:]}
    assert client.post(f"/api/tables/{table_id}/join", json=wrong).status_code == 403
    join = {"name": "Bea", "invite": invite}
    first = client.post(f"/api/tables/{table_id}/join", json=join).json()
    assert first["seat"] == 1
    second = client.post(f"/api/tables/{table_id}/join", json={**join, "name": "Cy"}).json()
    assert second["seat"] == 2  # with the invite, a person may take a bot's seat
    full = client.post(f"/api/tables/{table_id}/join", json={**join, "name": "Dee"})
    assert full.status_code == 409 and full.json()["code"] == "table_full"
    taken = client.post(f"/api/tables/{table_id}/join", json={**join, "name": "Dee", "seat": 1})
    assert taken.json()["code"] == "seat_taken"
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("Ada", None), ("Bea", None), ("Cy", None)]


def test_only_seat_0_starts_and_only_a_full_table(client: TestClient) -> None:
    created = _create(client, seats=2)
    table_id, token = created["table_id"], str(created["token"])
    early = client.post(f"/api/tables/{table_id}/start", headers=_auth(token))
    assert early.status_code == 409 and early.json()["code"] == "seats_open"
    join = {"name": "Bea", "invite": created["invite"]}
    other = client.post(f"/api/tables/{table_id}/join", json=join).json()
    not_creator = client.post(f"/api/tables/{table_id}/start", headers=_auth(other["token"]))
    assert not_creator.status_code == 403 and not_creator.json()["code"] == "not_creator"
    missing = client.post(f"/api/tables/{table_id}/start")
    assert missing.status_code == 401 and missing.json()["code"] == "no_token"
    wrong = client.post(f"/api/tables/{table_id}/start", headers=_auth("nope"))
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_token"
    started = client.post(f"/api/tables/{table_id}/start", headers=_auth(token))
    assert started.status_code == 200 and started.json()["status"] == "playing"
    again = client.post(f"/api/tables/{table_id}/start", headers=_auth(token))
    assert again.json()["code"] == "already_started"


def test_bad_requests_are_json_errors_with_codes(client: TestClient) -> None:
    cases = [
        ({"game": "chess", "seats": 3, "name": "A"}, 400, "unknown_game"),
        ({"game": "toy", "seats": 9, "name": "A"}, 422, "bad_request"),
        ({"game": "toy", "seats": 3, "name": ""}, 422, "bad_request"),
        ({"game": "toy", "seats": 3, "name": "A", "bots": ["random", None, None]}, 400, "bad_bots"),
        ({"game": "toy", "seats": 3, "name": "A", "bots": [None]}, 400, "bad_bots"),
        (
            {"game": "toy", "seats": 3, "name": "A", "options": {"planning": "x"}},
            422,
            "bad_request",
        ),
    ]
    for body, status, code in cases:
        reply = client.post("/api/tables", json=body)
        assert (reply.status_code, reply.json()["code"]) == (status, code), body
        assert reply.json()["message"]
    unknown = client.get("/api/tables/nope")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_table"
    assert client.get("/api/nothing-here").json()["code"] == "not_found"


def test_listing_shows_public_open_and_playing_tables_only(client: TestClient) -> None:
    open_one = _create(client, public=True)["table_id"]
    _create(client)  # private: never listed
    private_playing, _ = set_up_table(client, "toy", 2)
    public = _create(client, seats=2, public=True)
    joined = client.post(f"/api/tables/{public['table_id']}/join", json={"name": "Bea"})
    assert joined.json()["seat"] == 1  # a public table's free seat needs no invite
    client.post(f"/api/tables/{public['table_id']}/start", headers=_auth(str(public["token"])))
    listed = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
    assert listed == {open_one: "open", public["table_id"]: "playing"}
    assert private_playing not in listed


def test_the_record_reveals_the_seed_only_after_the_end(client: TestClient) -> None:
    table_id, _ = set_up_table(client, "toy", 2)
    early = client.get(f"/api/tables/{table_id}/record")
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.portal is not None, "the client runs inside its with-block"
    while (data := client.portal.call(service.get, table_id)).status == "playing":
        seat = min(TOY.to_act(data.state))
        client.portal.call(service.submit, table_id, seat, TOY.legal(data.state, seat)[0])
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert hashlib.sha256(record["seed"].encode()).hexdigest() == record["seed_sha256"]
    assert record["seed_sha256"] == client.get(f"/api/tables/{table_id}").json()["seed_sha256"]
    assert record["result"]["scores"] and len(record["commands"]) == data.seq
    # People alone: no command says who made it, and the record reads as it always did.
    assert all(set(entry) == {"seat", "cmd"} for entry in record["commands"])


def test_the_record_and_the_replay_say_which_commands_a_bot_made(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2, bots=[None, "random"])
    service = client.app.state.service  # type: ignore[attr-defined]
    person = service.token_hash(str(tokens[0]))
    assert client.portal is not None, "the client runs inside its with-block"
    for _ in range(3000):  # the app's clock keeper plays the bot seat meanwhile
        data = client.portal.call(service.get_stored, table_id)
        if data.status != "playing":
            break
        if 0 in TOY.to_act(data.state):
            play = partial(service.submit, table_id, 0, TOY.legal(data.state, 0)[0], by=person)
            client.portal.call(play)
        else:
            time.sleep(0.01)
    reply = client.get(f"/api/tables/{table_id}/record")
    record = reply.json()
    assert record["result"] is not None
    seats = [entry["seat"] for entry in record["commands"]]
    assert set(seats) == {0, 1}
    assert record["commands"] == [
        {"seat": e["seat"], "cmd": e["cmd"], **({"by": "bot"} if e["seat"] == 1 else {})}
        for e in record["commands"]
    ]
    assert reply.text.count('"by"') == seats.count(1)  # never a null one
    assert verify(record) == record["result"]
    step = seats.index(1) + 1
    replayed = client.get(f"/api/tables/{table_id}/replay/{step}").json()
    assert replayed["command"] == record["commands"][step - 1]
    assert replayed["command"]["by"] == "bot"


def test_health_games_metrics_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["norenberc"]["min_seats"] == 2 and games["norenberc"]["max_seats"] == 5
    text = client.get("/metrics").text
    assert "guildhall_commands_total" in text and "guildhall_view_cpu_seconds_total" in text
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/tables", "/api/tables/{table_id}/join", "/api/tables/{table_id}/record"} <= set(
        paths
    )


def test_an_option_a_game_lacks_is_ignored_while_off_and_refused_when_on(
    client: TestClient,
) -> None:
    off = {"game": "strasbourg", "seats": 3, "name": "A", "options": {"promo": False}}
    created = client.post("/api/tables", json=off)
    assert created.status_code == 201, created.text
    summary = client.get(f"/api/tables/{created.json()['table_id']}").json()
    assert summary["options"] == {"planning": "simultaneous"}
    on = {**off, "options": {"promo": True}}
    refused = client.post("/api/tables", json=on)
    assert refused.status_code == 400 and refused.json()["code"] == "bad_option"
