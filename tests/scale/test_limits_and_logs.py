"""In-process hardening checks: the per-address connection cap, structured log records, the
active-tables gauge over a whole game, the settings behind them and the Postgres pool."""

from __future__ import annotations

import io
import json
import logging
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

import tests.support.toy  # noqa: F401  (registers the "toy" game)
from server.api.ws import TOO_MANY_CONNECTIONS_CLOSE, ConnectionCap
from server.logs import JsonFormatter, TextFormatter, configure_logging
from server.realtime.hub import Hub
from server.realtime.session import Connection
from server.settings import Settings, load_settings
from server.store.db import make_engine
from server.store.migrate import upgrade
from tests.scale.client import metric
from tests.support.acks import is_ack
from tests.support.play import play_round_robin, running_app, set_up_table
from tests.support.testclient import TestClient
from tests.support.wsclient import WsClient

CAP = 2


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'limits.db'}"
    upgrade(url)
    settings = Settings(
        database_url=url,
        public_url="http://testserver",
        secret_key="limits-secret",
        bot_delay=0.0,
        rate_limit=1000.0,
        max_connections_per_ip=CAP,
    )
    with running_app(settings) as test_client:
        yield test_client


# ------------------------------------------------------------------ per-address connection cap


def test_connections_beyond_the_cap_are_refused_with_a_coded_error(client: TestClient) -> None:
    table_id, _ = set_up_table(client, "toy", 2)
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url), client.websocket_connect(url) as second:
        with client.websocket_connect(url) as refused:
            error = refused.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                refused.receive_text()
        assert error == {
            "type": "error",
            "id": None,
            "code": "too_many_connections",
            "message": error["message"],
        }
        assert str(CAP) in error["message"]
        assert closed.value.code == TOO_MANY_CONNECTIONS_CLOSE
        # The ones admitted still work.
        second.send_json({"type": "ping"})
        assert second.receive_json() == {"type": "pong"}
    cap: ConnectionCap = client.app.state.connection_cap  # type: ignore[attr-defined]
    assert cap.open == {}


def test_a_closed_connection_frees_its_slot(client: TestClient) -> None:
    table_id, tokens = set_up_table(client, "toy", 2)
    url = f"/ws/tables/{table_id}"
    for _ in range(3 * CAP):  # more than the cap, one after another
        with client.websocket_connect(url) as ws:
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
    # Slots are also freed when the connection ends on an unknown table.
    for _ in range(CAP + 1):
        with client.websocket_connect("/ws/tables/nope") as ws:
            assert ws.receive_json()["code"] == "unknown_table"
    with client.websocket_connect(url) as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert ws.receive_json()["type"] == "presence"


def test_the_cap_counts_each_address_apart() -> None:
    cap = ConnectionCap(1)
    with cap.hold("10.0.0.1") as first, cap.hold("10.0.0.2") as other:
        with cap.hold("10.0.0.1") as second:
            assert (first, other, second) == (True, True, False)
        assert cap.open == {"10.0.0.1": 1, "10.0.0.2": 1}
    assert cap.open == {}


def test_a_slot_is_freed_when_the_connection_fails() -> None:
    cap = ConnectionCap(1)
    with pytest.raises(OSError), cap.hold("10.0.0.1"):
        raise OSError("transport gone")
    with cap.hold("10.0.0.1") as allowed:
        assert allowed


# ------------------------------------------------------------------ structured logs


def _record(**extra: object) -> logging.LogRecord:
    record = logging.LogRecord("server.x", logging.INFO, __file__, 1, "did %s", ("it",), None)
    record.__dict__.update(extra)
    return record


def test_json_lines_carry_time_level_logger_message_and_fields() -> None:
    line = JsonFormatter().format(_record(table_id="t1", seat=0, latency_ms=1.5, code="x"))
    entry = json.loads(line)
    assert "\n" not in line
    assert {k: entry[k] for k in ("level", "logger", "message")} == {
        "level": "INFO",
        "logger": "server.x",
        "message": "did it",
    }
    assert entry["time"].endswith("+00:00")
    assert (entry["table_id"], entry["seat"], entry["latency_ms"], entry["code"]) == (
        "t1",
        0,
        1.5,
        "x",
    )


