"""Documents and patches: the diff is exact on any JSON, and views follow the seat."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from server.devtools.views_bench import _table, play_and_deliver
from server.engine import get_game, is_visible, log_entry
from server.metrics import VIEW_STATS
from server.realtime.views import Doc, build_doc, clear_caches, deliver, diff, document
from server.tables.data import TableData

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab/~", max_size=3),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text("ab/~", max_size=3), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_applying_the_diff_gives_exactly_the_new_document(old: Any, new: Any) -> None:
    doc = {"root": old}
    ops = diff(doc, {"root": new})
    assert jsonpatch.apply_patch(copy.deepcopy(doc), ops) == {"root": new}


def test_equal_documents_need_no_ops_and_appended_log_lines_are_adds() -> None:
    doc = {"log": [{"t": 1}], "game": {"a": [1, 2]}}
    assert diff(doc, copy.deepcopy(doc)) == []
    grown = {"log": [{"t": 1}, {"t": 2}], "game": {"a": [1, 2]}}
    assert diff(doc, grown) == [{"op": "add", "path": "/log/-", "value": {"t": 2}}]


def test_the_bench_delivers_patches_that_are_mostly_not_snapshots() -> None:
    VIEW_STATS.reset()
    commands, _, _ = play_and_deliver(3, "views-test")
    assert commands > 10
    assert VIEW_STATS.messages == 4 * commands
    assert VIEW_STATS.patches > VIEW_STATS.snapshots


def _reference_doc(data: TableData, seat: int | None, connected: frozenset[int]) -> Doc:
    """The document as built before any cache: straight from ``data``."""
    return {
        "table": {
            "id": data.id,
            "game": data.game,
            "title": data.title,
            "status": data.status,
            "version": data.version,
            "seed_sha256": data.seed_sha256,
            "options": data.options,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "connected": s.seat in connected,
                    "stand_in": s.stand_in,
                }
                for s in data.seats
            ],
            "public": data.public,
            "seat_log": list(data.seat_log),
            "clock": None,
            "rematch": data.rematch,
        },
        "you": {"seat": seat},
        "game": None if data.state is None else get_game(data.game).view(data.state, seat),
        "log": [log_entry(e) for e in data.log if is_visible(e, seat)],
    }


def _random_versions(seats: int, seed: str, limit: int = 60) -> list[TableData]:
    """Successive versions of one table in a random Norenberc game."""
    return _versions_of("norenberc", seats, seed, limit)


def _compact(doc: Doc) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def test_a_cached_document_is_only_ever_its_own_seats_and_versions() -> None:
    clear_caches()
    versions = _random_versions(3, "cache-seats")
    viewers: list[int | None] = [0, 1, 2, None]
    seen_private = False
    for data in versions:
        for connected in (frozenset(), frozenset({0, 2})):
            # Every viewer asks twice, in both orders, so each one is served from the cache
            # right after another seat's document of the same version went in.
            for viewer in [*viewers, *reversed(viewers)]:
                built = document(data, viewer, connected)
                doc, text = built.doc, built.text
                assert built.min_length <= len(text)
                expected = _reference_doc(data, viewer, connected)
                assert doc == expected
                assert text == _compact(expected)
                assert build_doc(data, viewer, connected) == expected
        docs = [document(data, v, frozenset()).doc for v in viewers]
        seen_private |= any(docs[0]["game"] != d["game"] for d in docs[1:])
        seen_private |= any(docs[0]["log"] != d["log"] for d in docs[1:])
    assert seen_private, "the game showed no seat anything private: the test proves nothing"


def test_a_new_version_or_another_table_object_never_gets_a_stale_document() -> None:
    clear_caches()
    first, second = _random_versions(2, "stale-a"), _random_versions(2, "stale-b")
    # Same table id, same versions, different games (as after a reload or in the bench).
    for old, new in zip(first, second, strict=False):
        assert old.id == new.id and old.version == new.version
        for viewer in (0, 1, None):
            assert document(old, viewer, frozenset()).doc == _reference_doc(
                old, viewer, frozenset()
            )
            assert document(new, viewer, frozenset()).doc == _reference_doc(
                new, viewer, frozenset()
            )
    # Going back to an earlier version of the first game (a reconnect's ``since``) and forward.
    for data in [first[3], first[-1], first[1], *first]:
        for viewer in (1, None):
            built = document(data, viewer, frozenset({1}))
            doc, text = built.doc, built.text
            assert doc == _reference_doc(data, viewer, frozenset({1}))
            assert text == _compact(doc)
            assert doc["table"]["version"] == data.version


def test_presence_is_part_of_the_cached_document() -> None:
    clear_caches()
    data = _random_versions(2, "presence", limit=2)[-1]
    alone = document(data, 0, frozenset({0})).doc
    both = document(data, 0, frozenset({0, 1})).doc
    assert [s["connected"] for s in alone["table"]["seats"]] == [True, False]
    assert [s["connected"] for s in both["table"]["seats"]] == [True, True]


def _versions_of(game_name: str, seats: int, seed: str, limit: int) -> list[TableData]:
    """Successive versions of one table in a random game of ``game_name``."""
    game = get_game(game_name)
    data = _table(game_name, seats, seed)
    rng = random.Random(seed)
    versions = [data]
    while len(versions) < limit and data.state is not None and game.result(data.state) is None:
        seat = rng.choice(sorted(game.to_act(data.state)))
        legal = [c for c in game.legal(data.state, seat) if c.get("type") != "retract"]
        state, events = game.apply(
            data.state, seat, rng.choice(legal or game.legal(data.state, seat))
        )
        data = replace(data, state=state, version=data.version + 1, log=data.log + tuple(events))
        versions.append(data)
    return versions


def test_every_seats_patches_rebuild_its_documents_exactly_while_seats_share_their_diffs() -> None:
    """Each seat and a spectator follow whole games patch by patch, in turn at each version
    (as the connections of a table do, so the shared parts' ops come from the memo for all
    but the first): every patched document equals a fresh build, member order included."""
    import server.devtools.load.counter  # noqa: F401  (registers the counter game)

    clear_caches()
    patches = 0
    games = (("norenberc", 4, 160), ("strasbourg", 3, 160), ("counter", 4, 60))
    for game_name, seats, limit in games:
        versions = _versions_of(game_name, seats, f"memo-{game_name}", limit)
        viewers: list[int | None] = [*range(seats), None]
        held: dict[int | None, Doc | None] = dict.fromkeys(viewers)
        for data in versions:
            everyone, some = frozenset(range(seats)), frozenset(range(data.version % seats))
            for n, viewer in enumerate(viewers):
                # Who is online as each connection last saw it: all alike at odd versions,
                # two ways at even ones (a change heard between two connections' pushes),
                # so one shared old part goes to different new ones.
                connected = everyone if data.version % 2 or n % 2 else some
                sent = deliver(data, viewer, connected, held[viewer], data.version - 1)
                message = json.loads(sent.text)
                fresh = _reference_doc(data, viewer, connected)
                if message["type"] == "patch":
                    patches += 1
                    doc = jsonpatch.apply_patch(held[viewer], message["ops"])
                else:
                    doc = message["doc"]
                assert _compact(doc) == _compact(fresh), (game_name, data.version, viewer)
                assert sent.doc == fresh
                held[viewer] = sent.doc
    assert patches > 1200


def test_a_window_that_moved_on_and_an_emptied_list_take_one_or_two_ops() -> None:
    recent = [{"n": i} for i in range(8)]
    moved = {"recent": [*recent[1:], {"n": 8}]}
    assert diff({"recent": recent}, moved) == [
        {"op": "remove", "path": "/recent/0"},
        {"op": "add", "path": "/recent/-", "value": {"n": 8}},
    ]
    assert diff({"legal": [1, 2, 3]}, {"legal": []}) == [
        {"op": "replace", "path": "/legal", "value": []}
    ]
    assert diff({"legal": []}, {"legal": [1, 2]}) == [
        {"op": "replace", "path": "/legal", "value": [1, 2]}
    ]
    assert diff({"legal": []}, {"legal": []}) == []
