"""The table chat over the table's websocket, on SQLite and Postgres: who may write where,
what every reader gets, and that the game never notices (docs/protocol.md, "Table chat")."""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest
import sqlalchemy as sa

from server.chat import Speaker, rules
from server.settings import Settings
from server.store.db import make_engine
from server.store.models import ChatRow, CommandRow
from server.tables import ServiceError
from server.tables import seats as seat_model
from tests.support.play import play_round_robin, running_app
from tests.support.testclient import TestClient
from tests.support.wsclient import Message, WsClient

ids = itertools.count(1)


def _table(client: TestClient, public: bool = True, seats: int = 2) -> tuple[str, list[str]]:
    """A started toy table of people P0 (the creator), P1…; (table id, tokens by seat)."""
    body = {"game": "toy", "seats": seats, "name": "P0", "public": public}
    created = client.post("/api/tables", json=body).json()
    table_id, tokens = created["table_id"], [created["token"]]
    for seat in range(1, seats):
        joined = client.post(
            f"/api/tables/{table_id}/join", json={"name": f"P{seat}", "invite": created["invite"]}
        )
        tokens.append(joined.json()["token"])
    started = client.post(f"/api/tables/{table_id}/start", headers=_auth(tokens[0]))
    assert started.status_code == 200, started.text
    return table_id, tokens


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _chatting(client: TestClient, table_id: str, token: str | None = None) -> WsClient:
    """A connection that said hello with ``chat: true``, its history read."""
    ws = WsClient(client, table_id, token).connect(hello=False)
    hello: Message = {"type": "hello", "chat": True}
    if token is not None:
        hello["token"] = token
    ws.send(hello)
    ws.read_until(lambda m: m["type"] == "chat_history")
    return ws


def _history(ws: WsClient) -> Message:
    return [m for m in ws.messages if m["type"] == "chat_history"][-1]


def _say(ws: WsClient, text: str | None = None, **fields: Any) -> Message:
    """Send a chat message; its ack or error."""
    message_id = fields.pop("id", None) or f"m{next(ids)}"
    message: Message = {"type": "chat", "id": message_id, **fields}
    if text is not None:
        message["text"] = text
    ws.send(message)
    return ws.read_until(lambda m: m["type"] in ("chat_ack", "error") and m.get("id") == message_id)


def _next_chat(ws: WsClient) -> Message:
    return ws.read_until(lambda m: m["type"] == "chat")


def _rows(client: TestClient, table_id: str) -> list[ChatRow]:
    async def read() -> list[ChatRow]:
        engine = make_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
        try:
            async with engine.connect() as conn:
                query = sa.select(ChatRow).where(ChatRow.table_id == table_id)
                return list((await conn.execute(query.order_by(ChatRow.seq))).all())  # type: ignore[arg-type]
        finally:
            await engine.dispose()

    assert client.portal is not None
    return client.portal.call(read)


def _no_limit(client: TestClient) -> None:
    """Let one person write as many messages as a test needs: no bucket in the process, and
    a clock that moves on by the limit's interval at each message, so the database's replay
    of the person's bucket always finds room."""

    class Unlimited(rules.Limiter):
        def allow(self, table_id: str, person: str) -> bool:
            return True

    chat = client.app.state.chat  # type: ignore[attr-defined]
    chat.limiter = Unlimited()
    ticks = itertools.count()
    chat.now = lambda: 1_800_000_000.0 + next(ticks) / rules.RATE


