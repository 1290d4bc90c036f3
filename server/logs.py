"""The app's own log output: plain text for a terminal, or one JSON object per line.

``configure_logging`` sets up the ``server`` logger tree (``create_app`` calls it).
``configure_process_logging`` is for the ``guildhall`` commands: it sends every other
logger too (uvicorn's access and error logs, Alembic, Python warnings, an uncaught
exception) through the same format, so with ``json`` every line the process prints is
one JSON object. Context travels in ``extra=`` fields (``table_id``, ``seat``, ``code``,
...), which both formats print; a field named like a secret is never printed.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from server.settings import LogFormat

APP_LOGGER = "server"
FIELDS = (
    "table_id",
    "seat",
    "code",
    "command_id",
    "command",
    "version",
    "latency_ms",
    "client",
    "status",
    "reason",
    "close_code",
    "connections",
)
# Fields that must never reach a log line, even if a caller passes one by mistake.
SECRET_FIELDS = frozenset({"token", "tokens", "secret_key", "token_hash"})


def record_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The known context fields set on ``record`` (via ``extra=``), in a stable order."""
    return {
        name: getattr(record, name)
        for name in FIELDS
        if name not in SECRET_FIELDS and getattr(record, name, None) is not None
    }


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON object: time, level, logger, message, then its fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(record_fields(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message key=value ...`` for reading in a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = " ".join(f"{k}={v}" for k, v in record_fields(record).items())
        if not fields:
            return text
        # The exception text (if any) follows the first line; the fields belong on that line.
        first, newline, rest = text.partition("\n")
        return f"{first} {fields}{newline}{rest}"


def configure_logging(fmt: LogFormat, stream: TextIO | None = None) -> logging.Handler:
    """Send the app's INFO-and-above records to ``stream`` (stderr) in ``fmt``; returns the handler.

    Calling it again replaces the handler it installed before, so a process that builds
    several apps (the tests) never prints a record twice.
    """
    logger = logging.getLogger(APP_LOGGER)
    for old in [h for h in logger.handlers if getattr(h, "guildhall", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.guildhall = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return handler


class _NotTheAppTree(logging.Filter):
    """Drops ``server.*`` records at the root: the app's own handler has printed them."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == APP_LOGGER or record.name.startswith(APP_LOGGER + "."))


def configure_process_logging(fmt: LogFormat, stream: TextIO | None = None) -> None:
    """Format every record of this process in ``fmt`` (the ``guildhall`` commands call it).

    The root logger gets the handler (INFO and above), the ``server`` tree keeps its own, and
    uncaught exceptions and warnings become records, so nothing bypasses the format.
    """
    configure_logging(fmt, stream)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "guildhall", False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(_NotTheAppTree())
    handler.guildhall = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)

    def log_uncaught(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        logging.getLogger("guildhall").critical("uncaught exception", exc_info=(kind, value, tb))

    sys.excepthook = log_uncaught
