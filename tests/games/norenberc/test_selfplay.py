"""The selfplay command: random games end, the summary is JSON, the same seed repeats."""

from __future__ import annotations

import json

import pytest

from server.cli import main
from server.devtools.commands.selfplay import selfplay


def test_selfplay_prints_a_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "norenberc", "--games", "3", "--players", "3", "--seed", "S"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 3 and summary["players"] == 3
    assert sum(summary["winners"]) >= 3 and summary["commands"] > 3 * 20
    assert set(summary) == {"game", "players", "games", "commands", "winners", "seconds"}


def test_selfplay_is_repeatable_per_seed() -> None:
    a = selfplay("norenberc", 2, 5, "same", {"planning": "ordered"})
    b = selfplay("norenberc", 2, 5, "same", {"planning": "ordered"})
    assert (a["commands"], a["winners"]) == (b["commands"], b["winners"])


def test_selfplay_reports_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "norenberc", "--players", "7"]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "bad_seats"
    assert main(["selfplay", "norenberc", "--options", '{"promo": "yes"}']) == 2
    assert json.loads(capsys.readouterr().out)["error"] == "bad_option"