def test_a_message_reaches_every_reader_and_never_the_game(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    before = client.get(f"/api/tables/{table_id}").json()["version"]
    players = [_chatting(client, table_id, ada), _chatting(client, table_id, bea)]
    watcher = _chatting(client, table_id)
    assert _history(watcher)["messages"] == [] and _history(watcher)["spectators"] is True

    ack = _say(players[1], "back tonight, sorry!")
    assert ack["type"] == "chat_ack" and ack["seq"] == 1
    for ws in (*players, watcher):
        (message,) = _next_chat(ws)["messages"]
        assert message["seq"] == 1 and message["text"] == "back tonight, sorry!"
        assert (message["seat"], message["name"], message["room"]) == (1, "P1", "players")
        assert isinstance(message["at"], float)

    after = client.get(f"/api/tables/{table_id}").json()
    assert after["version"] == before
    assert all(ws.version == before for ws in (*players, watcher))

    async def commands() -> int:
        engine = make_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
        try:
            async with engine.connect() as conn:
                query = sa.select(sa.func.count()).where(CommandRow.table_id == table_id)
                return int((await conn.execute(query)).scalar_one())
        finally:
            await engine.dispose()

    assert client.portal is not None
    assert client.portal.call(commands) == 0


def test_a_quick_phrase_travels_as_its_id_and_unknown_ones_are_refused(
    client: TestClient,
) -> None:
    table_id, (ada, _bea) = _table(client)
    ws = _chatting(client, table_id, ada)
    assert _say(ws, phrase="good_game")["type"] == "chat_ack"
    (message,) = _next_chat(ws)["messages"]
    assert message["phrase"] == "good_game" and "text" not in message
    refused = _say(ws, phrase="<b>gg</b>")
    assert refused["code"] == "unknown_phrase"
    both = _say(ws, "hi", phrase="hello")
    assert both["code"] == "bad_message"
    assert len(_rows(client, table_id)) == 1


def test_html_and_script_are_stored_and_sent_as_the_text_they_are(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    writer, reader = _chatting(client, table_id, ada), _chatting(client, table_id, bea)
    text = '<img src=x onerror="alert(1)"><script>alert(2)</script> [x](javascript:1)'
    assert _say(writer, text)["type"] == "chat_ack"
    assert _next_chat(reader)["messages"][0]["text"] == text


def test_a_reload_gets_the_history_and_older_messages_on_request(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    _no_limit(client)
    state = client.app.state  # type: ignore[attr-defined]
    ada_hash = state.service.token_hash(ada)
    speaker = Speaker(0, ada_hash, ada_hash)

    async def write_many() -> None:
        for n in range(rules.HISTORY + 5):
            await state.chat.post(table_id, speaker, "players", f"m{n}", text=f"message {n}")

    assert client.portal is not None
    client.portal.call(write_many)

    again = _chatting(client, table_id, bea)
    history = _history(again)
    texts = [m["text"] for m in history["messages"]]
    assert texts == [f"message {n}" for n in range(5, rules.HISTORY + 5)]
    assert history["more"] is True and history["seq"] == rules.HISTORY + 5
    again.send({"type": "chat_history", "before": history["messages"][0]["seq"]})
    older = again.read_until(lambda m: m["type"] == "chat_history" and "before" in m)
    assert [m["text"] for m in older["messages"]] == [f"message {n}" for n in range(5)]
    assert older["more"] is False


def test_a_resent_message_is_stored_once(client: TestClient) -> None:
    table_id, (ada, _bea) = _table(client)
    ws = _chatting(client, table_id, ada)
    first = _say(ws, "once", id="same")
    second = _say(ws, "once", id="same")
    assert first["seq"] == second["seq"] == 1
    assert len(_rows(client, table_id)) == 1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x" * (rules.MAX_TEXT + 1), "too_long"),
        ("   \n ", "bad_message"),
        ("right\u202eto left", "bad_message"),
        ("bell\x07", "bad_message"),
    ],
)
def test_bad_text_is_refused_with_its_code_and_stores_nothing(
    client: TestClient, text: str, code: str
) -> None:
    table_id, (ada, _bea) = _table(client)
    ws = _chatting(client, table_id, ada)
    assert _say(ws, text)["code"] == code
    assert _say(ws, "é" * rules.MAX_TEXT)["type"] == "chat_ack"  # characters, not bytes
    assert [row.seq for row in _rows(client, table_id)] == [1]


def test_a_person_sending_too_fast_is_told_rate_limited(client: TestClient) -> None:
    table_id, (ada, _bea) = _table(client)
    ws = _chatting(client, table_id, ada)
    other = _chatting(client, table_id, ada)  # a second tab counts as the same person
    for n in range(rules.BURST):
        assert _say(ws if n % 2 else other, f"n{n}")["type"] == "chat_ack"
    refused = _say(ws, "one too many")
    assert refused["code"] == "rate_limited"
    assert len(_rows(client, table_id)) == rules.BURST


def test_a_person_writing_through_two_processes_is_held_to_one_limit(
    client: TestClient, settings: Settings
) -> None:
    """Each process has its own buckets; the database holds what every process wrote, so
    the second process refuses what the first let through beyond the limit."""
    table_id, (ada, _bea) = _table(client)
    with running_app(settings) as other:
        for app in (client.app, other.app):
            app.state.chat.now = lambda: 1_800_000_000.0  # type: ignore[attr-defined]
        tabs = [_chatting(client, table_id, ada), _chatting(other, table_id, ada)]
        watchers = [_chatting(client, table_id), _chatting(other, table_id)]
        answers = [_say(tabs[n % 2], f"n{n}").get("code") for n in range(2 * rules.BURST)]
        assert answers == [None] * rules.BURST + ["rate_limited"] * rules.BURST
        spoken = [_say(watchers[n % 2], f"w{n}", room="spectators") for n in range(8)]
        assert [m.get("code") for m in spoken] == [None] * rules.BURST + ["rate_limited"] * 3
        refused = _say(tabs[1], "and once more")
        assert refused["code"] == "rate_limited"
    assert len(_rows(client, table_id)) == 2 * rules.BURST


@pytest.mark.parametrize(
    ("times", "now", "allowed"),
    [
        ([], 0.0, True),
        ([0.0] * (rules.BURST - 1), 0.0, True),
        ([0.0] * rules.BURST, 1.0, False),
        ([0.0] * rules.BURST, 1 / rules.RATE, True),
        # Ten at once through two processes: the debt takes as long to repay.
        ([0.0] * 2 * rules.BURST, (rules.BURST + 1) / rules.RATE - 0.1, False),
        ([0.0] * 2 * rules.BURST, (rules.BURST + 1) / rules.RATE, True),
        ([float(t) for t in range(0, 60, 2)], 60.0, True),  # one every 2 s, for ever
    ],
)
def test_the_database_replays_a_persons_bucket(
    times: list[float], now: float, allowed: bool
) -> None:
    assert rules.allows(times, now) is allowed


def test_outsiders_and_foreign_tokens_cannot_post(client: TestClient) -> None:
    table_id, _tokens = _table(client)
    _other_id, (stranger, _) = _table(client)
    ws = WsClient(client, table_id).connect(hello=False)
    ws.send({"type": "chat", "id": "x", "text": "before hello"})
    assert ws.read_until(lambda m: m["type"] == "error")["code"] == "hello_required"
    ws.send({"type": "hello", "token": stranger, "chat": True})
    assert ws.read_until(lambda m: m["type"] == "error")["code"] == "bad_token"
    assert _say(ws, "still not hello")["code"] == "hello_required"
    assert _rows(client, table_id) == []


def test_false_tokens_and_spectators_neither_post_as_players_nor_hide_nor_close(
    client: TestClient,
) -> None:
    """The outsider's tries: a junk, truncated, near-miss or invite-as-token hello gets
    'bad_token' and no chat; a spectator's connection may not write in the players' room,
    hide a message or close the spectators' room. Nothing is stored."""
    table_id, (ada, _bea) = _table(client, public=False)
    secret = client.app.state.settings.secret_key  # type: ignore[attr-defined]
    invite = seat_model.invite_code(secret, table_id)
    near_miss = ada[:-1] + ("A" if ada[-1] != "A" else "B")
    for token in ["x" * 32, ada[:-1], near_miss, invite]:
        ws = WsClient(client, table_id).connect(hello=False)
        ws.send({"type": "hello", "token": token, "chat": True})
        assert ws.read_until(lambda m: m["type"] == "error")["code"] == "bad_token"
        assert _say(ws, "let me in")["code"] == "hello_required"
        assert not any(m["type"].startswith("chat") for m in ws.messages)
        ws.close()
    player = _chatting(client, table_id, ada)
    seq = _say(player, "between us")["seq"]
    outsider = _chatting(client, table_id)
    assert _history(outsider)["messages"] == []  # a private table's players' room
    assert _say(outsider, "I am Ada", room="players", seat=0, name="Ada")["code"] == (
        "players_only"
    )
    attempts: list[Message] = [
        {"type": "chat_hide", "id": "h", "seq": seq},
        {"type": "chat_room", "id": "r", "spectators": False},
    ]
    for attempt in attempts:
        outsider.send(attempt)
        answer = outsider.read_until(lambda m: m["type"] == "error")
        assert (answer["id"], answer["code"]) == (attempt["id"], "not_creator")
    older = {"type": "chat_history", "before": seq + 1}
    outsider.send(older)
    assert outsider.read_until(lambda m: "before" in m)["messages"] == []

    # Whoever a connection once was, a message is written only while its token owns the
    # seat: a speaker whose hash owns no seat (a seat lost, a forged identity) is refused.
    async def as_nobody() -> str:
        nobody = Speaker(1, "0" * 64, "0" * 64)
        try:
            await client.app.state.chat.post(table_id, nobody, "players", "f", text="hi")  # type: ignore[attr-defined]
        except ServiceError as exc:
            return exc.code
        return "stored"

    assert client.portal is not None
    assert client.portal.call(as_nobody) == "bad_token"
    assert [(r.seq, r.kind, r.hidden) for r in _rows(client, table_id)] == [(1, "text", False)]


def test_a_spectator_writes_only_in_its_own_room_and_never_as_a_player(
    client: TestClient,
) -> None:
    table_id, (ada, _bea) = _table(client)
    player, watcher = _chatting(client, table_id, ada), _chatting(client, table_id)
    assert _say(watcher, "I am P0", room="players")["code"] == "players_only"
    posing = _say(watcher, "I am P0", room="spectators", name="P0", seat=0)
    assert posing["type"] == "chat_ack"
    (message,) = _next_chat(player)["messages"]
    assert (message["seat"], message["room"], message["name"]) == (None, "spectators", "P0")
    # A player may open the spectators' room and write there as themselves.
    assert _say(player, "welcome", room="spectators")["type"] == "chat_ack"
    welcome = watcher.read_until(
        lambda m: m["type"] == "chat" and any(x["seat"] == 0 for x in m["messages"])
    )
    assert welcome["messages"][-1]["text"] == "welcome"


def test_a_spectator_keeps_one_mark_under_every_name_and_a_seat_has_none(
    client: TestClient,
) -> None:
    table_id, (ada, _bea) = _table(client)
    player = _chatting(client, table_id, ada)
    first = _chatting(client, table_id)
    assert _say(first, "hi", room="spectators", name="Cleo")["type"] == "chat_ack"
    renamed = _chatting(client, table_id)  # a reload: a new connection, another name
    assert _say(renamed, "it is me again", room="spectators", name="Dora")["type"] == "chat_ack"
    assert _say(player, "welcome", room="spectators")["type"] == "chat_ack"
    shown = player.read_until(lambda m: m["type"] == "chat" and m["messages"][-1]["seat"] == 0)
    messages = _history(_chatting(client, table_id, ada))["messages"]
    cleo, dora, ada_says = messages
    assert (cleo["name"], dora["name"]) == ("Cleo", "Dora")
    assert len(cleo["who"]) == 12 and cleo["who"] == dora["who"]
    assert "who" not in ada_says and "who" not in shown["messages"][-1]
    # At another table the same spectator's mark is another: it follows nobody around.
    other_id, _ = _table(client)
    elsewhere = _chatting(client, other_id)
    assert _say(elsewhere, "hi", room="spectators", name="Cleo")["type"] == "chat_ack"
    (there,) = _next_chat(elsewhere)["messages"]
    assert there["who"] != cleo["who"]


def test_spectators_of_a_private_table_read_their_room_only(client: TestClient) -> None:
    table_id, (ada, _bea) = _table(client, public=False)
    player = _chatting(client, table_id, ada)
    assert _say(player, "between us")["type"] == "chat_ack"
    watcher = _chatting(client, table_id)
    assert _history(watcher)["messages"] == []
    assert _say(player, "still between us")["type"] == "chat_ack"
    assert _say(player, "hello watchers", room="spectators")["type"] == "chat_ack"
    (message,) = _next_chat(watcher)["messages"]
    assert message["text"] == "hello watchers"
    assert all(
        m.get("text") != "still between us" for c in watcher.messages for m in c.get("messages", [])
    )


def test_the_creator_hides_a_message_for_everyone_and_it_stays_stored(
    client: TestClient,
) -> None:
    table_id, (ada, bea) = _table(client)
    creator, other = _chatting(client, table_id, ada), _chatting(client, table_id, bea)
    seq = _say(other, "something rude")["seq"]
    assert _say(other, "hide yourself", id="h1")["type"] == "chat_ack"
    other.send({"type": "chat_hide", "id": "h2", "seq": seq})
    assert other.read_until(lambda m: m["type"] == "error")["code"] == "not_creator"
    creator.send({"type": "chat_hide", "id": "h3", "seq": 99})
    assert creator.read_until(lambda m: m["type"] == "error")["code"] == "unknown_chat"
    creator.send({"type": "chat_hide", "id": "h4", "seq": seq})
    assert creator.read_until(lambda m: m.get("id") == "h4")["type"] == "chat_ack"
    assert other.read_until(lambda m: m["type"] == "chat" and "hidden" in m)["hidden"] == [seq]

    later = _chatting(client, table_id)
    shown = _history(later)["messages"][0]
    assert shown["hidden"] is True and "text" not in shown and shown["seq"] == seq
    row = _rows(client, table_id)[0]
    assert row.hidden is True and row.text == "something rude"


def test_the_creator_closes_the_spectators_room(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    creator, watcher = _chatting(client, table_id, ada), _chatting(client, table_id)
    other = _chatting(client, table_id, bea)
    other.send({"type": "chat_room", "id": "r1", "spectators": False})
    assert other.read_until(lambda m: m["type"] == "error")["code"] == "not_creator"
    creator.send({"type": "chat_room", "id": "r2", "spectators": False})
    assert watcher.read_until(lambda m: m["type"] == "chat")["spectators"] is False
    assert _say(watcher, "let me in", room="spectators")["code"] == "room_closed"
    assert _history(_chatting(client, table_id))["spectators"] is False
    creator.send({"type": "chat_room", "id": "r3", "spectators": True})
    assert watcher.read_until(lambda m: m["type"] == "chat")["spectators"] is True
    assert _say(watcher, "thanks", room="spectators")["type"] == "chat_ack"


def test_the_owner_of_a_seat_a_bot_plays_still_chats_under_their_name(
    client: TestClient,
) -> None:
    table_id, (ada, bea) = _table(client)
    handed = client.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"kind": "random"}, headers=_auth(bea)
    )
    assert handed.status_code == 200, handed.text
    reader = _chatting(client, table_id, ada)
    covered = WsClient(client, table_id, bea).connect(hello=False)
    covered.send({"type": "hello", "token": bea, "chat": True})
    assert covered.read_until(lambda m: m["type"] == "error")["code"] == "seat_lost"
    covered.read_until(lambda m: m["type"] == "chat_history")
    assert covered.doc is not None and covered.doc["you"]["seat"] is None  # watches, not plays
    assert _say(covered, "the bot plays for me today")["type"] == "chat_ack"
    (message,) = _next_chat(reader)["messages"]
    assert (message["seat"], message["name"]) == (1, "P1")