def test_a_token_passed_as_a_field_is_never_written() -> None:
    record = _record(token="s3cret-token", table_id="t1")
    assert "s3cret-token" not in JsonFormatter().format(record)
    assert "s3cret-token" not in TextFormatter().format(record)


def test_exceptions_stay_inside_the_one_json_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("server.x", logging.ERROR, __file__, 1, "failed", (), None)

        record.exc_info = sys.exc_info()
    line = JsonFormatter().format(record)
    assert len(line.splitlines()) == 1
    assert "ValueError: boom" in json.loads(line)["exception"]


def test_text_format_puts_fields_after_the_message() -> None:
    line = TextFormatter().format(_record(table_id="t1", seat=1))
    assert line.endswith("INFO server.x: did it table_id=t1 seat=1")


def test_configuring_twice_leaves_one_handler() -> None:
    logger = logging.getLogger("server")
    first, second = io.StringIO(), io.StringIO()
    try:
        configure_logging("text", first)
        configure_logging("json", second)
        logging.getLogger("server.some.module").info("hello", extra={"table_id": "t"})
        assert first.getvalue() == ""
        assert json.loads(second.getvalue())["table_id"] == "t"
    finally:
        for handler in [h for h in logger.handlers if getattr(h, "guildhall", False)]:
            logger.removeHandler(handler)


def test_a_game_logs_start_commands_finish_and_closes_without_tokens(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    before = metric(client.get("/metrics").text, "guildhall_active_tables")
    table_id, tokens = set_up_table(client, "toy", 2)
    playing = metric(client.get("/metrics").text, "guildhall_active_tables")
    players = {s: WsClient(client, table_id, t).connect() for s, t in enumerate(tokens)}
    acked = play_round_robin(client, table_id, players, [], random.Random(7))
    for ws in players.values():
        ws.close()
    after = metric(client.get("/metrics").text, "guildhall_active_tables")
    assert (before, playing, after) == (0, 1, 0)

    mine = [r for r in caplog.records if getattr(r, "table_id", None) == table_id]
    messages = [r.getMessage() for r in mine]
    assert messages.count("table started") == messages.count("table finished") == 1
    accepted = [r for r in mine if r.getMessage() == "command accepted"]
    assert len(accepted) == acked > 0
    assert all(r.latency_ms >= 0 and r.seat in (0, 1) for r in accepted)  # type: ignore[attr-defined]
    assert messages.count("connection opened") >= 2
    assert messages.count("connection closed") >= 2
    text = "\n".join(JsonFormatter().format(r) for r in caplog.records)
    assert not any(token and token in text for token in tokens)


def test_rejected_commands_are_logged_with_their_code(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    table_id, tokens = set_up_table(client, "toy", 2)
    ws = WsClient(client, table_id, tokens[0]).connect()
    reply = ws.outcome(ws.command({"type": "no_such_command"}, "bad-1"))
    assert reply["type"] == "error"
    (rejected,) = [r for r in caplog.records if r.getMessage() == "command rejected"]
    assert (rejected.code, rejected.command_id, rejected.seat) == (reply["code"], "bad-1", 0)  # type: ignore[attr-defined]


# ------------------------------------------------------------------ settings and pool


def test_settings_read_the_cap_log_format_and_pool(tmp_path: Path) -> None:
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
        "GUILDHALL_MAX_CONNECTIONS_PER_IP": "7",
        "GUILDHALL_LOG_FORMAT": "json",
        "GUILDHALL_DB_POOL_SIZE": "4",
        "GUILDHALL_DB_MAX_OVERFLOW": "0",
        "GUILDHALL_DB_POOL_TIMEOUT": "2.5",
    }
    settings = load_settings(env)
    assert (settings.max_connections_per_ip, settings.log_format) == (7, "json")
    assert (settings.db_pool_size, settings.db_max_overflow, settings.db_pool_timeout) == (
        4,
        0,
        2.5,
    )
    defaults = load_settings({"DATABASE_URL": env["DATABASE_URL"]})
    assert (defaults.max_connections_per_ip, defaults.log_format) == (20, "text")
    assert (defaults.db_pool_size, defaults.db_max_overflow, defaults.db_pool_timeout) == (
        10,
        20,
        30.0,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GUILDHALL_LOG_FORMAT", "xml"),
        ("GUILDHALL_MAX_CONNECTIONS_PER_IP", "0"),
        ("GUILDHALL_DB_POOL_SIZE", "0"),
        ("GUILDHALL_DB_MAX_OVERFLOW", "-1"),
    ],
)
def test_malformed_settings_are_refused(tmp_path: Path, name: str, value: str) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}", name: value}
    with pytest.raises(ValueError, match=name):
        load_settings(env)


