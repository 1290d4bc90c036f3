"""``guildhall`` command line: one subcommand per module in ``server.commands``.

guildhall serve       run the web server (after `guildhall migrate`)
guildhall migrate     bring the database schema to the newest migration
guildhall selfplay    play random games with the engine and print a JSON summary
guildhall tournament  bots against bots, win shares with confidence intervals
guildhall verify      replay a finished game's record and check its seed hash
guildhall analyse     a finished game's win chances and costly decisions, as JSON
guildhall loadtest    many concurrent tables over real websockets on 127.0.0.1
guildhall cleanup     delete tables nobody has touched for a long time
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = [
    "serve",
    "migrate",
    "selfplay",
    "tournament",
    "verify",
    "analyse",
    "loadtest",
    "cleanup",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guildhall", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"server.commands.{name}")
        except ModuleNotFoundError as exc:
            # A subcommand whose module is absent is simply not offered; anything else is a bug.
            if exc.name != f"server.commands.{name}":
                raise
            continue
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
