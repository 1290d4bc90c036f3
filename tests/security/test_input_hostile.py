"""Hostile input never reaches a 500 or an abrupt close: deep nesting well under the frame
cap, lone UTF-16 surrogates, NUL characters (which Postgres refuses in text), over-long
paths and huge numbers each get a clear error code; the websocket stays usable and the table
is unchanged. Runs on SQLite and on Postgres.

Each backend's app and database serve the whole module: every test makes its own table (or
reads only its own answers), so migrating a fresh database per case would prove nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from server.settings import Settings
from server.store.migrate import upgrade
from tests.server.conftest import DATABASES
from tests.support.acks import is_ack
from tests.support.databases import fresh_database
from tests.support.play import running_app, set_up_table, table_version
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient


@pytest.fixture(scope="module", params=DATABASES)
def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """One running app per backend for the module (the settings of tests/server/conftest).

    The module's tests create some eighty tables from one address within a minute: the
    creation caps are lifted (tests/security/test_input_caps.py tests them)."""
    with fresh_database(request.param, tmp_path_factory.mktemp("hostile")) as url:
        upgrade(url)
        settings = Settings(
            database_url=url,
            public_url="http://testserver",
            secret_key="test-secret",
            bot_delay=0.0,
            max_message_bytes=4096,
            rate_limit=1000.0,
            create_rate=10**6,
            unjoined_per_address=10**6,
            unjoined_tables=10**6,
        )
        with running_app(settings) as test_client:
            yield test_client


DEEP_LIST = "[" * 2000 + "]" * 2000  # 4 kB: under the cap, far deeper than any message
FRAMES = [
    (DEEP_LIST, "too_deep"),
    ('{"type":"command","id":"a","cmd":{"type":"x","v":' + "[" * 40 + "]" * 40 + "}}", "too_deep"),
    ('{"type":"command","id":"a","cmd":' + '{"a":' * 40 + "1" + "}" * 40 + "}", "too_deep"),
    ('{"type":"command","id":"\\ud800","cmd":{"type":"plan"}}', "bad_text"),
    ('{"type":"command","id":"ok","cmd":{"type":"plan","\\udfff":1}}', "bad_text"),
    ('{"type":"command","id":"a\\u0000b","cmd":{"type":"plan"}}', "bad_text"),
    ('{"type":"command","id":"ok","cmd":{"type":"plan\\u0000"}}', "bad_text"),
    ('{"type":"hello","token":"\\ud83d"}', "bad_text"),
    ('{"type":"hello","token":"abc\\u0000"}', "bad_text"),
    ('{"type":"\\ud800"}', "bad_text"),
    ('{"type":"command","id":"' + "9" * 100 + '","cmd":{"type":"plan"}}', "bad_message"),
    ('{"type":"hello","since":1e999}', "bad_message"),
    (
        '{"type":"command","id":"n","cmd":{"type":"plan","guilds":[' + "9" * 4000 + "]}}",
        "bad_command",
    ),
    ('{"type":"command","id":"n","cmd":{"type":"plan","guilds":[NaN]}}', "bad_command"),
    ('{"type":"command","id":"n","cmd":{"type":"plan","guilds":[1e308]}}', "bad_command"),
    ('{"type":"command","id":"n","seat":' + "9" * 50 + ',"cmd":{"type":"plan"}}', "wrong_seat"),
]


def answers_until_pong(ws: WsClient) -> list[dict[str, object]]:
    ws.send({"type": "ping"})
    replies = []
    while (reply := ws.read())["type"] != "pong":
        replies.append(reply)
    return replies


@pytest.mark.parametrize(
    ("frame", "code"), FRAMES, ids=[f"{c}-{i}" for i, (_, c) in enumerate(FRAMES)]
)
def test_a_hostile_frame_gets_its_code_and_the_socket_stays_usable(
    client: TestClient, frame: str, code: str
) -> None:
    table_id, tokens = set_up_table(client, "norenberc", 2)
    ws = WsClient(client, table_id, tokens[0]).connect()
    before, doc = table_version(client, table_id), json.dumps(ws.doc, sort_keys=True)
    assert len(frame.encode()) <= client.app.state.settings.max_message_bytes  # type: ignore[attr-defined]
    ws.send_raw(frame)
    replies = answers_until_pong(ws)
    assert [(r["type"], r["code"]) for r in replies] == [("error", code)], replies
    assert table_version(client, table_id) == before
    assert json.dumps(ws.doc, sort_keys=True) == doc
    # Still the same seat, still able to play.
    ws.command(ws.legal[0])
    assert is_ack(ws.read_until(lambda m: is_ack(m) or m["type"] == "error"))
    assert table_version(client, table_id) == before + 1
    ws.close()


@pytest.mark.parametrize("table_id", ["a%00b", "%00", "x" * 5000, "%ED%A0%80", "a%20b", "a.b"])
def test_a_table_id_that_cannot_exist_is_unknown_everywhere(
    client: TestClient, table_id: str
) -> None:
    for method, path in [
        ("get", f"/api/tables/{table_id}"),
        ("post", f"/api/tables/{table_id}/join"),
        ("post", f"/api/tables/{table_id}/start"),
        ("get", f"/api/tables/{table_id}/record"),
        ("get", f"/api/tables/{table_id}/replay/0"),
    ]:
        body = {"name": "Ada"} if path.endswith("join") else None
        res = client.request(method, path, json=body, headers={"Authorization": "Bearer x"})
        assert res.status_code == 404, (path, res.text)
        assert res.json()["code"] in ("unknown_table", "not_found"), (path, res.text)
        assert len(res.text) < 300
    ws = WsClient(client, table_id)
    ws.connect(hello=False)
    assert ws.read() == {
        "type": "error",
        "id": None,
        "code": "unknown_table",
        "message": ws.messages[0]["message"],
    }
    with pytest.raises(ConnectionError, match="4404"):
        ws.read()
    ws.close()


@pytest.mark.parametrize(
    "path",
    [
        "/static/" + "a" * 5000,
        "/static/a%00b",
        "/static/%ED%A0%80",
        "/static/../server/app.py",
        "/static/js/" + "../" * 200 + "etc/passwd",
        "/" + "x" * 8000,
        "/t/" + "x" * 8000 + "%00",
    ],
)
def test_over_long_and_odd_paths_are_not_found_never_a_server_error(
    client: TestClient, path: str
) -> None:
    res = client.get(path)
    assert res.status_code in (200, 404), (path[:60], res.status_code, res.text[:200])
    if res.status_code == 404:
        assert res.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"game":"toy","seats":2,"name":"Ada\\u0000"}', "bad_request"),
        ('{"game":"toy","seats":2,"name":"\\ud800"}', "bad_request"),
        ('{"game":"toy","seats":2,"name":"A\\u001bda"}', "bad_request"),
        ('{"game":"toy\\u0000","seats":2,"name":"Ada"}', "unknown_game"),
        ('{"game":"toy","seats":1e999,"name":"Ada"}', "bad_request"),
        ('{"game":"toy","seats":' + "9" * 5000 + ',"name":"Ada"}', "bad_json"),
        ("[" * 5000 + "]" * 5000, "bad_json"),
        ('{"game":"toy","seats":2,', "bad_json"),
        ("not json at all", "bad_json"),
        (
            '{"game":"toy","seats":2,"name":"Ada","options":'
            + '{"a":' * 3000
            + "1"
            + "}" * 3000
            + "}",
            "bad_json",
        ),
    ],
)
def test_hostile_create_bodies_get_a_clear_code_and_store_nothing(
    client: TestClient, body: str, code: str
) -> None:
    before = client.get("/api/tables").json()
    res = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert 400 <= res.status_code < 500, res.text
    assert res.json()["code"] == code, res.text
    assert client.get("/api/tables").json() == before


def test_a_join_with_a_nul_or_control_name_is_refused_and_the_seat_stays_free(
    client: TestClient,
) -> None:
    created = client.post("/api/tables", json={"game": "toy", "seats": 2, "name": "Ada"})
    table_id = created.json()["table_id"]
    for name in ["Bo\u0000", "\u0007", "Bo\u009b"]:
        res = client.post(
            f"/api/tables/{table_id}/join", json={"name": name, "invite": created.json()["invite"]}
        )
        assert (res.status_code, res.json()["code"]) == (422, "bad_request"), res.text
    free = client.post(
        f"/api/tables/{table_id}/join", json={"name": "Bö 🎲", "invite": created.json()["invite"]}
    )
    assert free.status_code == 201 and free.json()["seat"] == 1
