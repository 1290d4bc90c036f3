"""What the server and the cross-game tests know of Lantern market beside its rules
(``server.engine.manifest``). A test game: it has no table page, dictionary or lobby text."""

from server.engine import Manifest, ScoreCategory, TestProfile, planning_option

MANIFEST = Manifest(
    name="lantern",
    title="Lantern market",
    min_seats=2,
    max_seats=4,
    options=(planning_option("lobby.planning.ordered"),),
    scores=(ScoreCategory("lanterns", "score.lanterns"), ScoreCategory("coins", "score.coins")),
    test=TestProfile(option_sets=({}, {"planning": "ordered"}), min_commands=8),
)
