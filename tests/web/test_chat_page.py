"""The table chat in real Chromium, across two ``guildhall serve`` processes on one Postgres
database (the NOTIFY fan-out joins them): two seats and a spectator talk; a message written
on process A's page appears on process B's; what people typed is shown as text; history
after a reload; muting, hiding, the unread badge and the phone's sheet that leaves the
prompt in view; the owner of a seat a bot plays, who chats under the seat's name; the
waiting room's chat before the start. Screenshots: ``artifacts/chat-*.png``.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from server.devtools.load.servers import ServerProcess, running_servers
from server.settings import normalize_database_url
from server.store.db import make_engine
from server.store.models import ChatRow
from tests.scale.pg import fresh_database

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
XSS = (
    '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script> <b>bold</b>'
    " https://example.org/x [link](javascript:window.pwned=3)"
)


@pytest.fixture(scope="module")
def chat_database() -> Iterator[str]:
    with fresh_database("gh_chat") as url:
        yield url


@pytest.fixture(scope="module")
def cluster(
    chat_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    with running_servers(
        chat_database, 2, tmp_path_factory.mktemp("chat"), GUILDHALL_BOT_DELAY="0"
    ) as servers:
        yield servers


def store_messages(url: str, table_id: str, texts: list[str]) -> None:
    """Write a long chat straight into the database (one person may not send this many)."""

    async def write() -> None:
        engine = make_engine(normalize_database_url(url))
        try:
            async with AsyncSession(engine) as session:
                for seq, text in enumerate(texts, start=1):
                    session.add(
                        ChatRow(
                            table_id=table_id, seq=seq, kind="text", room="players", seat=1,
                            name="Bea", text=text, hidden=False, author="old",
                            client_id=f"old{seq}", at=1_800_000_000.0 + seq,
                        )
                    )  # fmt: skip
                await session.commit()
        finally:
            await engine.dispose()

    # Playwright's sync API runs a loop in this thread: the write gets a thread of its own.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, write()).result()


def started_table(server: ServerProcess, public: bool = True) -> tuple[str, str, str]:
    """A started two-seat Norenberc table of Ada (the creator) and Bea: (id, tokens)."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        body = {"game": "norenberc", "seats": 2, "name": "Ada", "public": public}
        created = client.post("/api/tables", json=body).json()
        table_id, ada = created["table_id"], created["token"]
        join = {"name": "Bea", "invite": created["invite"]}
        bea = client.post(f"/api/tables/{table_id}/join", json=join).json()["token"]
        started = client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {ada}"}
        )
        assert started.status_code == 200, started.text
    return table_id, ada, bea


def open_table(
    new_page: Any, server: ServerProcess, table_id: str, token: str | None, **options: Any
) -> Any:
    page = new_page(**options)
    suffix = f"#seat={token}" if token else ""
    page.goto(f"{server.url}/t/{table_id}{suffix}")
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_selector("#chat-toggle:not([hidden])")
    return page


