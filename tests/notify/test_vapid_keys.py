"""The VAPID key pair: made on the first start, kept in the database, the same for every
process on it, even when several start at once."""

from __future__ import annotations

import asyncio

from server.app import create_app
from server.notify.vapid import VapidKeys, load_or_create, unb64url
from server.settings import Settings
from server.store.db import make_engine, make_sessionmaker
from tests.support.testclient import TestClient


async def _keys_of_fresh_processes(url: str, processes: int) -> list[VapidKeys]:
    engines = [make_engine(url) for _ in range(processes)]
    try:
        return list(await asyncio.gather(*(load_or_create(make_sessionmaker(e)) for e in engines)))
    finally:
        for engine in engines:
            await engine.dispose()


async def test_processes_starting_together_share_one_key_pair(database_url: str) -> None:
    found = await _keys_of_fresh_processes(database_url, 4)
    assert len(set(found)) == 1
    point = unb64url(found[0].public_key)
    assert len(point) == 65 and point[0] == 4
    # A later start (a restart) reads the same pair.
    assert await _keys_of_fresh_processes(database_url, 1) == found[:1]


def test_the_served_public_key_survives_a_restart(database_url: str) -> None:
    settings = Settings(database_url=database_url, secret_key="k", bot_delay=0)
    keys = []
    for _ in range(2):
        with TestClient(create_app(settings)) as client:
            answer = client.get("/api/push/key")
            assert answer.status_code == 200
            keys.append(answer.json()["public_key"])
    assert keys[0] == keys[1]
    assert set(answer.json()) == {"public_key"}
