"""``guildhall cleanup``: delete tables nobody has touched for a long time.

A table's age is the time since its last change (a move, a seat taken or handed over, the
start, a rematch), not since it was made. Open and playing tables untouched for
``--older-than`` days (default: ``GUILDHALL_STALE_AFTER``, the age at which the lobby stops
listing them) are deleted with their seats and commands; finished games are kept, so their
records and replays stay downloadable, unless ``--finished`` is given. Without ``--yes``
nothing is deleted: it prints what would be. Safe while the server runs: a table that
changes meanwhile is no longer old and stays.
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime, timedelta

from server.settings import load_settings
from server.store import queries
from server.store.db import make_engine, make_sessionmaker

HELP = "delete tables nobody has touched for a long time (a dry run unless --yes)"
LIVE = ("open", "playing")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--older-than",
        type=_days,
        default=None,
        metavar="DAYS",
        help="days since a table's last change (default: GUILDHALL_STALE_AFTER)",
    )
    parser.add_argument(
        "--finished",
        action="store_true",
        help="delete old finished games too (by default their records are kept)",
    )
    parser.add_argument("--yes", action="store_true", help="delete (else only count)")


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None
    if not 0 < days <= 36500:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of days above 0")
    return days


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    days = args.older_than if args.older_than is not None else settings.stale_after
    statuses = (*LIVE, "finished") if args.finished else LIVE
    before = datetime.now(UTC) - timedelta(days=days)
    counts = asyncio.run(_cleanup(settings.database_url, before, statuses, args.yes))
    print(report(counts, days, args.finished, args.yes))
    return 0


async def _cleanup(
    database_url: str, before: datetime, statuses: tuple[str, ...], delete: bool
) -> dict[str, int]:
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            if not delete:
                return await queries.stale_tables(session, before, statuses)
            counts = await queries.delete_stale_tables(session, before, statuses)
            await session.commit()
            return counts
    finally:
        await engine.dispose()


def report(counts: dict[str, int], days: float, finished: bool, deleted: bool) -> str:
    """What a run did (or would do), in one or two lines.

    >>> report({"open": 2, "playing": 1}, 14, False, False).splitlines()[0]
    'would delete 3 tables untouched for 14 days (2 open, 1 playing)'
    """
    total = sum(counts.values())
    statuses = (*LIVE, "finished") if finished else LIVE
    parts = ", ".join(f"{counts.get(status, 0)} {status}" for status in statuses)
    verb = "deleted" if deleted else "would delete"
    lines = [f"{verb} {total} tables untouched for {days:g} days ({parts})"]
    if not finished:
        lines.append("finished games are kept (--finished deletes old ones too)")
    if not deleted and total:
        lines.append("nothing was deleted: run again with --yes to delete them")
    return "\n".join(lines)
