"""The app's own log output: plain text for a terminal, or one JSON object per line.

Only the ``server`` logger tree is configured here; uvicorn keeps its own access and error
logs. Context travels in ``extra=`` fields (``table_id``, ``seat``, ``code``, ...), which both
formats print; a field named like a secret is never printed.
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
