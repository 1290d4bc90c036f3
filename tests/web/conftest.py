"""Browser test fixtures: headless Chromium and a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
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
        page.on(
            "console", lambda m: self.append(f"console: {m.text}") if m.type == "error" else None
        )
        page.on("pageerror", lambda e: self.append(f"pageerror: {e}"))
        # The console names no URL for a failed request; this line does.
        page.on(
            "response",
            lambda r: (
                self.append(f"http {r.status}: {r.request.method} {r.url}")
                if r.status >= 400
                else None
            ),
        )
        return page


@pytest.fixture
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


@pytest.fixture
def new_page(browser: Any, console_errors: ConsoleErrors) -> Iterator[Any]:
    """new_page(**context options) -> a page in a fresh context, watched for console errors.

    The contexts close at the end of the test, which then fails on any console error.
    """
    contexts: list[Any] = []

    def opener(**options: Any) -> Any:
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
        context = browser.new_context(**options)
        contexts.append(context)
        return console_errors.watch(context.new_page())

    yield opener
    for context in contexts:
        context.close()
    assert console_errors == []
