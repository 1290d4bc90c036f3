"""``guildhall analyse RECORD.json`` prints the analysis as JSON; a bad record says why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.analysis import compute
from server.cli import main

from .records import played


def test_analyse_prints_the_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = played("norenberc", seats=2, seed="cli")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path), "--playouts", "1", "--samples", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["steps"] == len(record["commands"]) + 1 == figures["done"]
    assert figures["params"]["playouts"] == 1
    assert len(figures["chances"]) == figures["steps"]
    assert all(len(c) == 2 for c in figures["chances"])
    assert set(figures["costliest"]) == {"0"}
    assert len(figures["swings"]) <= 3


def test_analyse_judges_no_command_a_bot_made_for_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = played("norenberc", seats=2, seed="cli")
    persons = [k for k, entry in enumerate(record["commands"]) if entry["seat"] == 0]
    covered = set(persons[::2])  # the clock's bot played every other one for them
    record["commands"] = [
        {**entry, "by": "clock"} if k in covered else entry
        for k, entry in enumerate(record["commands"])
    ]
    judged: list[int] = []
    judge = compute.judge

    def counted(*args: Any, **kwargs: Any) -> Any:
        judged.append(args[4])  # the step
        return judge(*args, **kwargs)

    monkeypatch.setattr(compute, "judge", counted)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path), "--playouts", "1", "--samples", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert judged and set(judged) <= set(persons) - covered
    assert len(judged) == len(set(judged))
    assert not covered & {d["step"] for d in figures["costliest"]["0"]}
    assert all(c is not None for c in figures["chances"])  # every step's chances drawn


def test_a_record_that_does_not_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = played("norenberc", seats=2, seed="cli")
    record["commands"] = record["commands"][:5]  # not finished
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path)]) == 1
    assert "not finished" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 1
