"""A rogue seated player flooding a table with acts (pause proposed and withdrawn, away set
and cleared, seats handed over and taken back): each seat token and each table gets so many
acts a minute (``rate_limited``, 429, with the wait), and however many acts get through over
time, the document every seat downloads stays under a fixed size; the whole seat log stays in
the database and in the finished game's record. The same limit across two processes on one
database: ``test_input_caps.py``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from server.engine import RuleError, get_game
from server.engine.planning import MAX_RETRACTS
from server.settings import Settings
from server.tables import ServiceError, TableService
from server.tables.data import SEAT_LOG_SHOWN
from server.tables.limits import ACT_WINDOW
from tests.support.play import running_app
from tests.support.testclient import TestClient

T0 = 1_800_000_000.0
DAYS = {"mode": "days", "per_decision": 86400}


class Clock:
    """The service's now, moved by the test."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with running_app(settings.with_(act_rate=4, table_act_rate=6)) as client:
        client.app.state.service.now = clock  # type: ignore[attr-defined]
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def started(client: TestClient, bot: bool = True) -> tuple[str, list[str]]:
    """A started toy table of two people (and a bot), its clock in days; (id, tokens)."""
    bots = [None, None, "random"] if bot else [None, None]
    made = client.post(
        "/api/tables",
        json={"game": "toy", "seats": len(bots), "name": "Anna", "bots": bots, "clock": DAYS},
    ).json()
    joined = client.post(
        f"/api/tables/{made['table_id']}/join", json={"name": "Bela", "invite": made["invite"]}
    ).json()
    assert client.post(f"/api/tables/{made['table_id']}/start", headers=bearer(made["token"]))
    return made["table_id"], [made["token"], joined["token"]]


