"""Each game's manifest tells the truth about its game: the same name, title, seats and
default options as its ``Game``; option sets the game accepts; games at least as long as it
says; the score categories its results break down into; labels every language has."""

from __future__ import annotations

import random

import pytest

from server.api.pages import languages, page_strings
from tests.support import games


@pytest.mark.parametrize("name", games.names())
def test_the_manifest_matches_its_game(name: str) -> None:
    manifest, game = games.manifest(name), games.game(name)
    assert (manifest.name, manifest.title) == (game.name, game.title)
    assert (manifest.min_seats, manifest.max_seats) == (game.min_seats, game.max_seats)
    assert manifest.defaults() == game.default_options()
    assert set(manifest.seat_counts()) <= set(range(game.min_seats, game.max_seats + 1))
    for options in manifest.test.option_sets:
        assert manifest.check_options(dict(options)) == {**game.default_options(), **options}


@pytest.mark.parametrize("setup", games.setups(spread=False), ids=str)
def test_games_are_as_long_as_the_profile_says_and_score_its_categories(
    setup: games.Setup,
) -> None:
    manifest, game = games.manifest(setup.game), games.game(setup.game)
    rng = random.Random(str(setup))
    state, played = game.new(setup.seats, str(setup), setup.options), 0
    while (result := game.result(state)) is None:
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal(state, seat)))
        played += 1
    assert played >= manifest.test.min_commands
    categories = {s.key for s in manifest.scores}
    for breakdown in result["breakdown"]:
        assert set(breakdown) <= categories, set(breakdown) - categories


@pytest.mark.parametrize("name", games.with_page())
def test_every_label_a_manifest_names_is_in_every_language(name: str) -> None:
    manifest = games.manifest(name)
    lobby = [o.label for o in manifest.options]
    lobby += [c for o in manifest.options for c in o.choice_labels]
    lobby += [o.help for o in manifest.options if o.help]
    table = [s.label for s in manifest.scores]
    for lang in languages():
        assert [k for k in lobby if k not in page_strings(lang)] == [], lang
        assert [k for k in table if k not in page_strings(lang, name)] == [], lang
