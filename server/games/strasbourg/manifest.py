"""What the server, the lobby and the tests know of Strasbourg beside its rules
(``server.engine.manifest``)."""

from server.engine import Manifest, ScoreCategory, TestProfile, planning_option

MANIFEST = Manifest(
    name="strasbourg",
    title="Strasbourg",
    min_seats=3,
    max_seats=5,
    options=(
        # Planning one after another goes from the starting player clockwise (rules S-4.6).
        planning_option("lobby.planning.ordered_strasbourg"),
    ),
    page_module="games/strasbourg/strasbourg.js",
    strings_prefix="sb.",
    log_prefix="sb.log.",
    scores=(
        ScoreCategory("council", "score.council"),
        ScoreCategory("city", "score.city"),
        ScoreCategory("chapels", "score.chapels"),
        ScoreCategory("edifices", "score.edifices"),
        ScoreCategory("privileges", "score.privileges"),
        ScoreCategory("tasks", "score.tasks"),
    ),
    test=TestProfile(option_sets=({}, {"planning": "ordered"}), min_commands=60),
)