async def test_the_postgres_pool_is_sized_from_the_arguments() -> None:
    # No connection is made: the pool is configured when the engine is created.
    engine = make_engine(
        "postgresql://nobody@127.0.0.1:1/none", pool_size=3, max_overflow=5, pool_timeout=7
    )
    try:
        pool = engine.sync_engine.pool
        assert (pool.size(), pool._max_overflow, pool._timeout) == (3, 5, 7)  # type: ignore[attr-defined]
        assert not pool._pre_ping  # a dead connection is dropped on its error instead
    finally:
        await engine.dispose()


def test_the_active_tables_gauge_counts_tables_playing_before_a_restart(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    upgrade(url)
    settings = Settings(database_url=url, secret_key="s", bot_delay=0.0, rate_limit=1000.0)
    with running_app(settings) as first:
        tables = [set_up_table(first, "toy", 2) for _ in range(2)]
    with running_app(settings) as second:
        assert metric(second.get("/metrics").text, "guildhall_active_tables") == 2
        # A new version of one table must not make the gauge forget the other, which this
        # process has not loaded since the restart.
        table_id, tokens = tables[0]
        ws = WsClient(second, table_id, tokens[0]).connect()
        cmd = next(c for c in ws.legal if c["type"] != "retract")
        assert is_ack(ws.outcome(ws.command(cmd, "after-restart")))
        ws.close()
        assert metric(second.get("/metrics").text, "guildhall_active_tables") == 2


# ------------------------------------------------------------------ clients leaving mid-send


class GoneSocket:
    """A websocket whose client has gone: frames it sent are still queued, sends fail."""

    def __init__(self, failure: Exception, queued: list[str]) -> None:
        self.failure, self.queued, self.sends = failure, list(queued), 0

    async def receive(self) -> dict[str, object]:
        if self.queued:
            return {"type": "websocket.receive", "text": self.queued.pop(0)}
        return {"type": "websocket.disconnect", "code": 1006}

    async def send_text(self, _text: str) -> None:
        self.sends += 1
        raise self.failure


@pytest.mark.parametrize(
    "failure",
    [
        WebSocketDisconnected('Cannot call "send" once a close message has been sent.'),
        WebSocketDisconnect(code=1006),
        ConnectionResetError("peer gone"),
    ],
    ids=["after-close", "disconnect", "reset"],
)
async def test_sending_to_a_departed_client_ends_the_connection_quietly(
    failure: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    frames = ['{"type": "ping"}', '{"type": "snapshot_request"}', '{"type": "ping"}']
    ws = GoneSocket(failure, frames)
    settings = Settings(secret_key="s", rate_limit=1000.0)
    connection = Connection(ws, "t1", None, Hub(), settings)  # type: ignore[arg-type]
    await connection.run()  # returns instead of raising into the ASGI server
    assert ws.sends == 1  # the first failed send ends it; later frames are not answered
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert [r.getMessage() for r in caplog.records][-1] == "connection closed"
