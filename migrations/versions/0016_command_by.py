"""Who made each command (``commands.by``): null for the seat's person, "bot" for a bot
playing the seat (a bot seat or a stand-in), "clock" for the clock's bot covering a decision
whose time ran out. Commands stored before keep null: the analysis then judges them by their
seat, as it always did.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("commands") as batch:
        batch.add_column(sa.Column("by", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("commands") as batch:
        batch.drop_column("by")
