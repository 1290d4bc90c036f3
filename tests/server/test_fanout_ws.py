"""Two app processes on one Postgres: a move made through one reaches sockets on the other."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from server.app import make_fanout
from server.realtime.fanout import MemoryFanOut
from server.settings import Settings, normalize_database_url
from tests.support.databases import migrated_postgres
from tests.support.play import play_round_robin, running_app, set_up_table
from tests.support.wsclient import WsClient


def test_memory_fan_out_is_the_default(settings: Settings) -> None:
    assert isinstance(make_fanout(settings), MemoryFanOut)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with migrated_postgres() as url:
        yield url


@pytest.mark.postgres
def test_two_instances_share_a_table_through_listen_notify(postgres_url: str) -> None:
    settings = Settings(
        database_url=normalize_database_url(postgres_url),
        secret_key="shared-secret",
        bot_delay=0.0,
        rate_limit=1000.0,
        fanout="postgres",
    )
    with running_app(settings) as one, running_app(settings) as two:
        table_id, tokens = set_up_table(one, "toy", 3)
        players = {
            0: WsClient(one, table_id, tokens[0]).connect(),
            1: WsClient(two, table_id, tokens[1]).connect(),
            2: WsClient(two, table_id, tokens[2]).connect(),
        }
        watcher = WsClient(two, table_id).connect()
        acked = play_round_robin(one, table_id, players, [watcher], random.Random(11), 3)
        assert acked >= 3 * 2 * 3
        assert watcher.doc is not None and watcher.doc["table"]["status"] == "finished"
