"""Browser test fixtures: headless Chromium and a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ErrorLog(logging.Handler):
    """Collects the server's log records at ERROR and above (tracebacks of failed requests)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class ServerThread:
    """uvicorn serving ``app`` on a free port in a thread of this process.

    ``errors.lines`` holds every error the server logged (uvicorn and the app).
    """

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.errors = ErrorLog()
        self.port = free_port()
        # As ``guildhall serve`` (server/serving.py): no "server" header on every answer.
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            server_header=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        # uvicorn's own loggers do not propagate to the root logger: watch both.
        for name in ("", "uvicorn"):
            logging.getLogger(name).addHandler(self.errors)
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        for name in ("", "uvicorn"):
            logging.getLogger(name).removeHandler(self.errors)


@contextlib.contextmanager
def live_app(folder: Path, **settings: Any) -> Iterator[ServerThread]:
    """The whole app on a fresh, migrated SQLite file in ``folder``, served by uvicorn.

    ``settings`` are the Settings fields the test cares about (bot delay, clocks, ...).
    """
    from server.app import create_app
    from server.settings import Settings
    from tests.support.databases import migrated_database

    settings.setdefault("secret_key", "web-test")
    settings.setdefault("rate_limit", 1000.0)
    with (
        migrated_database("sqlite", folder) as url,
        ServerThread(create_app(Settings(database_url=url, **settings))) as server,
    ):
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Module scope on purpose: Playwright's sync API keeps
    an event loop running in this thread, which async tests of other modules cannot share."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"), args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


class ConsoleErrors(list[str]):
    """Console errors and uncaught page errors of every page it watches."""

    def watch(self, page: Any) -> Any:
        return watch_console(page, lambda: self)


@pytest.fixture(scope="module")
def script_page(browser: Any) -> Iterator[Any]:
    """One page of a server with only the static files and pages, for tests that run the
    page's own modules (``await import("/static/js/…")``) on data they give them."""
    from fastapi import FastAPI

    from server.api import pages

    app = FastAPI()
    app.include_router(pages.router)
    with ServerThread(app) as server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url + "/")
        yield page
        context.close()


def watch_console(page: Any, sink: Callable[[], list[str]]) -> Any:
    """Sends ``page``'s console errors, uncaught errors and failed requests to ``sink()``,
    asked at each one (a pooled page's sink is the test that holds it)."""
    page.on("console", lambda m: sink().append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: sink().append(f"pageerror: {e}"))
    # The console names no URL for a failed request; this line does.
    page.on(
        "response",
        lambda r: (
            sink().append(f"http {r.status}: {r.request.method} {r.url}")
            if r.status >= 400
            else None
        ),
    )
    return page


@pytest.fixture
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


# ---- pages kept for the next test of the module -----------------------------------------

# A new context and page cost about 1.2 CPU-s per table page loaded (Chromium starts a
# renderer, compiles the page's scripts and fetches its files again); the same page
# navigated anew costs about 0.55. A test's pages are therefore handed to the next test of
# the module that asks for the same context options, after a reset (``PagePool.reset``).
FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


def options_key(options: dict[str, Any]) -> str:
    """Context options as one string: pages are shared between equal ones only."""
    return json.dumps(options, sort_keys=True)


class PooledPage:
    """A page of the pool, the options its context was made with, and the test's errors."""

    def __init__(self, context: Any, page: Any, options: dict[str, Any]) -> None:
        self.context, self.page, self.options = context, page, options
        self.key = options_key(options)
        self.errors: list[str] = []
        watch_console(page, lambda: self.errors)


