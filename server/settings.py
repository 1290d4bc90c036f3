"""One settings object, read once from the environment and an optional ``.env`` file.

``Settings`` is the single definition: every field names its environment variable
(``validation_alias``), its default and, in ``description``, what it means. The tables in
``docs/self-hosting.md`` and ``README.md`` are checked against it
(``tests/server/test_settings_docs.py``); ``python -m server.settings`` prints the rows.

``load_settings()`` reads, from lowest to highest precedence: the defaults, the ``.env``
file in the working directory, the process environment. Constructing ``Settings(...)``
directly reads nothing but its arguments, so a test's settings never depend on the shell
or on a ``.env`` left in the checkout.

Adding a setting: one ``setting(...)`` field below, plus its row in docs/self-hosting.md.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, JsonValue, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/guildhall.db"
ENV_FILE = ".env"
FanOutKind = Literal["memory", "postgres"]
LogFormat = Literal["text", "json"]
SmtpTls = Literal["starttls", "tls", "none"]


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


def proxy_entries(value: str) -> list[str]:
    """The entries of a comma-separated list of IP addresses and networks.

    Raises ValueError naming an entry that is neither.
    """
    entries = [part.strip() for part in value.split(",") if part.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network") from None
    return entries


HOST_PATTERN = re.compile(r"\*|(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9-]{1,63}")


def host_patterns(value: str) -> list[str]:
    """The entries of a comma-separated list of host names (lower case), each one a name,
    ``*.`` and a name (its subdomains) or ``*`` (any host).

    >>> host_patterns(" Push.Example.org, *.example.net ,, 127.0.0.1")
    ['push.example.org', '*.example.net', '127.0.0.1']

    Raises ValueError naming an entry that is none of these.
    """
    entries = [part.strip().lower().rstrip(".") for part in value.split(",") if part.strip()]
    for entry in entries:
        if not HOST_PATTERN.fullmatch(entry):
            raise ValueError(f"{entry!r} is not a host name, *.name or *")
    return entries


PUSH_CONTACT = re.compile(r"mailto:[^@\s]+@[^@\s]+|https://[^\s/?#]+(/[^\s]*)?")


def is_push_contact(contact: str) -> bool:
    """Whether ``contact`` may be a VAPID ``sub``: ``mailto:`` with an address, or ``https:``.

    >>> is_push_contact("mailto:admin@example.org"), is_push_contact("http://example.org")
    (True, False)
    """
    return PUSH_CONTACT.fullmatch(contact) is not None


def setting(
    variable: str, default: Any, meaning: str, *, shown: str | None = None, **rules: Any
) -> Any:
    """A settings field read from ``variable``.

    ``shown`` is how the docs write a default that is computed rather than fixed;
    ``rules`` are pydantic constraints (``ge=1`` ...), checked at load time.
    """
    extra: dict[str, JsonValue] | None = {"shown_default": shown} if shown else None
    return Field(
        default, validation_alias=variable, description=meaning, json_schema_extra=extra, **rules
    )


class Settings(BaseSettings):
    """Everything configurable about one server process."""

    model_config = SettingsConfigDict(frozen=True, populate_by_name=True, extra="ignore")

    database_url: str = setting(
        "DATABASE_URL", DEFAULT_DATABASE_URL, "an SQLite URL or `postgresql://user:pass@host/db`"
    )
    host: str = setting("HOST", "127.0.0.1", "address `guildhall serve` listens on")
    port: int = setting("PORT", 8000, "port `guildhall serve` listens on", ge=1, le=65535)
    public_url: str = setting(
        "PUBLIC_URL",
        "",
        "the address players use; seat links are built from it",
        shown="`http://{HOST}:{PORT}`",
    )
    secret_key: str = Field(
        "",
        validation_alias="SECRET_KEY",
        description="keys the seat-token hashes",
        json_schema_extra={"shown_default": "generated once into `./data/secret_key`"},
        repr=False,
    )
    bot_delay: float = setting("GUILDHALL_BOT_DELAY", 0.6, "seconds before a bot plays", ge=0)
    max_message_bytes: int = setting(
        "GUILDHALL_MAX_MESSAGE_BYTES", 16384, "largest websocket frame accepted", ge=256
    )
    max_body: int = setting(
        "GUILDHALL_MAX_BODY",
        65536,
        "largest HTTP request body accepted, in bytes; a larger one is cut off with 413",
        ge=1024,
    )
    rate_limit: float = setting(
        "GUILDHALL_RATE_LIMIT", 20.0, "websocket messages per second per connection", gt=0
    )
    fanout: FanOutKind = setting("GUILDHALL_FANOUT", "memory", "`memory` or `postgres`")
    max_connections_per_ip: int = setting(
        "GUILDHALL_MAX_CONNECTIONS_PER_IP", 20, "open websockets per client address", ge=1
    )
    create_rate: int = setting(
        "GUILDHALL_CREATE_RATE", 10, "tables one client address may create per minute", ge=1
    )
    unjoined_per_address: int = setting(
        "GUILDHALL_UNJOINED_PER_ADDRESS",
        10,
        "live tables one client address may have created that no second person has joined",
        ge=1,
    )
    unjoined_tables: int = setting(
        "GUILDHALL_UNJOINED_TABLES",
        500,
        "live tables no second person has joined, from all addresses together",
        ge=1,
    )
    act_rate: int = setting(
        "GUILDHALL_ACT_RATE",
        10,
        "table acts (a pause asked or answered, away, a nudge, a vote, added time, a seat "
        "handed over or taken back, a rematch ask) one seat token may make per minute",
        ge=1,
    )
    table_act_rate: int = setting(
        "GUILDHALL_TABLE_ACT_RATE",
        30,
        "table acts all seat tokens of one table may make per minute",
        ge=1,
    )
    bot_tables: int = setting(
        "GUILDHALL_BOT_TABLES", 10, "tables playing at once on which bots play every seat", ge=0
    )
    bot_tables_per_address: int = setting(
        "GUILDHALL_BOT_TABLES_PER_ADDRESS",
        2,
        "tables created from one client address that may play at once with a bot on every seat",
        ge=0,
    )
    bot_cpu: float = setting(
        "GUILDHALL_BOT_CPU",
        0.5,
        "seconds of bot search each app process may spend per second, all its tables together",
        gt=0,
    )
    bot_cpu_per_address: float = setting(
        "GUILDHALL_BOT_CPU_PER_ADDRESS",
        0.25,
        "of those, seconds the bots of the tables created from one client address may spend",
        gt=0,
    )
    log_format: LogFormat = setting("GUILDHALL_LOG_FORMAT", "text", "`text` or `json`")
    db_pool_size: int = setting(
        "GUILDHALL_DB_POOL_SIZE", 10, "Postgres connections kept open", ge=1
    )
    db_max_overflow: int = setting(
        "GUILDHALL_DB_MAX_OVERFLOW", 20, "extra Postgres connections under load", ge=0
    )
    db_pool_timeout: float = setting(
        "GUILDHALL_DB_POOL_TIMEOUT", 30.0, "seconds to wait for a free connection", gt=0
    )
    trusted_proxies: str = setting(
        "GUILDHALL_TRUSTED_PROXIES",
        "",
        "comma list of proxy addresses or networks whose `X-Forwarded-For` is believed",
        shown="none",
    )
    request_timeout: float = setting(
        "GUILDHALL_REQUEST_TIMEOUT", 10.0, "seconds a client may take to send one request", gt=0
    )
    send_timeout: float = setting(
        "GUILDHALL_SEND_TIMEOUT",
        10.0,
        "seconds a websocket client may leave one message unread before it is dropped",
        gt=0,
    )
    keepalive_timeout: int = setting(
        "GUILDHALL_KEEPALIVE_TIMEOUT", 5, "seconds an idle HTTP connection is kept open", ge=1
    )
    notify_after: float = setting(
        "GUILDHALL_NOTIFY_AFTER",
        30.0,
        "seconds a player must have been away from the table (no socket open in any process) "
        'before a "your move" notice goes out',
        ge=0,
    )
    notify_sweep: float = setting(
        "GUILDHALL_NOTIFY_SWEEP",
        5.0,
        "seconds between two looks of each process at the outbox",
        gt=0,
        le=300,
    )
    analysis_cpu: float = setting(
        "GUILDHALL_ANALYSIS_CPU",
        0.25,
        "share of one core each process may spend analysing finished games in the "
        "background (0: this process analyses none; 1 or more: no pause)",
        ge=0,
    )
    analysis_playouts: int = setting(
        "GUILDHALL_ANALYSIS_PLAYOUTS",
        16,
        "play-outs per position of a finished game's analysis (a quarter as many sampled "
        "worlds judge each decision): fewer is faster and rougher",
        ge=1,
        le=1000,
    )
    notify_attempts: int = setting(
        "GUILDHALL_NOTIFY_ATTEMPTS",
        5,
        "tries of a notice on a failing channel before it is dropped (with a log line)",
        ge=1,
        le=50,
    )
    notify_retry: float = setting(
        "GUILDHALL_NOTIFY_RETRY",
        30.0,
        "seconds before a failed notice is tried again; doubled after each failure",
        gt=0,
    )
    smtp_host: str = setting(
        "GUILDHALL_SMTP_HOST", "", 'SMTP server for "your move" e-mails', shown="none (e-mail off)"
    )
    smtp_port: int = setting("GUILDHALL_SMTP_PORT", 587, "its port", ge=1, le=65535)
    smtp_tls: SmtpTls = setting(
        "GUILDHALL_SMTP_TLS",
        "starttls",
        "`starttls` (upgrade the plain connection), `tls` (TLS from the start, port 465) or `none`",
    )
    smtp_user: str = setting(
        "GUILDHALL_SMTP_USER", "", "user name to log in with", shown="none (no login)"
    )
    smtp_password: str = setting(
        "GUILDHALL_SMTP_PASSWORD", "", "its password", shown="none", repr=False
    )
    smtp_from: str = setting(
        "GUILDHALL_SMTP_FROM",
        "",
        "the sender address of the e-mails",
        shown="`guildhall@` and the host of `PUBLIC_URL`",
    )
    smtp_timeout: float = setting(
        "GUILDHALL_SMTP_TIMEOUT", 10.0, "seconds one e-mail may take to send", gt=0, le=120
    )
    mail_per_hour: int = setting(
        "GUILDHALL_MAIL_PER_HOUR",
        10,
        "e-mails one address may get per clock hour, from all tables and processes together "
        "(confirmation links and notices alike)",
        ge=1,
    )
    webhook_timeout: float = setting(
        "GUILDHALL_WEBHOOK_TIMEOUT", 5.0, "seconds one webhook POST may take", gt=0, le=60
    )
    push_contact: str = setting(
        "GUILDHALL_PUSH_CONTACT",
        "",
        "the VAPID `sub` push services may contact about this server's pushes: a `mailto:` "
        "address or an `https:` URL",
        shown="`PUBLIC_URL` if `https:`, else `mailto:guildhall@` its host",
    )
    push_allow_http: bool = setting(
        "GUILDHALL_PUSH_ALLOW_HTTP",
        False,
        "accept `http:` push endpoints (tests against a local push service only)",
        shown="`false`",
    )
    push_hosts: str = setting(
        "GUILDHALL_PUSH_HOSTS",
        "",
        "comma list of further hosts push endpoints may name, beside the browsers' own push "
        "services (`push.example.org`; `*.example.org` for its subdomains; `*` for any host)",
        shown="none (the known push services only)",
    )
    webhook_allow_private: bool = setting(
        "GUILDHALL_WEBHOOK_ALLOW_PRIVATE",
        False,
        "let webhook URLs and push endpoints reach loopback, private and link-local addresses "
        "(a LAN's own chat server); off: such a URL is refused when set and at every send",
        shown="`false`",
    )
    handover_after: float = setting(
        "GUILDHALL_HANDOVER_AFTER",
        60.0,
        "seconds a player must be away before the creator may hand their seat to a bot",
        gt=0,
    )
    stale_after: float = setting(
        "GUILDHALL_STALE_AFTER",
        14.0,
        "days without a change after which a table leaves the lobby's public list "
        "(and `guildhall cleanup` may delete it)",
        gt=0,
    )
    clock_sweep: float = setting(
        "GUILDHALL_CLOCK_SWEEP",
        3.0,
        "seconds between two sweeps of each process for due turn clocks and bot moves",
        gt=0,
        le=60,
    )
    clock_grace: float = setting(
        "GUILDHALL_CLOCK_GRACE",
        20.0,
        "seconds a live clock gets at least, beyond the downtime given back, after a restart",
        ge=0,
    )
    clock_bot: str = setting(
        "GUILDHALL_CLOCK_BOT",
        "greedy",
        "the bot that plays a decision whose time ran out (random, greedy, mcts)",
        pattern="^(random|greedy|mcts)$",
    )
    nudge_after: float = setting(
        "GUILDHALL_NUDGE_AFTER",
        900.0,
        "untimed tables: seconds a person must have had to act before others may nudge them",
        ge=0,
    )
    nudge_every: float = setting(
        "GUILDHALL_NUDGE_EVERY",
        3600.0,
        "untimed tables: seconds between two nudges of one seat by one person",
        ge=0,
    )
    vote_after: float = setting(
        "GUILDHALL_VOTE_AFTER",
        86400.0,
        "untimed tables: seconds a person must have had to act before the others may vote "
        "to hand their seat to a bot",
        ge=0,
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Only the arguments: ``load_settings`` gathers the environment and ``.env`` itself.
        return (init_settings,)

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, url: str) -> str:
        return normalize_database_url(url)

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_list(cls, value: str) -> str:
        return ",".join(proxy_entries(value))

    @field_validator("push_hosts")
    @classmethod
    def _push_host_list(cls, value: str) -> str:
        return ",".join(host_patterns(value))

    @field_validator("push_contact")
    @classmethod
    def _push_contact(cls, contact: str) -> str:
        if contact and not is_push_contact(contact):
            raise ValueError(f"{contact!r} is neither a mailto: address nor an https: URL")
        return contact

    @field_validator("public_url")
    @classmethod
    def _no_trailing_slash(cls, url: str) -> str:
        return url.rstrip("/")

    @model_validator(mode="after")
    def _public_url_from_host_and_port(self) -> Settings:
        if not self.public_url:
            # Frozen: the one computed default is set while the object is being built.
            object.__setattr__(self, "public_url", f"http://{self.host}:{self.port}")
        return self

    def with_(self, **changes: object) -> Settings:
        """A copy with some fields changed, validated again (tests and ``serve`` use it).

        A ``public_url`` that was only derived from the address is derived again from the
        new one, so ``guildhall serve --port 8123`` hands out links to port 8123.
        """
        values = {**self.model_dump(), **changes}
        if "public_url" not in changes and self.public_url == f"http://{self.host}:{self.port}":
            values["public_url"] = ""
        return type(self)(**values)

    @property
    def vapid_subject(self) -> str:
        """The VAPID ``sub`` claim (RFC 8292): GUILDHALL_PUSH_CONTACT, else PUBLIC_URL when it
        is https, else a ``mailto:`` at PUBLIC_URL's host."""
        if self.push_contact:
            return self.push_contact
        if self.public_url.startswith("https://"):
            return self.public_url
        host = urlsplit(self.public_url).hostname or "localhost"
        return f"mailto:guildhall@{host}"

    @property
    def push_host_patterns(self) -> tuple[str, ...]:
        """The hosts GUILDHALL_PUSH_HOSTS allows push endpoints on, beside the known ones."""
        return tuple(host_patterns(self.push_hosts))

    @property
    def email_on(self) -> bool:
        """Whether "your move" e-mails can be sent (an SMTP server is configured)."""
        return bool(self.smtp_host)

    @property
    def mail_from(self) -> str:
        """The sender address: ``GUILDHALL_SMTP_FROM``, else guildhall@ the public host."""
        if self.smtp_from:
            return self.smtp_from
        host = urlsplit(self.public_url).hostname or "localhost"
        return f"guildhall@{host}"

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")

    @classmethod
    def variables(cls) -> dict[str, FieldInfo]:
        """Every field by the environment variable it is read from, in definition order."""
        return {str(info.validation_alias): info for info in cls.model_fields.values()}


