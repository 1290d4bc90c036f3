"""The page pool of tests/web/conftest.py: a page handed to the next test is what a new one
would be to it, and a page that cannot be made so is closed instead."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PagePool, ServerThread
from .fake_table import pages_app

pytestmark = pytest.mark.browser
OPTIONS = {"viewport": {"width": 390, "height": 844}, "bypass_csp": True}
# A socket to a port nothing listens on: it gets a message only if a route answers it.
SOCKET = """() => new Promise((done) => {
    const ws = new WebSocket("ws://127.0.0.1:9/ws/tables/x");
    ws.onmessage = (e) => done("message: " + e.data);
    ws.onclose = () => done("closed");
})"""


@pytest.fixture(scope="module")
def pages_server() -> Iterator[ServerThread]:
    with ServerThread(pages_app()) as server:
        yield server


@pytest.fixture
def pool(browser: Any) -> Iterator[PagePool]:
    pool = PagePool(browser)
    yield pool
    pool.close()


def dirty(page: Any, server: ServerThread) -> None:
    """Everything a test may leave on a page that the reset takes off."""
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), lambda ws: ws.send("routed"))
    page.route(re.compile(r".*/api/games$"), lambda route: route.fulfill(json={"games": []}))
    page.goto(server.url + "/t/fake")
    page.evaluate("localStorage.setItem('gh', '1'); sessionStorage.setItem('gh', '1')")
    page.context.add_cookies([{"name": "gh", "value": "1", "url": server.url}])
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.evaluate(SOCKET) == "message: routed"
    assert page.evaluate("fetch('/api/games').then((r) => r.status)") == 200


def test_a_reset_page_keeps_nothing_of_the_test_before(
    pool: PagePool, pages_server: ServerThread
) -> None:
    first = pool.take(OPTIONS, [])
    dirty(first.page, pages_server)
    pool.give_back(first, reuse=True)

    again = pool.take(OPTIONS, [])
    assert again is first  # the same page, not a new one
    page = again.page
    assert page.url == "about:blank"
    assert page.viewport_size == OPTIONS["viewport"]
    assert page.context.cookies() == []
    page.goto(pages_server.url + "/t/fake")
    assert page.evaluate("[localStorage.length, sessionStorage.length]") == [0, 0]
    assert page.evaluate(SOCKET) == "closed"  # no route answers the socket any more
    assert page.evaluate("fetch('/api/games').then((r) => r.status)") == 404


def test_pages_are_shared_only_between_the_same_options(
    pool: PagePool, pages_server: ServerThread
) -> None:
    phone = pool.take(OPTIONS, [])
    other = pool.take(OPTIONS, [])  # held at the same time: a page of its own
    assert other is not phone
    pool.give_back(phone, reuse=True)
    assert pool.take({**OPTIONS, "locale": "hu-HU"}, []) is not phone
    assert pool.take(OPTIONS, []) is phone


def test_a_page_whose_test_failed_or_that_opened_another_is_closed(
    pool: PagePool, pages_server: ServerThread
) -> None:
    failed = pool.take(OPTIONS, [])
    pool.give_back(failed, reuse=False)
    assert failed.page.is_closed()

    opener = pool.take(OPTIONS, [])
    opener.page.goto(pages_server.url + "/t/fake")
    with opener.page.context.expect_page():
        opener.page.evaluate("window.open('about:blank')")
    pool.give_back(opener, reuse=True)
    assert opener.page.is_closed()
    assert pool.take(OPTIONS, []) not in (failed, opener)


def test_errors_go_to_the_test_holding_the_page(pool: PagePool) -> None:
    first_errors: list[str] = []
    entry = pool.take(OPTIONS, first_errors)
    entry.page.evaluate("console.error('first')")
    pool.give_back(entry, reuse=True)
    second_errors: list[str] = []
    assert pool.take(OPTIONS, second_errors) is entry
    entry.page.evaluate("console.error('second')")
    assert first_errors == ["console: first"]
    assert second_errors == ["console: second"]


def test_at_most_a_few_pages_wait_the_least_recently_used_closed_first(pool: PagePool) -> None:
    sizes = [{"width": 300 + n, "height": 600} for n in range(PagePool.IDLE + 1)]
    entries = [pool.take({**OPTIONS, "viewport": size}, []) for size in sizes]
    for entry in entries:
        pool.give_back(entry, reuse=True)
    assert entries[0].page.is_closed()
    assert not any(entry.page.is_closed() for entry in entries[1:])
    assert pool.take({**OPTIONS, "viewport": sizes[0]}, []) is not entries[0]
