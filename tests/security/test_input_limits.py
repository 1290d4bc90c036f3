"""Abuse limits: table creation per client address, and bad tokens that cost no reloads."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.api.tables import CREATE_WINDOW, CreationRate
from server.settings import Settings
from server.tables import ServiceError
from tests.support.play import running_app
from tests.support.testclient import TestClient


@pytest.fixture
def limited(settings: Settings) -> Iterator[TestClient]:
    with running_app(settings.model_copy(update={"create_rate": 3})) as client:
        yield client


def test_one_address_creates_at_most_the_rate_a_minute(limited: TestClient) -> None:
    body = {"game": "toy", "seats": 2, "name": "Ada"}
    for _ in range(3):
        assert limited.post("/api/tables", json=body).status_code == 201
    listed = limited.get("/api/tables").json()
    refused = limited.post("/api/tables", json=body)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_tables"
    assert "3 new tables a minute" in refused.json()["message"]
    assert limited.get("/api/tables").json() == listed  # nothing was created


def test_the_window_slides_and_addresses_are_counted_apart() -> None:
    rate = CreationRate(2)
    rate.take("a", now=0.0)
    rate.take("a", now=1.0)
    with pytest.raises(ServiceError) as refused:
        rate.take("a", now=2.0)
    assert (refused.value.code, refused.value.status) == ("too_many_tables", 429)
    rate.take("b", now=2.0)  # another address is not held back
    rate.take("a", now=CREATE_WINDOW + 0.5)  # the first creation has left the window
    with pytest.raises(ServiceError):
        rate.take("a", now=CREATE_WINDOW + 0.6)
    rate.take("a", now=10 * CREATE_WINDOW)
    assert set(rate.recent) == {"a"}  # quiet addresses are forgotten


def test_bad_tokens_cost_no_reload_of_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/api/tables", json={"game": "toy", "seats": 2, "name": "Ada"}).json()
    service = client.app.state.service  # type: ignore[attr-defined]
    reloads: list[str] = []
    load = service.cache.load

    async def counting_load(session: object, table_id: str, row: object = None) -> object:
        reloads.append(table_id)
        return await load(session, table_id, row)

    monkeypatch.setattr(service.cache, "load", counting_load)
    for i in range(20):
        res = client.post(
            f"/api/tables/{created['table_id']}/start", headers={"Authorization": f"Bearer bad{i}"}
        )
        assert res.json()["code"] == "bad_token"
    assert reloads == []
    # A token made by a join elsewhere (the version moved) is still found.
    joined = client.post(
        f"/api/tables/{created['table_id']}/join", json={"name": "Bo", "invite": created["invite"]}
    ).json()
    service.cache.forget(created["table_id"])
    assert client.portal is not None
    access = client.portal.call(service.authenticate, created["table_id"], joined["token"])
    assert access.seat == 1 and access.plays
