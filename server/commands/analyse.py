"""``guildhall analyse RECORD.json``: a finished game's analysis, printed as JSON.

The same figures the finished table's page shows (``server.analysis``): each seat's win
chance after every step, each person's costliest decisions and the game's biggest swings.
Runs in this process, at full speed (no CPU share): a few CPU minutes for a 4-player game
at the default counts (docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from server.analysis import DEFAULT_PARAMS, Params, analyse
from server.engine import RuleError

HELP = "analyse a finished game's record: win chances and costly decisions, as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path, help="the record (GET /api/tables/{id}/record)")
    parser.add_argument(
        "--playouts",
        type=int,
        default=DEFAULT_PARAMS.playouts,
        help=f"play-outs per position (default {DEFAULT_PARAMS.playouts})",
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_PARAMS.samples,
        help=f"sampled worlds per decision (default {DEFAULT_PARAMS.samples})",
    )


def run(args: argparse.Namespace) -> int:
    """Print the analysis; exit status 1 (and a line on stderr) when the record is unusable."""
    if args.playouts < 1 or args.samples < 1:
        print("analyse: FAILED: --playouts and --samples must be at least 1", file=sys.stderr)
        return 1
    params = Params(playouts=args.playouts, samples=args.samples)
    try:
        record = json.loads(args.record.read_text(encoding="utf-8"))
        figures = analyse(record, params)
    except (OSError, ValueError, KeyError, TypeError, RuleError) as exc:
        print(f"analyse: FAILED: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(figures, indent=1))
    return 0
