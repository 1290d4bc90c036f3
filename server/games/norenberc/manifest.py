"""What the server, the lobby and the tests know of Norenberc beside its rules
(``server.engine.manifest``)."""

from server.engine import Manifest, OptionSpec, ScoreCategory, TestProfile, planning_option

MANIFEST = Manifest(
    name="norenberc",
    title="Norenberc",
    min_seats=2,
    max_seats=5,
    options=(
        # Planning one after another goes from the last in play order (rules N-4.5).
        planning_option("lobby.planning.ordered_norenberc"),
        # The "Bonus Townsmen" promo tiles join the citizens (rules: promo).
        OptionSpec(key="promo", type="bool", default=False, label="lobby.promo"),
    ),
    page_module="games/norenberc/norenberc.js",
    # Norenberc's keys came before prefixes: its own folder holds them unprefixed.
    strings_prefix="",
    log_prefix="log.",
    scores=(
        ScoreCategory("citizens", "score.citizens"),
        ScoreCategory("majorities", "score.majorities"),
        ScoreCategory("thirty", "score.thirty"),
        ScoreCategory("all_guilds", "score.all_guilds"),
        ScoreCategory("richest", "score.richest"),
        ScoreCategory("crests", "score.crests"),
        ScoreCategory("promo", "score.promo"),
    ),
    test=TestProfile(
        option_sets=({}, {"promo": True}, {"planning": "ordered"}),
        min_commands=30,
    ),
)