def snapshot_bytes(client: TestClient, table_id: str, token: str | None = None) -> int:
    """The length of the snapshot a connection of ``token`` (None: a spectator) downloads."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        while True:
            text = ws.receive_text()
            if json.loads(text)["type"] == "snapshot":
                return len(text.encode())


def pause_cycle(client: TestClient, table_id: str, token: str) -> list[Any]:
    """Propose a pause and withdraw it: two acts."""
    base = f"/api/tables/{table_id}"
    proposed = client.post(f"{base}/pause", json={}, headers=bearer(token))
    if proposed.status_code != 200:
        return [proposed]
    number = proposed.json()["clock"]["proposal"]["id"]
    withdrawn = client.post(
        f"{base}/pause/decline", json={"proposal": number}, headers=bearer(token)
    )
    return [proposed, withdrawn]


def test_one_seat_makes_only_so_many_acts_a_minute(app: TestClient, clock: Clock) -> None:
    table_id, (anna, _) = started(app)
    base = f"/api/tables/{table_id}"
    answers = [*pause_cycle(app, table_id, anna), *pause_cycle(app, table_id, anna)]
    assert [a.status_code for a in answers] == [200] * 4
    version = app.get(base).json()["version"]
    clock.at += 20
    refused = app.post(f"{base}/seats/0/away", json={"until": T0 + 3600}, headers=bearer(anna))
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "rate_limited"
    assert body["retry_after"] == ACT_WINDOW - 20
    assert refused.headers["retry-after"] == str(int(ACT_WINDOW - 20))
    assert "at most 4 table acts a minute from one seat" in body["message"]
    assert f"try again in {int(ACT_WINDOW - 20)} s" in body["message"]
    assert app.get(base).json()["version"] == version  # nothing changed
    clock.at += ACT_WINDOW - 20  # the first act leaves the window
    assert pause_cycle(app, table_id, anna)[0].status_code == 200


def test_all_seats_of_a_table_together_make_only_so_many(app: TestClient, clock: Clock) -> None:
    table_id, (anna, bela) = started(app)
    base = f"/api/tables/{table_id}"
    assert [a.status_code for a in pause_cycle(app, table_id, anna)] == [200, 200]
    clock.at += 1
    for until in (T0 + 3600, None, T0 + 7200, None):  # four of Bela's: six in all
        set_away = app.post(f"{base}/seats/1/away", json={"until": until}, headers=bearer(bela))
        assert set_away.status_code == 200, set_away.json()
    refused = app.post(f"{base}/pause", json={}, headers=bearer(anna))  # Anna has two left
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert "at most 6 table acts a minute at one table" in refused.json()["message"]
    assert refused.json()["retry_after"] == ACT_WINDOW - 1  # Anna's two acts leave first
    # A seat handed to a bot and taken back, and a bot-free other table, are not held back
    # by this one: the limit is per table.
    other, (carl, _) = started(app)
    assert pause_cycle(app, other, carl)[0].status_code == 200
    clock.at += ACT_WINDOW
    handed = app.post(f"{base}/seats/1/bot", json={"kind": "random"}, headers=bearer(bela))
    assert handed.status_code == 200, handed.json()


@pytest.fixture
def one_act(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """One act a minute a seat; nudges and votes allowed at once; bots that wait."""
    limited = settings.with_(
        act_rate=1, table_act_rate=100, nudge_after=0, vote_after=0, bot_delay=3600.0
    )
    with running_app(limited) as client:
        client.app.state.service.now = clock  # type: ignore[attr-defined]
        yield client


def _proposal(client: TestClient, table_id: str) -> dict[str, Any]:
    return {"proposal": client.get(f"/api/tables/{table_id}").json()["clock"]["proposal"]["id"]}


# Every act a seat token makes at a table (docs/seats.md): (name, clock mode, acts before it
# as (path, body, seat), its path, its body (or how to make it from the table), its seat).
# None as the clock: a table in its waiting room. The rematch ask: the record test below.
Body = dict[str, Any] | None | Callable[[TestClient, str], dict[str, Any]]
ACTS: list[tuple[str, str | None, list[tuple[str, Body, int]], str, Body, int]] = [
    ("clock set", None, [], "clock", {"mode": "untimed"}, 0),
    ("pause asked", "days", [], "pause", {}, 0),
    ("pause agreed", "days", [("pause", {}, 0)], "pause/agree", _proposal, 1),
    ("pause declined", "days", [("pause", {}, 0)], "pause/decline", _proposal, 1),
    ("resumed", "days", [("pause", {}, 0), ("pause/agree", _proposal, 1)], "resume", None, 0),
    ("away", "days", [], "seats/1/away", {"until": T0 + 3600}, 1),
    ("time added", "days", [], "seats/1/time", {"seconds": 3600}, 0),
    ("seat handed to a bot", "days", [], "seats/1/bot", {"kind": "random"}, 1),
    ("seat taken back", "days", [("seats/1/bot", {"kind": "random"}, 1)], "seats/1/reclaim",
     None, 1),
    ("nudge", "untimed", [], "seats/1/nudge", None, 0),
    ("vote", "untimed", [], "seats/1/vote", None, 0),
]  # fmt: skip


def _act(client: TestClient, table_id: str, path: str, body: Body, token: str) -> Any:
    made = body(client, table_id) if callable(body) else body
    return client.post(f"/api/tables/{table_id}/{path}", json=made, headers=bearer(token))


@pytest.mark.parametrize("act", ACTS, ids=[a[0] for a in ACTS])
def test_every_table_act_counts_and_is_refused_past_the_limit(
    one_act: TestClient, clock: Clock, act: tuple[str, str | None, list[Any], str, Body, int]
) -> None:
    """The act goes through once, and the seat's next act within the minute, the same again,
    is refused as ``rate_limited`` before anything else is looked at, the table unchanged."""
    _name, mode, before, path, body, seat = act
    made = one_act.post(
        "/api/tables",
        json={"game": "toy", "seats": 2, "name": "Anna", "clock": {"mode": mode or "days"}}
        | ({"clock": DAYS} if mode == "days" else {}),
    ).json()
    table_id = made["table_id"]
    joined = one_act.post(
        f"/api/tables/{table_id}/join", json={"name": "Bela", "invite": made["invite"]}
    ).json()
    tokens = [made["token"], joined["token"]]
    if mode is not None:
        assert one_act.post(f"/api/tables/{table_id}/start", headers=bearer(tokens[0]))
    for done_path, done_body, by in before:
        done = _act(one_act, table_id, done_path, done_body, tokens[by])
        assert done.status_code == 200, (done_path, done.json())
    clock.at += ACT_WINDOW  # what came before has left the window
    first = _act(one_act, table_id, path, body, tokens[seat])
    assert first.status_code == 200, first.json()
    version = one_act.get(f"/api/tables/{table_id}").json()["version"]
    clock.at += 1
    again = _act(one_act, table_id, path, {"proposal": 1} if callable(body) else body, tokens[seat])
    assert (again.status_code, again.json()["code"]) == (429, "rate_limited"), again.json()
    assert again.json()["retry_after"] == ACT_WINDOW - 1
    assert one_act.get(f"/api/tables/{table_id}").json()["version"] == version


def test_the_document_stays_bounded_however_many_acts_get_through(
    app: TestClient, clock: Clock
) -> None:
    table_id, (anna, bela) = started(app)
    base = f"/api/tables/{table_id}"
    before = snapshot_bytes(app, table_id)
    tried = stored = 0
    for _ in range(120):  # every half minute eight acts; the limits let three in four by
        answers = pause_cycle(app, table_id, anna)
        for path, body in (
            ("away", {"until": T0 + 10 * 86400}),
            ("away", {"until": None}),
            ("bot", {"kind": "random"}),
            ("reclaim", None),
        ):
            answers.append(app.post(f"{base}/seats/1/{path}", json=body, headers=bearer(bela)))
        tried += 6
        stored += sum(answer.status_code == 200 for answer in answers)
        # Refused: over a limit, or (after a refused take-back) away while a bot plays.
        assert {a.status_code for a in answers} <= {200, 403, 409, 429}
        clock.at += ACT_WINDOW / 2
    after = snapshot_bytes(app, table_id)
    seated = snapshot_bytes(app, table_id, anna)
    print(f"\n{tried} acts tried, {stored} stored; snapshot {before} -> {after} bytes")
    assert stored > SEAT_LOG_SHOWN * 2  # far more than the document shows got through
    # What a seat downloads: the table as it was, plus at most SEAT_LOG_SHOWN entries of
    # about 110 bytes each (a pause proposal, an away date, the stand-in: one of each).
    assert after < before + SEAT_LOG_SHOWN * 150
    assert seated < before + SEAT_LOG_SHOWN * 150 + 2048
    stored_log = app.app.state.service.cache.tables[table_id].seat_log  # type: ignore[attr-defined]
    assert len(stored_log) == stored  # the database keeps every one


async def _plan_and_take_back(service: TableService, table_id: str, token: str) -> list[str]:
    """Seat 0 plans and takes its plan back, again and again: what each take-back answered."""
    game, by = get_game("toy"), service.token_hash(token)
    answers = []
    for _ in range(50):
        data = await service.get_stored(table_id)
        assert data.state is not None
        plan = next(c for c in game.legal(data.state, 0) if c["type"] == "plan")
        await service.submit(table_id, 0, plan, by=by)
        try:
            await service.submit(table_id, 0, {"type": "retract"}, by=by)
        except (RuleError, ServiceError) as refused:
            answers.append(refused.code)
            break
        answers.append("taken back")
    return answers


def test_plans_taken_back_again_and_again_do_not_grow_the_document(app: TestClient) -> None:
    """A seat that plans and takes its plan back puts two lines in every seat's log each time
    (200 times took a snapshot from 1 KB to 33 KB): a phase allows MAX_RETRACTS take-backs."""
    table_id, (anna, _) = started(app, bot=False)
    before = snapshot_bytes(app, table_id)
    assert app.portal is not None
    service: TableService = app.app.state.service  # type: ignore[attr-defined]
    answers = app.portal.call(_plan_and_take_back, service, table_id, anna)
    # Once spent, a take-back is no command of the seat's any more: the seat is not asked
    # for one, so the service answers before the game would ('cannot_retract').
    assert answers == ["taken back"] * MAX_RETRACTS + ["not_your_turn"]
    assert snapshot_bytes(app, table_id) < before + 2048


async def _finish(service: TableService, table_id: str) -> None:
    """Play the toy game to its end from the server side (every seat its first command)."""
    for _ in range(200):
        data = await service.get_stored(table_id)
        if data.status == "finished":
            return
        assert data.state is not None
        rules = get_game(data.game)
        seat = min(rules.to_act(data.state))
        await service.submit(table_id, seat, rules.legal(data.state, seat)[0])
    raise AssertionError("the game did not end in 200 moves")


def test_the_record_holds_the_whole_seat_log_and_rematch_asks_are_counted(
    app: TestClient, clock: Clock
) -> None:
    table_id, (anna, bela) = started(app, bot=False)
    base = f"/api/tables/{table_id}"
    for _ in range(SEAT_LOG_SHOWN // 2):  # more entries than a document shows
        for until in (T0 + 10 * 86400, None):
            answer = app.post(f"{base}/seats/1/away", json={"until": until}, headers=bearer(bela))
            assert answer.status_code == 200, answer.json()
        clock.at += ACT_WINDOW
    assert app.portal is not None
    service: TableService = app.app.state.service  # type: ignore[attr-defined]
    app.portal.call(_finish, service, table_id)
    record = app.get(f"{base}/record").json()
    assert [e["type"] for e in record["seat_log"]] == ["away_set", "away_cleared"] * (
        SEAT_LOG_SHOWN // 2
    )
    asks = [app.post(f"{base}/rematch", headers=bearer(anna)).status_code for _ in range(5)]
    assert asks == [200] * 4 + [429]
