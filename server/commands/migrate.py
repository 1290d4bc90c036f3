"""``guildhall migrate``: bring the database schema to the newest migration (Alembic)."""

from __future__ import annotations

import argparse
import logging

from server.logs import configure_process_logging
from server.settings import load_settings
from server.store.migrate import upgrade

HELP = "bring the database schema to the newest migration"
log = logging.getLogger("guildhall.migrate")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--revision", default="head", help="the migration to reach (default: head)")


def run(args: argparse.Namespace) -> int:
    """Upgrade the configured database (``DATABASE_URL``); returns the exit status."""
    settings = load_settings()
    configure_process_logging(settings.log_format)
    upgrade(settings.database_url, args.revision, configure_logger=False)
    log.info("database at %s: %s", args.revision, _safe(settings.database_url))
    return 0


def _safe(url: str) -> str:
    """The URL without a password, for printing."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = rest.split("@", 1)[1]
    return f"{scheme}{sep}{rest}"
