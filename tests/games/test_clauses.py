"""The rule behind each decision and each refusal, in every game this build hosts
(``tests/support/games.py``): every refusal names the clause it enforces
(``RuleError.clause``), a clause of docs/rules/<game>.md, and each id is written once in the
engine (its ``clauses.py``). That every view names the clause its seat's decision applies
(``rule``) over whole games, and which decisions those games meet, each game's own clause test
says (``tests/games/<game>/``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support import games
from tests.support.clauses import CLAUSE_ID, code_strings, refusals, rules_clauses


@pytest.mark.parametrize("game", games.shipped())
def test_each_clause_id_is_written_once_in_the_engine_and_is_a_rule(game: str) -> None:
    written: Counter[str] = Counter()
    for module in sorted(games.package_dir(game).glob("*.py")):
        for text in code_strings(module):
            written.update(CLAUSE_ID.findall(text))
    assert written, "the engine names no clause"
    assert [c for c, n in written.items() if n > 1] == []
    assert set(written) <= rules_clauses(game)


@pytest.mark.parametrize("game", games.shipped())
def test_every_refusal_names_a_rule_of_the_game(game: str) -> None:
    # The smallest table with the default options.
    manifest = games.manifest(game)
    found = refusals(games.game(game), manifest.seat_counts()[0], manifest.defaults())
    clauses = rules_clauses(game)
    assert len({e.code for e in found}) >= 5
    assert [e for e in found if e.clause not in clauses] == []