def test_a_client_that_did_not_ask_for_the_chat_gets_none_of_it(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    old = WsClient(client, table_id, bea).connect()
    talker = _chatting(client, table_id, ada)
    assert _say(talker, "can you hear me?")["type"] == "chat_ack"
    old.send({"type": "ping"})
    old.read_until(lambda m: m["type"] == "pong")
    assert not any(m["type"].startswith("chat") for m in old.messages)
    assert _say(old, "me neither")["code"] == "chat_off"


def test_two_writers_at_once_get_one_seq_each(client: TestClient) -> None:
    table_id, tokens = _table(client)
    state = client.app.state  # type: ignore[attr-defined]
    speakers = [Speaker(s, h, h) for s, h in enumerate(map(state.service.token_hash, tokens))]

    async def both() -> list[int]:
        posts = (
            state.chat.post(table_id, who, "players", "c", text=f"hi {who.seat}")
            for who in speakers
        )
        return list(await asyncio.gather(*posts))

    assert client.portal is not None
    assert sorted(client.portal.call(both)) == [1, 2]


@pytest.mark.parametrize("public", [True, False])
def test_a_finished_tables_chat_downloads_apart_from_its_record(
    client: TestClient, public: bool
) -> None:
    table_id, (ada, bea) = _table(client, public=public)
    talker, watcher = _chatting(client, table_id, ada), _chatting(client, table_id)
    assert _say(talker, "good luck!")["type"] == "chat_ack"
    rude = _say(talker, "something rude")["seq"]
    talker.send({"type": "chat_hide", "id": "hide", "seq": rude})
    talker.read_until(lambda m: m.get("id") == "hide")
    assert _say(watcher, "go go", room="spectators", name="Cleo")["type"] == "chat_ack"
    assert client.get(f"/api/tables/{table_id}/chat").json()["code"] == "not_finished"
    talker.close()
    watcher.close()
    players = {0: WsClient(client, table_id, ada).connect()}
    players[1] = WsClient(client, table_id, bea).connect()
    play_round_robin(client, table_id, players, [], random.Random(5))

    record = client.get(f"/api/tables/{table_id}/record").json()
    assert "chat" not in record and all("chat" not in str(c) for c in record["commands"])
    seated = client.get(f"/api/tables/{table_id}/chat", headers=_auth(bea)).json()
    shown = [(m["room"], m.get("text"), m.get("hidden", False)) for m in seated["messages"]]
    assert shown == [
        ("players", "good luck!", False),
        ("players", None, True),
        ("spectators", "go go", False),
    ]
    anyone = client.get(f"/api/tables/{table_id}/chat").json()["messages"]
    assert len(anyone) == (3 if public else 1)  # a private table's players' room: seats only
    _other, (stranger, _) = _table(client)
    refused = client.get(f"/api/tables/{table_id}/chat", headers=_auth(stranger))
    assert (refused.status_code, refused.json()["code"]) == (403, "bad_token")


def test_your_tables_tell_the_newest_message_someone_else_wrote(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    ada_ws, bea_ws = _chatting(client, table_id, ada), _chatting(client, table_id, bea)

    def newest() -> list[int]:
        asked = {"seats": [{"table_id": table_id, "token": t} for t in (ada, bea)]}
        answer = client.post("/api/tables/mine", json=asked).json()["tables"]
        return [entry["chat"] for entry in answer]

    assert newest() == [0, 0]
    first = _say(ada_ws, "hello")["seq"]
    assert newest() == [0, first]  # one's own message is never unread
    second = _say(bea_ws, "hi!")["seq"]
    watcher = _chatting(client, table_id)
    third = _say(watcher, "hi all", room="spectators")["seq"]
    assert newest() == [third, third] and second < third


@pytest.mark.postgres
@pytest.mark.parametrize("database_kind", ["postgres"], indirect=True)
def test_the_chat_fan_out_sweep_announces_a_seq_whose_notify_was_lost(
    client: TestClient,
) -> None:
    """A process killed between its commit and its NOTIFY: the other processes' sweep reads
    the newest chat seq of the tables they follow and announces it (the game's fan-out does
    the same with versions)."""
    from server.chat.store import SEQS_SQL
    from server.realtime.pg_fanout import PostgresFanOut

    table_id, (ada, _bea) = _table(client)
    assert _say(_chatting(client, table_id, ada), "lost in the post")["seq"] == 1
    heard: list[tuple[str, int]] = []

    async def sweep() -> int:
        url = client.app.state.settings.database_url  # type: ignore[attr-defined]
        fanout = PostgresFanOut(url, channel="guildhall_chat_test", versions_sql=SEQS_SQL)
        fanout.subscribe(table_id, lambda t, seq: heard.append((t, seq)))
        await fanout.start()
        try:
            return await fanout.sweep()
        finally:
            await fanout.stop()

    assert client.portal is not None
    client.portal.call(sweep)
    assert heard == [(table_id, 1)]


def test_a_process_keeps_a_chat_only_while_a_connection_follows_it(client: TestClient) -> None:
    table_id, (ada, bea) = _table(client)
    chat = client.app.state.chat  # type: ignore[attr-defined]
    first, second = _chatting(client, table_id, ada), _chatting(client, table_id, bea)
    assert _say(first, "hello")["type"] == "chat_ack"
    first.close()
    assert _say(second, "still here")["type"] == "chat_ack"
    assert table_id in chat._logs
    second.close()
    client.get("/healthz")  # the closes are handled before the next request is answered
    for _ in range(100):
        if table_id not in chat._logs:
            break
        client.get("/healthz")
    assert table_id not in chat._logs
    again = _chatting(client, table_id, ada)
    assert [m["text"] for m in _history(again)["messages"]] == ["hello", "still here"]
