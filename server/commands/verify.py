"""``guildhall verify RECORD.json``: replay a finished game and check that it was fair.

Checks that the seed hashes to the published ``seed_sha256``, replays every command with the
engine from (game, seats, seed, options), checks that the replay opens with the recorded
``opening`` events (a record that has them) and ends with the recorded result, and prints the
final scores.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from server.bots.kinds import LEVELS
from server.engine import RuleError, get_game
from server.engine import replay as replay_record
from server.tables.data import seed_hash

HELP = "replay a finished game's record and check its seed hash"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path, help="the record (GET /api/tables/{id}/record)")


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """The result of replaying ``record``. Raises ValueError when it does not check out."""
    if seed_hash(record["seed"]) != record["seed_sha256"]:
        raise ValueError("the seed does not match the published seed_sha256")
    game = get_game(record["game"])
    state = None
    try:
        for step in replay_record(game, record):
            state = step.state
            if step.number == 0:
                _check_opening(record, step.events)
    except RuleError as exc:
        raise ValueError(f"{exc.code}: {exc}") from None
    assert state is not None
    result = game.result(state)
    if result is None:
        raise ValueError("the replayed game has not ended")
    replayed: dict[str, Any] = json.loads(json.dumps(result))  # as the record stores it
    if record.get("result") is not None and replayed != record["result"]:
        raise ValueError("the replay ends with another result than the record")
    return replayed


def _check_opening(record: dict[str, Any], events: list[Any]) -> None:
    """A record with ``opening`` (a table dealt since openings are stored) must name the events
    the replayed game opens with; one without it (dealt before) is checked as it always was."""
    if record.get("opening") is None:
        return
    if json.loads(json.dumps(events)) != record["opening"]:
        raise ValueError("the replay opens with other events than the record")


def run(args: argparse.Namespace) -> int:
    """Print the verdict and the scores; exit status 0 when the record checks out, else 1."""
    try:
        record = json.loads(args.record.read_text(encoding="utf-8"))
        result = replay(record)
    except (OSError, ValueError, KeyError, TypeError, RuleError) as exc:
        print(f"verify: FAILED: {exc}", file=sys.stderr)
        return 1
    names = record.get("names") or []
    bots = record.get("bots") or []
    print(f"seed matches sha256 {record['seed_sha256']}")
    print(f"replayed {len(record['commands'])} commands of {record['game']}: result matches")
    for seat, score in enumerate(result["scores"]):
        name = _seat_name(names, bots, seat)
        winner = "  (winner)" if seat in result.get("winners", []) else ""
        print(f"  {name}: {score}{winner}")
    return 0


def _seat_name(names: list[str | None], bots: list[str | None], seat: int) -> str:
    """The seat as the table page names it: the player's name, else its bot ("Bot (easy) 2"),
    else "seat 2"; seats counted from 1, as the page counts them (the record from 0)."""
    if seat < len(names) and names[seat]:
        return str(names[seat])
    if seat < len(bots) and bots[seat]:
        kind = str(bots[seat])
        return f"Bot ({LEVELS.get(kind, kind)}) {seat + 1}"
    return f"seat {seat + 1}"