class PagePool:
    """Pages for one module's tests, each reused by the next test asking for the same
    context options. A reset page is what a new one is to a test: on ``about:blank``, with
    no routes (websockets included), no cookies or storage, at the options' viewport. What
    a reset cannot take off (an init script, a fake clock, a service worker, a warm cache for
    a test that weighs a cold load) is for ``new_page(fresh=True)``, which is never pooled;
    a page whose test failed, or whose reset did not leave it clean, is closed.

    At most ``IDLE`` pages wait, the least recently used closed first: an idle renderer costs
    nothing, but one kept for options no later test asks for is only closed later."""

    IDLE = 3

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.idle: list[PooledPage] = []  # least recently used first

    def take(self, options: dict[str, Any], errors: list[str]) -> PooledPage:
        key = options_key(options)
        entry = next((e for e in reversed(self.idle) if e.key == key), None)
        if entry is not None:
            self.idle.remove(entry)
        else:
            context = self.browser.new_context(**options)
            entry = PooledPage(context, context.new_page(), options)
        entry.errors = errors
        return entry

    def give_back(self, entry: PooledPage, reuse: bool) -> None:
        if reuse and not entry.page.is_closed() and self.reset(entry):
            entry.errors = []
            self.idle.append(entry)
            while len(self.idle) > self.IDLE:
                self.idle.pop(0).context.close()
        else:
            entry.context.close()

    @staticmethod
    def reset(entry: PooledPage) -> bool:
        """Clears what a test may leave on a page; False when something is left."""
        from playwright.sync_api import Error as PlaywrightError

        page, context = entry.page, entry.context
        try:
            if len(context.pages) != 1 or context.service_workers:
                return False
            # Storage belongs to the origin: cleared while the page is still there. The page
            # leaves before its routes go, so no request of its own reaches the server then.
            page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear() } catch {} }")
            page.goto("about:blank")
            page.unroute_all(behavior="ignoreErrors")
            # Playwright has no call that removes a websocket route; its list is emptied
            # (tests/web/test_page_pool.py checks a reset page's socket reaches no route).
            impl = page._impl_obj
            if impl._web_socket_routes:
                impl._web_socket_routes.clear()
                page._sync(impl._update_web_socket_interception_patterns())
            context.clear_cookies()
            if "viewport" in entry.options and page.viewport_size != entry.options["viewport"]:
                page.set_viewport_size(entry.options["viewport"])
            state = context.storage_state()
            return not state["cookies"] and not any(o["localStorage"] for o in state["origins"])
        except PlaywrightError:
            return False

    def close(self) -> None:
        for entry in self.idle:
            entry.context.close()
        self.idle.clear()


@pytest.fixture(scope="module")
def page_pool(browser: Any) -> Iterator[PagePool]:
    pool = PagePool(browser)
    yield pool
    pool.close()


class PageOpener:
    """What ``new_page`` gives a test: ``new_page(fresh=False, **context options)`` opens a
    page watched for the test's console errors; ``new_page.release(page)`` says the test is
    done with one, so that its next ``new_page`` may have it (a test that loads one state
    after another: each load then costs a navigation, not a new renderer)."""

    def __init__(self, pool: PagePool, errors: ConsoleErrors) -> None:
        self.pool, self.errors = pool, errors
        self.taken: list[PooledPage] = []
        self.contexts: list[Any] = []

    def __call__(self, fresh: bool = False, **options: Any) -> Any:
        # Playwright's wait_for_function evaluates its predicate as a string, which the app's
        # Content-Security-Policy (no 'unsafe-eval') refuses; tests/security/test_input_csp_page.py
        # loads the pages with the policy enforced.
        options.setdefault("bypass_csp", True)
        # The page's highlights fade by animating colours and shadows, which Chromium redraws
        # on the main thread every frame for seconds after each move: a third of a browser
        # test's CPU. No test reads a frame of them, so pages ask for reduced motion (the
        # still outline a player with that setting sees); test_follow.py keeps the moving
        # glow covered with "no-preference".
        options.setdefault("reduced_motion", "reduce")
        if fresh:
            context = self.pool.browser.new_context(**options)
            self.contexts.append(context)
            return self.errors.watch(context.new_page())
        entry = self.pool.take(options, self.errors)
        self.taken.append(entry)
        return entry.page

    def release(self, page: Any) -> None:
        entry = next((e for e in self.taken if e.page is page), None)
        if entry is None:
            raise ValueError("release() takes a pooled page this test holds")
        self.taken.remove(entry)
        self.pool.give_back(entry, reuse=True)

    def close(self, passed: bool) -> None:
        for entry in self.taken:
            self.pool.give_back(entry, reuse=passed)
        for context in self.contexts:
            context.close()


@pytest.fixture
def new_page(
    page_pool: PagePool, console_errors: ConsoleErrors, request: pytest.FixtureRequest
) -> Iterator[PageOpener]:
    """A ``PageOpener``: pooled pages reset for this test (``PagePool``), or with
    ``fresh=True`` in a context of their own. The test fails on any console error; its pages
    go back to the pool (or close) at its end."""
    opener = PageOpener(page_pool, console_errors)
    yield opener
    opener.close(passed=not request.node.stash.get(FAILED, False))
    assert console_errors == []
