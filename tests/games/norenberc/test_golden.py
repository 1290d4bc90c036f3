"""Golden replays: recorded games re-derive the same final state and result.

A change that alters any of these is a change of rules or of the random stream; it must be
deliberate (regenerate the records and say why in the commit).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from .helpers import GAME

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_recorded_game_replays_to_the_same_state_and_result(path: Path) -> None:
    record = json.loads(path.read_text())
    state = GAME.new(record["seats"], record["seed"], record["options"])
    for seat, cmd in record["commands"]:
        assert cmd in GAME.legal(state, seat)
        state, _ = GAME.apply(state, seat, cmd)
    assert GAME.result(state) == record["result"]
    digest = hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()
    assert digest == record["state_sha256"]


def test_there_is_a_record_for_every_player_count() -> None:
    assert [p.stem for p in GOLDEN] == ["2p", "3p", "4p", "5p"]
