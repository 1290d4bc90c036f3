"""web/static/js/patch.js against jsonpatch (the server's library), run in Chromium."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonpatch
import pytest
from fastapi import FastAPI

from server.api import pages

from .conftest import ServerThread

pytestmark = pytest.mark.browser

DOC = {
    "table": {"version": 3, "seats": [{"seat": 0, "connected": False}, {"seat": 1}]},
    "game": {"goods": {"beer": 2}, "a/b": 1, "m~n": 2, "list": [1, 2, 3]},
    "log": [],
}
CASES = [
    [{"op": "add", "path": "/log/-", "value": {"type": "X", "text": "t"}}],
    [{"op": "add", "path": "/game/list/1", "value": 9}],
    [{"op": "remove", "path": "/game/list/0"}],
    [{"op": "replace", "path": "/table/seats/0/connected", "value": True}],
    [{"op": "replace", "path": "/game/a~1b", "value": 5}, {"op": "remove", "path": "/game/m~0n"}],
    [{"op": "move", "from": "/game/goods", "path": "/game/stock"}],
    [{"op": "copy", "from": "/game/list", "path": "/game/copy"}],
    [{"op": "test", "path": "/table/version", "value": 3}, {"op": "add", "path": "/v", "value": 1}],
    [{"op": "replace", "path": "", "value": {"fresh": True}}],
]
BAD = [
    [{"op": "test", "path": "/table/version", "value": 4}],
    [{"op": "remove", "path": "/game/nope"}],
    [{"op": "add", "path": "/game/list/7", "value": 1}],
    [{"op": "replace", "path": "/missing/deep", "value": 1}],
]


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    app = FastAPI()
    app.include_router(pages.router)
    with ServerThread(app) as server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url + "/")
        yield page
        context.close()


@pytest.mark.parametrize("ops", CASES)
def test_patches_apply_as_jsonpatch_applies_them(page: Any, ops: list[dict[str, Any]]) -> None:
    expected = jsonpatch.apply_patch(copy.deepcopy(DOC), ops)
    assert page.evaluate("([d, ops]) => GH.applyPatch(d, ops)", [DOC, ops]) == expected


@pytest.mark.parametrize("ops", BAD)
def test_a_patch_that_does_not_apply_throws_and_leaves_the_document(
    page: Any, ops: list[dict[str, Any]]
) -> None:
    outcome = page.evaluate(
        """([d, ops]) => {
            const before = JSON.stringify(d);
            try { GH.applyPatch(d, ops); return "applied"; }
            catch (e) { return JSON.stringify(d) === before ? "threw" : "changed"; }
        }""",
        [DOC, ops],
    )
    assert outcome == "threw"
