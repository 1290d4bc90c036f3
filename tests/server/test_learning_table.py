"""A learning table: the option at creation, shown to everyone, kept in the record; the bot's
suggestions only for the seat whose decision it is, from that seat's own view alone."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from server.bots import Budget
from server.bots.adapters import adapter_for
from server.engine import Rng, get_game
from server.tables.data import SeatInfo, TableData, hash_token, seed_hash
from server.tables.suggest import compute
from tests.support.testclient import TestClient

# A few whole-game simulations: enough for three ranked commands, quick on a busy machine.
SMALL = Budget(iterations=6, seconds=None, horizon=60)


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _learning_table(
    client: TestClient,
    game: str = "norenberc",
    learning: bool = True,
    start: bool = True,
    options: dict[str, Any] | None = None,
    third: str | None = "greedy",
) -> tuple[str, list[str | None]]:
    """Two people (seats 0, 1) and ``third`` (a bot's kind; None: a third person)."""
    body = {
        "game": game,
        "options": options or {},
        "seats": 3,
        "bots": [None, None, third],
        "name": "Ada",
        "learning": learning,
        "public": True,
    }
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id, ada = created.json()["table_id"], created.json()["token"]
    join = {"name": "Bea", "invite": created.json()["invite"]}
    bea = client.post(f"/api/tables/{table_id}/join", json=join).json()["token"]
    cy = None
    if third is None:
        join = {"name": "Cy", "invite": created.json()["invite"]}
        cy = client.post(f"/api/tables/{table_id}/join", json=join).json()["token"]
    if start:
        assert client.post(f"/api/tables/{table_id}/start", headers=_auth(ada)).status_code == 200
    client.app.state.service.suggester.budget = SMALL  # type: ignore[attr-defined]
    return table_id, [ada, bea, cy]


def _ask(client: TestClient, table_id: str, seat: int, token: str | None) -> Any:
    return client.post(f"/api/tables/{table_id}/seats/{seat}/suggest", headers=_auth(token))


def _deciding(client: TestClient, table_id: str) -> list[int]:
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.portal is not None
    data = client.portal.call(service.get_stored, table_id)
    return sorted(get_game(data.game).to_act(data.state))


def test_the_option_is_off_by_default_and_everyone_sees_it(client: TestClient) -> None:
    plain, _ = _learning_table(client, learning=False, start=False)
    learning, tokens = _learning_table(client, start=False)
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[plain]["learning"] is False
    assert listed[learning]["learning"] is True
    assert client.get(f"/api/tables/{learning}").json()["learning"] is True
    # The game's own options stay the game's: the flag is the table's.
    assert "learning" not in client.get(f"/api/tables/{learning}").json()["options"]
    mine = client.post(
        "/api/tables/mine", json={"seats": [{"table_id": learning, "token": tokens[1]}]}
    )
    assert mine.json()["tables"][0]["learning"] is True
    unset = {"game": "norenberc", "seats": 2, "name": "Cy"}
    made = client.post("/api/tables", json=unset).json()["table_id"]
    assert client.get(f"/api/tables/{made}").json()["learning"] is False


@pytest.mark.parametrize("game", ["norenberc", "strasbourg"])
def test_the_deciding_seat_gets_three_suggestions_from_its_legal_commands(
    client: TestClient, game: str
) -> None:
    table_id, tokens = _learning_table(client, game, third=None)  # nothing moves meanwhile
    seat = next(s for s in _deciding(client, table_id) if tokens[s] is not None)
    answer = _ask(client, table_id, seat, tokens[seat])
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["seat"] == seat and 1 <= len(body["suggestions"]) <= 3
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.portal is not None
    data = client.portal.call(service.get_stored, table_id)
    legal = get_game(game).legal(data.state, seat)
    assert all(s["cmd"] in legal for s in body["suggestions"])
    if len(legal) > 1:
        assert len(body["suggestions"]) == min(3, len(legal), 4)
        assert all(s["win"] is None or 0 <= s["win"] <= 1 for s in body["suggestions"])
        visits = [s["visits"] for s in body["suggestions"]]
        assert visits == sorted(visits, reverse=True)
    # Asked again at the same version: the same answer, from memory.
    assert _ask(client, table_id, seat, tokens[seat]).json() == body


def test_refused_where_the_option_is_off(client: TestClient) -> None:
    table_id, tokens = _learning_table(client, learning=False)
    seat = next(s for s in _deciding(client, table_id) if tokens[s] is not None)
    answer = _ask(client, table_id, seat, tokens[seat])
    assert answer.status_code == 409
    assert answer.json()["code"] == "not_a_learning_table"


def test_refused_before_the_start(client: TestClient) -> None:
    table_id, tokens = _learning_table(client, start=False)
    answer = _ask(client, table_id, 0, tokens[0])
    assert (answer.status_code, answer.json()["code"]) == (409, "not_started")


def test_only_the_seats_own_playing_token_asks_and_only_on_its_decision(
    client: TestClient,
) -> None:
    table_id, tokens = _learning_table(client, "strasbourg")
    deciding = [s for s in _deciding(client, table_id) if tokens[s] is not None]
    seat = deciding[0]
    other = 1 - seat
    # A spectator (no token), an outsider's made-up token, another seat's token.
    assert _ask(client, table_id, seat, None).json()["code"] == "no_token"
    assert _ask(client, table_id, seat, "made-up-token").json()["code"] == "bad_token"
    refused = _ask(client, table_id, seat, tokens[other])
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_seat")
    # The bot's seat has no token; asking for it with one's own is another's seat.
    assert _ask(client, table_id, 2, tokens[seat]).json()["code"] == "not_your_seat"
    # A covered owner: a bot plays the seat now, its token may only take it back.
    handed = client.post(
        f"/api/tables/{table_id}/seats/{seat}/bot",
        json={"kind": "greedy"},
        headers=_auth(tokens[seat]),
    )
    assert handed.status_code == 200, handed.text
    covered = _ask(client, table_id, seat, tokens[seat])
    assert (covered.status_code, covered.json()["code"]) == (403, "seat_lost")


def test_not_your_decision_is_refused(client: TestClient) -> None:
    # Ordered planning: one seat plans at a time, the others wait for their turn.
    # Three people: nothing moves while the test asks.
    table_id, tokens = _learning_table(client, options={"planning": "ordered"}, third=None)
    deciding = _deciding(client, table_id)
    assert len(deciding) == 1
    waiting = next(s for s in (0, 1) if s not in deciding)
    answer = _ask(client, table_id, waiting, tokens[waiting])
    assert (answer.status_code, answer.json()["code"]) == (409, "not_your_turn")


def test_a_seat_is_rate_limited(client: TestClient) -> None:
    table_id, tokens = _learning_table(client, "strasbourg", third=None)
    seat = next(s for s in _deciding(client, table_id) if tokens[s] is not None)
    suggester = client.app.state.service.suggester  # type: ignore[attr-defined]
    suggester._answers.clear()
    codes = []
    for _ in range(4):
        codes.append(_ask(client, table_id, seat, tokens[seat]).status_code)
        suggester._answers.clear()
    assert codes[:3] == [200, 200, 200]
    last = _ask(client, table_id, seat, tokens[seat])
    assert (last.status_code, last.json()["code"]) == (429, "rate_limited")
    assert int(last.headers["Retry-After"]) >= 1


def test_the_record_says_whether_the_option_was_on(client: TestClient) -> None:
    for learning in (True, False):
        body = {
            "game": "toy",
            "seats": 2,
            "name": "Ada",
            "bots": [None, "random"],
            "learning": learning,
        }
        created = client.post("/api/tables", json=body).json()
        table_id, ada = created["table_id"], created["token"]
        assert client.post(f"/api/tables/{table_id}/start", headers=_auth(ada)).status_code == 200
        handed = client.post(
            f"/api/tables/{table_id}/seats/0/bot", json={"kind": "random"}, headers=_auth(ada)
        )
        assert handed.status_code == 200, handed.text
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish the toy game"
            time.sleep(0.05)
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["learning"] is learning
        # The record still replays: its options are the game's alone.
        assert "learning" not in record["options"]


# ------------------------------------------------------------------ from the seat's view only


def _table(game_name: str, state: Any, seats: int) -> TableData:
    return TableData(
        id="t",
        game=game_name,
        title=game_name,
        options=get_game(game_name).default_options(),
        seed="s",
        seed_sha256=seed_hash("s"),
        status="playing",
        version=7,
        seats=tuple(SeatInfo(s, f"P{s}", None) for s in range(seats)),
        state=state,
        seq=6,
        learning=True,
    )


@pytest.mark.parametrize("game_name", ["norenberc", "strasbourg"])
def test_two_states_differing_only_in_hidden_parts_get_the_same_suggestion(
    game_name: str,
) -> None:
    game = get_game(game_name)
    state = game.new(3, "hidden-parts", game.default_options())
    seat = min(game.to_act(state))
    view = game.view(state, seat)
    # Two worlds the seat cannot tell apart: its view sampled twice, hidden parts afresh.
    adapter = adapter_for(game_name)
    one = adapter.determinize(view, seat, Rng(1))
    two = adapter.determinize(view, seat, Rng(2))
    assert one != two, "the samples should differ in what the seat cannot see"
    assert game.view(one, seat) == game.view(two, seat) == view
    first = compute(_table(game_name, one, 3), seat, SMALL)
    second = compute(_table(game_name, two, 3), seat, SMALL)
    assert first == second
    assert len(first) == min(3, len(view["legal"]))
    # And the real table, whose hidden parts are a third world, gets it too.
    assert compute(_table(game_name, state, 3), seat, SMALL) == first


def test_a_finished_table_gives_no_suggestion() -> None:
    from server.tables.data import ServiceError
    from server.tables.suggest import check_askable

    game = get_game("strasbourg")
    data = _table("strasbourg", game.new(3, "x", game.default_options()), 3)
    owner = replace(data.seats[0], token_hash=hash_token("k", "tok"))
    over = replace(data, status="finished", seats=(owner, *data.seats[1:]))
    with pytest.raises(ServiceError) as refused:
        check_askable(over, "k", "tok", 0)
    assert refused.value.code == "finished"


class _Thinking:
    """A thinking budget that grants a little and notes what it was charged."""

    def __init__(self, grant: float) -> None:
        self.grant = grant
        self.asked: list[float] = []
        self.settled: list[tuple[float, float]] = []

    def take(self, wanted: float, address: str | None = None) -> float:
        self.asked.append(wanted)
        return self.grant

    def settle(self, granted: float, used: float, address: str | None = None) -> None:
        self.settled.append((granted, used))


def test_a_suggestion_searches_on_the_bots_thinking_budget(client: TestClient) -> None:
    suggester = client.app.state.service.suggester  # type: ignore[attr-defined]
    # The app's bot runner hands its budget over: suggestions cannot starve the bot seats.
    assert suggester.thinking is client.app.state.bots.thinking  # type: ignore[attr-defined]
    table_id, tokens = _learning_table(client, "strasbourg", third=None)
    seat = next(s for s in _deciding(client, table_id) if tokens[s] is not None)
    thinking = _Thinking(grant=0.2)
    suggester.thinking = thinking
    suggester.budget = Budget(iterations=3, seconds=5.0, horizon=60)
    assert _ask(client, table_id, seat, tokens[seat]).status_code == 200
    assert thinking.asked == [5.0]
    assert len(thinking.settled) == 1 and thinking.settled[0][0] == 0.2
