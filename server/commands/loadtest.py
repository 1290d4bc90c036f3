"""``guildhall loadtest``: K concurrent tables of websocket players against uvicorn on 127.0.0.1.

Only the options live here; ``server.load`` runs the tables and prints the figures (its
docstring says what is measured and how).
"""

from __future__ import annotations

import argparse
import os

from server.load.runs import LoadOptions, run_all

HELP = "many concurrent tables over real websockets on 127.0.0.1; prints throughput and latency"

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: sizes and caps of the run, which databases and process counts, or a target."""
    add = parser.add_argument
    add("--tables", type=int, default=20, help="concurrent tables (default 20)")
    add("--seats", type=int, default=4, help="seats per table (default 4)")
    add("--game", default="norenberc", help="game to play (default norenberc)")
    add("--commands", type=int, default=5000, help="stop after this many acks per run")
    add("--seconds", type=float, default=30, help="time cap per run in seconds (default 30)")
    add("--databases", default="sqlite,postgres", help="comma list: sqlite, postgres")
    add("--instances", default="1,2", help="comma list of app process counts (default 1,2)")
    add(
        "--postgres-url",
        default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG),
        help="Postgres server on which fresh databases are made (default $TEST_DATABASE_URL)",
    )
    add("--target", action="append", help="play against running server(s) at this URL")
    add("--json", action="store_true", help="print one JSON object per run")


def run(args: argparse.Namespace) -> int:
    """Run every requested configuration and print its figures; 1 if a run failed to start."""
    return run_all(options(args))


def options(args: argparse.Namespace) -> LoadOptions:
    """The parsed arguments as the typed options of ``server.load``."""
    return LoadOptions(
        tables=args.tables,
        seats=args.seats,
        game=args.game,
        commands=args.commands,
        seconds=args.seconds,
        databases=args.databases,
        instances=args.instances,
        postgres_url=args.postgres_url,
        targets=tuple(args.target or ()),
        json=args.json,
    )
