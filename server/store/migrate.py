"""Running the Alembic migrations programmatically (``guildhall migrate``, tests)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from server.resources import ROOT


def alembic_config(database_url: str, configure_logger: bool = True) -> Config:
    """The project's Alembic configuration pointed at ``database_url``.

    ``configure_logger=False`` leaves logging alone (``guildhall migrate`` has set it up)
    instead of applying ``alembic.ini``'s text format.
    """
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["database_url"] = database_url
    cfg.attributes["configure_logger"] = configure_logger
    return cfg


def upgrade(database_url: str, revision: str = "head", configure_logger: bool = True) -> None:
    """Bring the schema to ``revision``. Blocking: call it from a thread inside an event loop."""
    command.upgrade(alembic_config(database_url, configure_logger), revision)


def downgrade(database_url: str, revision: str) -> None:
    """Take the schema back to ``revision`` (``base`` drops everything)."""
    command.downgrade(alembic_config(database_url), revision)