class _MappingSource(EnvSettingsSource):
    """The environment source of pydantic-settings, reading a given mapping instead."""

    def __init__(self, settings_cls: type[BaseSettings], env: Mapping[str, str]) -> None:
        self._given = env
        super().__init__(settings_cls, case_sensitive=True)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return dict(self._given)


def _secret_key(values: Mapping[str, Any], database_url: str) -> str:
    """``SECRET_KEY``, else a key made once and kept beside the SQLite file."""
    if values.get("SECRET_KEY"):
        return str(values["SECRET_KEY"])
    db_file = sqlite_path(database_url)
    key_file = (db_file.parent if db_file else Path("data")) / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return key


def load_settings(
    env: Mapping[str, str] | None = None, env_file: str | Path | None = ENV_FILE
) -> Settings:
    """Settings from the environment (default ``os.environ``) over ``env_file``.

    An explicit ``env`` mapping is read alone (no file) unless ``env_file`` is passed too.
    Raises ValueError (a pydantic ``ValidationError`` naming the variable) on a bad value.
    """
    values: dict[str, Any] = {}
    file = env_file if env is None or env_file != ENV_FILE else None
    if file is not None and Path(file).is_file():
        values.update(DotEnvSettingsSource(Settings, env_file=file, case_sensitive=True)())
    if env is None:
        values.update(EnvSettingsSource(Settings, case_sensitive=True)())
    else:
        values.update(_MappingSource(Settings, env)())
    url = normalize_database_url(str(values.get("DATABASE_URL", DEFAULT_DATABASE_URL)))
    values["SECRET_KEY"] = _secret_key(values, url)
    return Settings(**values)


def markdown_rows() -> list[str]:
    """The rows of the docs' settings table as the definition gives them."""
    rows = []
    for variable, info in Settings.variables().items():
        rows.append(f"| `{variable}` | {shown_default(info)} | {info.description} |")
    return rows


def shown_default(info: FieldInfo) -> str:
    """The default as the docs write it: a computed default's text, else the value quoted."""
    extra = info.json_schema_extra
    if isinstance(extra, dict) and extra.get("shown_default"):
        return str(extra["shown_default"])
    default = info.default
    text = f"{default:g}" if isinstance(default, float) else str(default)
    return f"`{text}`"


if __name__ == "__main__":
    print("\n".join(["| variable | default | meaning |", "|---|---|---|", *markdown_rows()]))
