"""web/static/js/patch.js against jsonpatch (the server's library), run in Chromium, and
against the server's own patches over whole games of every game, member order included."""

from __future__ import annotations

import copy
import random
from typing import Any

import jsonpatch
import pytest

from server.engine import Event, get_game
from server.realtime import views
from server.tables.data import SeatInfo, TableData

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

APPLY = """async ([d, ops]) => (await import("/static/js/patch.js")).applyPatch(d, ops)"""


@pytest.mark.parametrize("ops", CASES)
def test_patches_apply_as_jsonpatch_applies_them(
    script_page: Any, ops: list[dict[str, Any]]
) -> None:
    expected = jsonpatch.apply_patch(copy.deepcopy(DOC), ops)
    assert script_page.evaluate(APPLY, [DOC, ops]) == expected


@pytest.mark.parametrize("ops", BAD)
def test_a_patch_that_does_not_apply_throws_and_leaves_the_document(
    script_page: Any, ops: list[dict[str, Any]]
) -> None:
    outcome = script_page.evaluate(
        """async ([d, ops]) => {
            const before = JSON.stringify(d);
            const { applyPatch } = await import("/static/js/patch.js");
            try { applyPatch(d, ops); return "applied"; }
            catch (e) { return JSON.stringify(d) === before ? "threw" : "changed"; }
        }""",
        [DOC, ops],
    )
    assert outcome == "threw"


# ---- the server's own patches over whole games --------------------------------------


def whole_game(game_name: str, seats: int, seed: str) -> list[TableData]:
    """Every version of a seeded random game as the service holds it, start to end."""
    game = get_game(game_name)
    options = game.default_options()
    state = game.new(seats, seed, options)
    rng = random.Random(seed)
    log: tuple[Event, ...] = ()
    people = tuple(SeatInfo(s, f"P{s}", None) for s in range(seats))

    def data(version: int) -> TableData:
        finished = game.result(state) is not None
        return TableData(
            id="t1", game=game_name, title=game.title, options=options, seed=seed,
            seed_sha256="0" * 64, status="finished" if finished else "playing",
            version=version, seats=people, state=state, log=log,
        )  # fmt: skip

    versions = [data(1)]
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        state, events = game.apply(state, seat, rng.choice(game.legal(state, seat)))
        log = log + tuple(events)
        versions.append(data(len(versions) + 1))
    return versions


def messages(versions: list[TableData], seat: int | None) -> list[list[str]]:
    """[message sent, the document the server holds after it] for each version, in order,
    as ``deliver`` makes them for a connection that held the previous one; who is online
    changes now and then, as it does at a real table."""
    out, last = [], None
    for data in versions:
        connected = frozenset(s for s in range(len(data.seats)) if (data.version // 5 + s) % 3)
        sent = views.deliver(data, seat, connected, last, data.version - 1)
        out.append([sent.text, views.document(data, seat, connected).text])
        last = sent.doc
    return out


# Applies every message in order and compares the document with the server's, member order
# included (both through JSON.parse, so only the order the messages produced can differ).
REPLAY_MESSAGES = """async (pairs) => {
    const { applyPatch } = await import("/static/js/patch.js");
    let doc = null, patches = 0;
    for (let i = 0; i < pairs.length; i++) {
        const msg = JSON.parse(pairs[i][0]);
        if (msg.type === "snapshot") doc = msg.doc;
        else { doc = applyPatch(doc, msg.ops); patches++; }
        if (JSON.stringify(doc) !== JSON.stringify(JSON.parse(pairs[i][1]))) {
            return {mismatch: i, got: JSON.stringify(doc).slice(0, 400)};
        }
    }
    return {mismatch: null, patches: patches};
}"""


@pytest.mark.parametrize(("game", "seats"), [("norenberc", 4), ("strasbourg", 3)])
@pytest.mark.parametrize("seat", [0, None])
def test_the_servers_patches_of_a_whole_game_rebuild_its_documents_in_order(
    script_page: Any, game: str, seats: int, seat: int | None
) -> None:
    views.clear_caches()
    sent = messages(whole_game(game, seats, f"patch-order-{game}"), seat)
    outcome = script_page.evaluate(REPLAY_MESSAGES, sent)
    assert outcome["mismatch"] is None, outcome
    assert outcome["patches"] > len(sent) // 2  # mostly patches, not snapshots


def test_replace_keeps_the_members_place(script_page: Any) -> None:
    """Replace written as remove-then-add would move the member to the end of its object."""
    keys = script_page.evaluate(
        """async () => {
            const { applyPatch } = await import("/static/js/patch.js");
            const doc = applyPatch({a: 1, b: {x: 1, y: 2}, c: 3},
                [{op: "replace", path: "/a", value: 9}, {op: "replace", path: "/b/x", value: 0},
                 {op: "add", path: "/b/y", value: 5}]);
            return [Object.keys(doc), Object.keys(doc.b), doc.a, doc.b.y];
        }"""
    )
    assert keys == [["a", "b", "c"], ["x", "y"], 9, 5]
