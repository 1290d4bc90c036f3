"""Each hosted game's manifest is served by ``GET /api/games`` and decides which options a
new table may have: an option the game lacks, a value of the wrong type or a choice it does
not offer is refused with ``bad_option`` and a message saying why, and no table is made."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import Manifest, OptionSpec, RuleError, get_manifest, planning_option
from server.engine.registry import KNOWN_GAMES
from tests.support.testclient import TestClient


def test_the_games_list_serves_every_hosted_games_manifest(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == set(KNOWN_GAMES)
    for name, served in games.items():
        manifest = get_manifest(name)
        assert served["options"] == manifest.defaults()
        assert [o["key"] for o in served["schema"]] == [o.key for o in manifest.options]
        assert [s["key"] for s in served["scores"]] == [s.key for s in manifest.scores]
        assert served["page_module"] == manifest.page_module
        for option in served["schema"]:
            assert option["label"] and option["type"] in {"bool", "choice", "int"}


@pytest.mark.parametrize("game", sorted(KNOWN_GAMES))
def test_options_a_game_does_not_offer_are_refused_with_the_reason(
    client: TestClient, game: str
) -> None:
    manifest = get_manifest(game)
    before = client.get("/api/tables").json()
    bad: list[tuple[dict[str, Any], str]] = [({"no_such_option": True}, "no_such_option")]
    bad += [({o.key: "yes"}, "true or false") for o in manifest.options if o.type == "bool"]
    for options, why in bad:
        body = {"game": game, "seats": manifest.min_seats, "name": "A", "options": options}
        reply = client.post("/api/tables", json=body)
        assert reply.status_code == 400 and reply.json()["code"] == "bad_option", options
        assert why in reply.json()["message"], reply.json()
    assert client.get("/api/tables").json() == before
    # Switched off, an option the game lacks is left out: another game's box sent unticked.
    body = {"game": game, "seats": manifest.min_seats, "name": "A", "options": {"x": False}}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    summary = client.get(f"/api/tables/{made.json()['table_id']}").json()
    assert summary["options"] == manifest.defaults()


def test_the_schema_checks_each_type_and_says_what_it_wanted() -> None:
    manifest = Manifest(
        name="m",
        title="M",
        min_seats=2,
        max_seats=4,
        options=(
            planning_option("lobby.planning.ordered"),
            OptionSpec("fast", "bool", False, "option.fast"),
            OptionSpec("rounds", "int", 4, "option.rounds", minimum=3, maximum=6),
            OptionSpec("map", "choice", "a", "option.map", ("a", "b"), ("map.a", "map.b")),
        ),
    )
    assert manifest.check_options({}) == {
        "planning": "simultaneous",
        "fast": False,
        "rounds": 4,
        "map": "a",
    }
    assert manifest.check_options({"rounds": 6, "map": "b", "other": None})["rounds"] == 6
    refusals = {
        "fast": ({"fast": 1}, "fast must be true or false, got 1"),
        "rounds": ({"rounds": 7}, "rounds must lie between 3 and 6, got 7"),
        "rounds type": ({"rounds": "4"}, "rounds must be a whole number, got '4'"),
        "map": ({"map": "c"}, "map must be one of a, b, not 'c'"),
        "unknown": ({"speed": 2}, "M has no option speed (known: planning, fast, rounds, map)"),
        "not a dict": ([], "options must be an object, got []"),
    }
    for options, message in refusals.values():
        with pytest.raises(RuleError) as err:
            manifest.check_options(options)
        assert (err.value.code, err.value.message) == ("bad_option", message)
    with pytest.raises(RuleError) as err:
        manifest.check_options({"fast": "x" * 100_000, "y" * 100_000: 1})
    assert len(err.value.message) < 120
    with pytest.raises(ValueError):
        OptionSpec("map", "choice", "z", "option.map", ("a",), ("map.a",))