def write(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def texts(page: Any) -> list[str]:
    return list(page.locator("#chat-list .chat-msg:not(.sending) .chat-text").all_inner_texts())


def wait_text(page: Any, text: str) -> None:
    page.locator("#chat-list .chat-msg:not(.sending) .chat-text", has_text=text).first.wait_for()


def test_two_seats_and_a_spectator_talk_across_two_processes(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    a, b = cluster
    table_id, ada, bea = started_table(a)
    ada_page = open_table(new_page, a, table_id, ada, viewport=DESKTOP)
    bea_page = open_table(new_page, b, table_id, bea, viewport=DESKTOP, locale="de-DE")
    watcher = open_table(new_page, b, table_id, None, viewport=DESKTOP)
    for page in (ada_page, bea_page, watcher):
        assert page.locator("#chat").is_visible()  # a wide window shows the panel

    # Written on process A, read on process B: as the text it is, never as markup.
    write(ada_page, XSS)
    wait_text(bea_page, "<b>bold</b>")
    wait_text(watcher, "<b>bold</b>")
    for page in (bea_page, watcher):
        assert XSS in texts(page)
        assert page.locator("#chat-list img, #chat-list script, #chat-list b").count() == 0
        assert page.locator("#chat-list a").count() == 0  # links shown as text
        assert page.evaluate("window.pwned") is None
    author = bea_page.locator("#chat-list .chat-author").first
    assert "Ada" in author.inner_text() and "p0" in (author.get_attribute("class") or "")

    # A quick phrase travels as its id and reads in each reader's language.
    bea_page.select_option("#chat-phrases", "good_game")
    wait_text(ada_page, "Good game!")
    wait_text(bea_page, "Gutes Spiel!")

    # The spectator writes in the spectators' room, which the players may open.
    watcher.click("#chat-room-spectators")
    watcher.fill("#chat-name", "Cleo")
    watcher.dispatch_event("#chat-name", "change")
    write(watcher, "go Ada!")
    ada_page.click("#chat-room-spectators")
    wait_text(ada_page, "go Ada!")
    cleo = ada_page.locator("#chat-list .chat-author").last.inner_text()
    assert "Cleo" in cleo and "watching" in cleo
    # ... and cannot write in the players' room.
    watcher.click("#chat-room-players")
    assert watcher.locator("#chat-input").count() == 0

    # The creator hides the spectator's message for everyone; it stays as "hidden".
    ada_page.locator("#chat-list .chat-msg", has_text="go Ada!").locator(
        ".chat-act", has_text="Hide"
    ).click()
    watcher.click("#chat-room-spectators")
    watcher.locator("#chat-list .hidden-msg").wait_for()
    assert "go Ada!" not in " ".join(texts(watcher))
    ada_page.click("#chat-room-players")
    ada_page.screenshot(path=str(ARTIFACTS / "chat-desktop.png"), full_page=False)

    # Muting is one's own: Bea mutes Ada, and a reload keeps it (and the history).
    bea_page.locator("#chat-list .chat-msg", has_text="bold").locator(".chat-act").first.click()
    assert bea_page.locator("#chat-list .chat-msg", has_text="bold").count() == 0
    bea_page.reload()
    bea_page.wait_for_selector("#conn[data-state=online]")
    wait_text(bea_page, "Gutes Spiel!")
    assert bea_page.locator("#chat-list .chat-msg", has_text="bold").count() == 0
    bea_page.locator(".chat-muted button").click()  # unmute
    wait_text(bea_page, "<b>bold</b>")
    # Nothing of the chat is in the game: the table's version is what the start made.
    with httpx.Client(base_url=b.url, timeout=30) as client:
        assert client.get(f"/api/tables/{table_id}").json()["version"] == 3


def test_on_a_phone_the_chat_is_a_sheet_with_an_unread_badge_above_the_prompt(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    a, b = cluster
    table_id, ada, bea = started_table(a)
    ada_page = open_table(new_page, a, table_id, ada, viewport=DESKTOP)
    bea_page = open_table(new_page, b, table_id, bea, viewport=PHONE)
    assert not bea_page.locator("#chat").is_visible()  # a phone opens it when asked

    write(ada_page, "back tonight, your move")
    badge = bea_page.locator("#chat-unread")
    badge.wait_for()
    assert badge.inner_text() == "1"
    bea_page.screenshot(path=str(ARTIFACTS / "chat-phone-unread.png"))
    bea_page.wait_for_function(
        "document.getElementById('chat-announce').textContent.includes('back tonight')"
    )
    bea_page.click("#chat-toggle")
    assert bea_page.locator("#chat-unread").count() == 0
    wait_text(bea_page, "back tonight")
    # Both must plan now: the prompt's sheet stays in view, under the chat's.
    prompt = bea_page.locator("#prompt")
    assert prompt.is_visible()
    chat_box = bea_page.locator("#chat").bounding_box()
    prompt_box = prompt.bounding_box()
    assert chat_box["y"] + chat_box["height"] <= prompt_box["y"] + 1
    write(bea_page, "sorry, slow week")
    wait_text(ada_page, "sorry, slow week")
    bea_page.screenshot(path=str(ARTIFACTS / "chat-phone.png"))
    assert bea_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Escape closes it, and the focus goes back to its button.
    bea_page.focus("#chat-input")
    bea_page.keyboard.press("Escape")
    assert not bea_page.locator("#chat").is_visible()
    assert bea_page.evaluate("document.activeElement.id") == "chat-toggle"

    # The lobby's "your tables" marks a table whose chat has what this browser has not shown.
    bea_page.goto(f"{b.url}/")
    entry = bea_page.locator(f".mine-item[data-table='{table_id}']")
    entry.locator(".mine-status").wait_for()
    bea_page.wait_for_function("document.querySelector('.mine-status').textContent.trim() !== ''")
    assert entry.locator(".mine-chat").count() == 0
    write(ada_page, "are you there?")
    wait_text(ada_page, "are you there?")
    bea_page.reload()
    entry.locator(".mine-chat").wait_for()
    bea_page.screenshot(path=str(ARTIFACTS / "chat-lobby-unread.png"))


def test_the_owner_of_a_seat_a_bot_plays_chats_under_their_name_until_taking_it_back(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    a, b = cluster
    table_id, ada, bea = started_table(a, public=False)
    ada_page = open_table(new_page, a, table_id, ada, viewport=DESKTOP)
    bea_page = open_table(new_page, b, table_id, bea, viewport=DESKTOP)
    with httpx.Client(base_url=b.url, timeout=30) as client:
        handed = client.post(
            f"/api/tables/{table_id}/seats/1/bot",
            json={"kind": "random"},
            headers={"Authorization": f"Bearer {bea}"},
        )
        assert handed.status_code == 200, handed.text
    # Bea now watches (her page offers the seat back) and still talks in the players' room.
    bea_page.locator("#reclaim-seat").wait_for()
    bea_page.wait_for_selector("#conn[data-state=online]")
    assert bea_page.evaluate("document.querySelector('#chat-room-players') !== null")
    write(bea_page, "a bot plays for me a while")
    wait_text(ada_page, "a bot plays for me a while")
    author = ada_page.locator("#chat-list .chat-msg", has_text="a bot plays").locator(
        ".chat-author"
    )
    assert "Bea" in author.inner_text() and "p1" in (author.get_attribute("class") or "")
    assert "watching" not in author.inner_text()

    # A page opened afresh on the covered seat's link does the same, and reads the room.
    bea_page.reload()
    bea_page.locator("#reclaim-seat").wait_for()
    wait_text(bea_page, "a bot plays for me a while")
    write(ada_page, "see you soon")
    wait_text(bea_page, "see you soon")
    write(bea_page, "back in a minute")
    wait_text(ada_page, "back in a minute")

    # Taken back, she plays and chats as before.
    bea_page.locator("#reclaim-seat").click()
    bea_page.wait_for_function("document.getElementById('reclaim-seat') === null")
    bea_page.wait_for_selector("#conn[data-state=online]")
    write(bea_page, "I am back")
    wait_text(ada_page, "I am back")
    assert "Bea" in ada_page.locator("#chat-list .chat-author").last.inner_text()


def test_those_who_joined_talk_in_the_waiting_room_before_the_start(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    a, b = cluster
    with httpx.Client(base_url=a.url, timeout=30) as client:
        body = {"game": "norenberc", "seats": 2, "name": "Ada", "public": False}
        created = client.post("/api/tables", json=body).json()
        table_id, ada = created["table_id"], created["token"]
        join = {"name": "Bea", "invite": created["invite"]}
        bea = client.post(f"/api/tables/{table_id}/join", json=join).json()["token"]
    ada_page = open_table(new_page, a, table_id, ada, viewport=DESKTOP)
    bea_page = open_table(new_page, b, table_id, bea, viewport=PHONE)
    for page in (ada_page, bea_page):
        page.wait_for_selector("#waiting-room:not([hidden])")
    assert ada_page.locator("#chat").is_visible()  # below the waiting room's card
    write(ada_page, "ready when you are")
    bea_page.locator("#chat-unread").wait_for()
    bea_page.click("#chat-toggle")
    wait_text(bea_page, "ready when you are")
    write(bea_page, "one minute, tea first")
    wait_text(ada_page, "one minute, tea first")
    author = ada_page.locator("#chat-list .chat-author").last
    assert "Bea" in author.inner_text() and "p1" in (author.get_attribute("class") or "")
    ada_page.screenshot(path=str(ARTIFACTS / "chat-waiting-room.png"))

    # Started, the panel goes beside the game with what was said.
    ada_page.click("#start-game")
    ada_page.wait_for_selector("#layout:not([hidden])")
    assert ada_page.locator(".col-side #chat").is_visible()
    wait_text(ada_page, "ready when you are")
    write(ada_page, "your move")
    wait_text(bea_page, "your move")


def test_a_muted_spectator_stays_muted_under_another_name_and_the_creator_closes_the_room(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    a, b = cluster
    table_id, ada, _bea = started_table(a)
    ada_page = open_table(new_page, a, table_id, ada, viewport=PHONE)
    watcher = open_table(new_page, b, table_id, None, viewport=DESKTOP)
    watcher.click("#chat-room-spectators")

    def speak_as(name: str, text: str) -> None:
        watcher.fill("#chat-name", name)
        watcher.dispatch_event("#chat-name", "change")
        write(watcher, text)
        wait_text(watcher, text)

    speak_as("Cleo", "first of many")
    ada_page.click("#chat-toggle")
    ada_page.click("#chat-room-spectators")
    wait_text(ada_page, "first of many")
    ada_page.locator("#chat-list .chat-msg", has_text="first of many").locator(
        ".chat-act", has_text="Mute"
    ).click()
    assert ada_page.locator("#chat-list .chat-msg", has_text="first of many").count() == 0

    # A new name (and a reload, a new connection) is still the same spectator to her page.
    watcher.reload()
    watcher.wait_for_selector("#conn[data-state=online]")
    watcher.click("#chat-room-spectators")
    speak_as("Dora", "it is me, Dora")
    # Her page knows both as hers (the server's mark, learnt from an acknowledged message).
    own = watcher.locator("#chat-list .chat-msg.own")
    assert own.count() == 2 and own.locator(".chat-act", has_text="Mute").count() == 0
    write(ada_page, "hello watchers")  # after Dora's in the log: hers has come before it
    wait_text(ada_page, "hello watchers")
    wait_text(watcher, "hello watchers")
    assert "it is me, Dora" not in " ".join(texts(ada_page))
    assert ada_page.locator(".chat-muted").inner_text().count("✕") == 1
    assert "Dora" in ada_page.locator(".chat-muted").inner_text()
    ada_page.screenshot(path=str(ARTIFACTS / "chat-phone-muted.png"))
    assert ada_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    ada_page.reload()
    ada_page.wait_for_selector("#conn[data-state=online]")
    ada_page.click("#chat-toggle")
    ada_page.click("#chat-room-spectators")
    wait_text(ada_page, "hello watchers")
    assert "it is me, Dora" not in " ".join(texts(ada_page))
    ada_page.locator(".chat-muted button").click()  # unmute
    wait_text(ada_page, "it is me, Dora")
    wait_text(ada_page, "first of many")

    # The creator closes the spectators' room: the watcher's form says so and sends nothing.
    ada_page.uncheck("#chat-spectators-open")
    watcher.locator(".chat-room-note").wait_for()
    assert watcher.locator("#chat-input, #chat-send, #chat-phrases").count() == 0
    watcher.screenshot(path=str(ARTIFACTS / "chat-spectators-closed.png"))
    ada_page.check("#chat-spectators-open")
    watcher.locator("#chat-input").wait_for()
    speak_as("Dora", "thanks for opening")
    wait_text(ada_page, "thanks for opening")


def test_a_message_back_before_its_ack_shows_once_and_as_ones_own(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    """The protocol lets a message's copy come back before its ``chat_ack``: the writer's page
    shows it once, as theirs (no second "sending" line, no Mute on their own words), before
    the ack and after it. Here the ack is held back on its way to a new spectator's page."""
    a, b = cluster
    table_id, _ada, _bea = started_table(a)
    held: list[str] = []
    sockets: list[Any] = []

    def hold_acks(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "chat_ack":
                held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(server.send)
        sockets.append(ws)

    watcher = new_page(fresh=True, viewport=DESKTOP)
    watcher.route_web_socket(re.compile(r".*/ws/tables/.*"), hold_acks)
    watcher.goto(f"{b.url}/t/{table_id}")
    watcher.wait_for_selector("#conn[data-state=online]")
    watcher.click("#chat-room-spectators")
    watcher.fill("#chat-name", "Cleo")
    watcher.dispatch_event("#chat-name", "change")
    write(watcher, "said before the ack")
    wait_text(watcher, "said before the ack")
    said = watcher.locator("#chat-list .chat-msg", has_text="said before the ack")
    for _ in range(50):  # the ack is on its way: Playwright hands it over between its calls
        if held:
            break
        watcher.wait_for_timeout(100)
    assert len(held) == 1, held
    assert said.count() == 1
    assert watcher.locator("#chat-list .chat-msg.sending").count() == 0
    assert said.locator(".chat-act", has_text="Mute").count() == 0
    assert said.evaluate("(el) => el.classList.contains('own')")

    sockets[-1].send(held.pop())
    watcher.wait_for_function(
        "(key) => localStorage.getItem(key) !== null", arg=f"gh_chat_who:{table_id}"
    )
    assert said.count() == 1 and said.evaluate("(el) => el.classList.contains('own')")
    assert said.locator(".chat-act", has_text="Mute").count() == 0


def test_a_tap_on_the_chat_survives_a_message_arriving_under_the_finger(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    """The panel is drawn again for each message; one drawn between a press and its release
    would put a new button under the finger and swallow the tap. The panel waits for the
    release: the tab pressed while Ada's message came is opened, and the message is shown."""
    a, b = cluster
    table_id, ada, _bea = started_table(a)
    ada_page = open_table(new_page, a, table_id, ada, viewport=DESKTOP)
    watcher = open_table(new_page, b, table_id, None, viewport=DESKTOP)
    tab = watcher.locator("#chat-room-spectators")
    assert tab.get_attribute("aria-selected") == "false"
    box = tab.bounding_box()
    assert box is not None
    watcher.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    watcher.mouse.down()
    write(ada_page, "said under the finger")
    # The page has taken the message (it reads it out) while the button is still down.
    watcher.wait_for_function(
        "(text) => document.getElementById('chat-announce').textContent.includes(text)",
        arg="said under the finger",
    )
    watcher.mouse.up()
    watcher.wait_for_selector("#chat-room-spectators[aria-selected=true]")
    watcher.click("#chat-room-players")
    wait_text(watcher, "said under the finger")


def test_after_the_end_the_chat_downloads_as_its_own_file_beside_the_record(
    cluster: list[ServerProcess], new_page: Any
) -> None:
    a, b = cluster
    with httpx.Client(base_url=a.url, timeout=30) as client:
        body = {"game": "norenberc", "seats": 2, "name": "Ada", "bots": [None, "random"]}
        created = client.post("/api/tables", json=body).json()
    table_id, ada = created["table_id"], created["token"]
    auth = {"Authorization": f"Bearer {ada}"}
    ada_page = open_table(new_page, b, table_id, ada, viewport=DESKTOP)
    with httpx.Client(base_url=a.url, timeout=30) as client:
        assert client.post(f"/api/tables/{table_id}/start", headers=auth).status_code == 200
    ada_page.wait_for_selector("#layout:not([hidden])")
    write(ada_page, "good luck, <i>bot</i>")
    wait_text(ada_page, "good luck, <i>bot</i>")
    with httpx.Client(base_url=a.url, timeout=30) as client:
        handed = client.post(
            f"/api/tables/{table_id}/seats/0/bot", json={"kind": "random"}, headers=auth
        )
        assert handed.status_code == 200, handed.text
        for _ in range(600):  # two random bots play the game out
            if client.get(f"/api/tables/{table_id}").json()["status"] == "finished":
                break
            ada_page.wait_for_timeout(200)
        record = client.get(f"/api/tables/{table_id}/record").json()
    assert "chat" not in record and "good luck" not in str(record)
    ada_page.wait_for_selector("#record-download")
    download_button = ada_page.locator("#chat-download")
    download_button.wait_for()
    with ada_page.expect_download() as info:
        download_button.click()
    download = info.value
    assert download.suggested_filename == f"guildhall-{table_id}-chat.json"
    saved = ARTIFACTS / "chat-download.json"
    download.save_as(str(saved))
    chat = json.loads(saved.read_text())
    assert chat["table_id"] == table_id
    assert [(m["seat"], m["text"]) for m in chat["messages"]] == [(0, "good luck, <i>bot</i>")]
    ada_page.screenshot(path=str(ARTIFACTS / "chat-finished.png"))


def test_a_long_chat_shows_its_newest_200_and_older_ones_on_request(
    cluster: list[ServerProcess], chat_database: str, new_page: Any
) -> None:
    a, b = cluster
    table_id, ada, _bea = started_table(a)
    store_messages(chat_database, table_id, [f"old message {n}" for n in range(1, 206)])
    page = open_table(new_page, b, table_id, ada, viewport=DESKTOP)
    wait_text(page, "old message 205")
    shown = texts(page)
    assert len(shown) == 200 and shown[0] == "old message 6"
    page.click(".chat-older button")
    page.wait_for_function(
        "document.querySelectorAll('#chat-list .chat-msg:not(.sending)').length === 205"
    )
    assert texts(page) == [f"old message {n}" for n in range(1, 206)]
    assert page.locator(".chat-older").count() == 0  # nothing older left
