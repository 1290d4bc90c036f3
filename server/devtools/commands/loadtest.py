"""``guildhall loadtest``: K concurrent tables of websocket players against uvicorn on 127.0.0.1.

Only the options live here; ``server.devtools.load`` runs the tables and prints the figures
(its docstring says what is measured and how). ``server.devtools.load`` needs the HTTP and
websocket clients of the ``load`` extra (in ``dev``), so it is imported only when a run
starts: ``--help`` works with the runtime dependencies alone.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.devtools.load.runs import LoadOptions

HELP = "many concurrent tables over real websockets on 127.0.0.1; prints throughput and latency"

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: sizes and caps of the run, which databases and process counts, or a target."""
    add = parser.add_argument
    add("--tables", type=int, default=20, help="concurrent tables (default 20)")
    add("--seats", type=int, default=4, help="seats per table (default 4)")
    add("--game", help="game to play (default norenberc; counter with --floor)")
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
    add(
        "--floor",
        action="store_true",
        help="also run the bare floor server (Starlette + asyncpg) on the counter game and"
        " print each Postgres run's CPU per command as a multiple of the floor's",
    )
    add(
        "--think",
        type=float,
        default=0.0,
        help="seconds each player waits before each command (2: human pace; default 0)",
    )


def run(args: argparse.Namespace) -> int:
    """Run every requested configuration and print its figures; 1 if a run failed to start.

    Exit status 2, with the install command, when the ``load`` extra is missing.
    """
    if args.floor and args.game not in (None, "counter"):
        print("--floor plays the counter game only (the floor knows no other rules)")
        return 2
    if args.floor and args.target:
        print("--floor starts its own servers; it cannot be combined with --target")
        return 2
    try:
        from server.devtools.load.runs import run_all
    except ModuleNotFoundError as exc:
        print(
            f"guildhall loadtest: needs {exc.name!r}, which a server-only install lacks; "
            "install the load extra: pip install 'guildhall[load]'",
            file=sys.stderr,
        )
        return 2
    return run_all(options(args))


def options(args: argparse.Namespace) -> LoadOptions:
    """The parsed arguments as the typed options of ``server.devtools.load``."""
    from server.devtools.load.runs import LoadOptions

    return LoadOptions(
        tables=args.tables,
        seats=args.seats,
        game=args.game or ("counter" if args.floor else "norenberc"),
        commands=args.commands,
        seconds=args.seconds,
        databases=args.databases,
        instances=args.instances,
        postgres_url=args.postgres_url,
        targets=tuple(args.target or ()),
        json=args.json,
        floor=args.floor,
        think=args.think,
    )
