"""One settings object, read from the environment once.

| variable | default | meaning |
|---|---|---|
| ``DATABASE_URL`` | ``sqlite+aiosqlite:///./data/guildhall.db`` | ``postgresql://`` works too |
| ``HOST`` / ``PORT`` | ``127.0.0.1`` / ``8000`` | where ``guildhall serve`` listens |
| ``PUBLIC_URL`` | ``http://{HOST}:{PORT}`` | base of seat links |
| ``SECRET_KEY`` | kept in ``./data/secret_key`` | keys the seat-token hashes |
| ``GUILDHALL_BOT_DELAY`` | ``0.6`` | seconds before a bot plays |
| ``GUILDHALL_MAX_MESSAGE_BYTES`` | ``16384`` | largest websocket frame accepted |
| ``GUILDHALL_RATE_LIMIT`` | ``20`` | websocket messages per second per connection |
| ``GUILDHALL_FANOUT`` | ``memory`` | ``memory`` or ``postgres`` (LISTEN/NOTIFY) |
| ``GUILDHALL_MAX_CONNECTIONS_PER_IP`` | ``20`` | open websockets per client address |
| ``GUILDHALL_LOG_FORMAT`` | ``text`` | ``text`` or ``json`` (one object per line) |
| ``GUILDHALL_DB_POOL_SIZE`` | ``10`` | Postgres connections kept open |
| ``GUILDHALL_DB_MAX_OVERFLOW`` | ``20`` | extra Postgres connections under load |
| ``GUILDHALL_DB_POOL_TIMEOUT`` | ``30`` | seconds to wait for a free connection |
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/guildhall.db"
FanOutKind = Literal["memory", "postgres"]
LogFormat = Literal["text", "json"]


def normalize_database_url(url: str) -> str:
    """The SQLAlchemy async URL for ``url``: ``postgresql://`` and ``postgres://`` get asyncpg.

    >>> normalize_database_url("postgresql://u@h/db")
    'postgresql+asyncpg://u@h/db'
    >>> normalize_database_url("sqlite:///x.db")
    'sqlite+aiosqlite:///x.db'
    """
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


def sqlite_path(url: str) -> Path | None:
    """The file an SQLite URL points at (None for other databases or in-memory SQLite)."""
    if not url.startswith("sqlite") or ":memory:" in url:
        return None
    return Path(url.split(":///", 1)[1])


@dataclass(frozen=True)
class Settings:
    """Everything configurable about one server process."""

    database_url: str = DEFAULT_DATABASE_URL
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str = "http://127.0.0.1:8000"
    secret_key: str = field(default="", repr=False)
    bot_delay: float = 0.6
    max_message_bytes: int = 16384
    rate_limit: float = 20.0
    fanout: FanOutKind = "memory"
    max_connections_per_ip: int = 20
    log_format: LogFormat = "text"
    db_pool_size: int = 10
    db_max_overflow: int = 20
    db_pool_timeout: float = 30.0

    def with_(self, **changes: object) -> Settings:
        """A copy with some fields changed (tests use it)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")


def _secret_key(env: Mapping[str, str], database_url: str) -> str:
    """``SECRET_KEY``, else a key made once and kept beside the SQLite file."""
    if env.get("SECRET_KEY"):
        return env["SECRET_KEY"]
    db_file = sqlite_path(database_url)
    key_file = (db_file.parent if db_file else Path("data")) / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return key


def _fanout(value: str) -> FanOutKind:
    if value not in ("memory", "postgres"):
        raise ValueError(f"GUILDHALL_FANOUT must be 'memory' or 'postgres', not {value!r}")
    return "postgres" if value == "postgres" else "memory"


def _log_format(value: str) -> LogFormat:
    if value not in ("text", "json"):
        raise ValueError(f"GUILDHALL_LOG_FORMAT must be 'text' or 'json', not {value!r}")
    return "json" if value == "json" else "text"


def _at_least(name: str, value: str, least: int) -> int:
    """``value`` as an int no smaller than ``least``; ValueError naming ``name`` otherwise."""
    number = int(value)
    if number < least:
        raise ValueError(f"{name} must be at least {least}, not {number}")
    return number


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Settings from ``env`` (default: ``os.environ``). Raises ValueError on a malformed value."""
    env = os.environ if env is None else env
    url = normalize_database_url(env.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    host = env.get("HOST", "127.0.0.1")
    port = int(env.get("PORT", "8000"))
    return Settings(
        database_url=url,
        host=host,
        port=port,
        public_url=env.get("PUBLIC_URL", f"http://{host}:{port}").rstrip("/"),
        secret_key=_secret_key(env, url),
        bot_delay=float(env.get("GUILDHALL_BOT_DELAY", "0.6")),
        max_message_bytes=int(env.get("GUILDHALL_MAX_MESSAGE_BYTES", "16384")),
        rate_limit=float(env.get("GUILDHALL_RATE_LIMIT", "20")),
        fanout=_fanout(env.get("GUILDHALL_FANOUT", "memory")),
        max_connections_per_ip=_at_least(
            "GUILDHALL_MAX_CONNECTIONS_PER_IP", env.get("GUILDHALL_MAX_CONNECTIONS_PER_IP", "20"), 1
        ),
        log_format=_log_format(env.get("GUILDHALL_LOG_FORMAT", "text")),
        db_pool_size=_at_least(
            "GUILDHALL_DB_POOL_SIZE", env.get("GUILDHALL_DB_POOL_SIZE", "10"), 1
        ),
        db_max_overflow=_at_least(
            "GUILDHALL_DB_MAX_OVERFLOW", env.get("GUILDHALL_DB_MAX_OVERFLOW", "20"), 0
        ),
        db_pool_timeout=float(env.get("GUILDHALL_DB_POOL_TIMEOUT", "30")),
    )
