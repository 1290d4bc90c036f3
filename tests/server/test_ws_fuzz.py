"""Random frames at a seated connection: each gets one clear answer, the connection survives,
and only legal commands are ever stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.settings import Settings
from tests.support.acks import is_ack
from tests.support.play import running_app, set_up_table, table_version
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

scalars = st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=6)
values = st.recursive(
    scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3)
)
cmd_types = st.sampled_from(["plan", "wait", "retract", "collect", "pass", "sell", "hire", "x"])
commands = st.fixed_dictionaries(
    {"type": cmd_types}, optional={"value": values, "guilds": values, "count": values}
)
frames = st.one_of(
    st.text(max_size=30),
    st.builds(lambda c: {"type": "command", "id": "f", "cmd": c}, commands),
    st.dictionaries(st.sampled_from(["type", "id", "cmd", "token", "since", "seat"]), values),
)


@pytest.fixture(scope="module")
def module_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from server.store.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz')}/g.db"
    upgrade(url)
    settings = Settings(database_url=url, secret_key="k", bot_delay=0.0, rate_limit=1e6)
    with running_app(settings) as client:
        yield client


@pytest.mark.parametrize("game", ["toy", "norenberc"])
def test_random_frames_get_one_answer_each_and_store_only_legal_commands(
    module_client: TestClient, game: str
) -> None:
    table_id, tokens = set_up_table(module_client, game, 2)
    ws = WsClient(module_client, table_id, tokens[0]).connect()
    codes: set[str] = set()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(frames)
    def one_frame(frame: Any) -> None:
        before = table_version(module_client, table_id)
        legal = ws.legal
        ws.send_raw(frame if isinstance(frame, str) else json.dumps(frame))
        ws.send({"type": "ping"})  # a marker: everything before it has been answered
        replies = []
        while (reply := ws.read())["type"] != "pong":
            replies.append(reply)
        errors = [r for r in replies if r["type"] == "error"]
        codes.update(e["code"] for e in errors)
        assert all(e["code"] != "internal_error" for e in errors), errors
        stored = table_version(module_client, table_id) != before
        if stored:
            assert isinstance(frame, dict) and frame.get("cmd") in legal
        elif isinstance(frame, dict) and frame.get("type") == "command":
            assert errors or any(is_ack(r) for r in replies)

    one_frame()
    # The frames reached every layer: the JSON parser, the message models and the engine.
    assert {"bad_json", "unknown_message"} <= codes
    assert codes - {"bad_json", "unknown_message", "bad_message", "hello_required"}
    assert ws.held_equals_snapshot()
    ws.close()
