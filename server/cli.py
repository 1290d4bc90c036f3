"""``guildhall`` command line: one subcommand per module in ``server.commands``.

guildhall serve       run the web server (after `guildhall migrate`)
guildhall migrate     bring the database schema to the newest migration
guildhall verify      replay a finished game's record and check its seed hash
guildhall analyse     a finished game's win chances and costly decisions, as JSON
guildhall cleanup     delete tables nobody has touched for a long time

Developer tools, one module each in ``server.devtools.commands``, which only a development
checkout has (a server install answers that they are developer tools):

guildhall selfplay    play random games with the engine and print a JSON summary
guildhall tournament  bots against bots, win shares with confidence intervals
guildhall loadtest    many concurrent tables over real websockets on 127.0.0.1
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = [
    "serve",
    "migrate",
    "verify",
    "analyse",
    "cleanup",
]
# Name → one line for `guildhall --help`. Their modules are imported only when one is run, so
# no other subcommand loads a developer tool.
DEV_SUBCOMMANDS = {
    "selfplay": "play random games with the engine (developer tool)",
    "tournament": "bots against bots, win shares with confidence intervals (developer tool)",
    "loadtest": "many concurrent tables over real websockets on 127.0.0.1 (developer tool)",
}
DEV_PACKAGE = "server.devtools"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guildhall", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"server.commands.{name}")
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    for name, line in DEV_SUBCOMMANDS.items():
        # Listed only: ``main`` hands a developer tool's command line over before parsing.
        subparsers.add_parser(name, help=line, add_help=False)
    return parser


def run_developer_tool(argv: list[str]) -> int:
    """Run ``argv`` (its first word names a developer tool) from ``server.devtools``; exit
    status 2 with a clear message where the install has no developer tools."""
    name = argv[0]
    try:
        module = importlib.import_module(f"{DEV_PACKAGE}.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != DEV_PACKAGE:
            raise
        print(
            f"guildhall {name}: a developer tool, which this server install does not have;"
            " it runs from a development checkout (docs/development.md)",
            file=sys.stderr,
        )
        return 2
    parser = argparse.ArgumentParser(prog=f"guildhall {name}", description=module.HELP)
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(argv[1:])) or 0)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in DEV_SUBCOMMANDS:
        return run_developer_tool(argv)
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
