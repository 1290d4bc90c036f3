"""The seat model: public tables, the seat log, when each seat's player was last seen.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Tables made before this revision were listed in the lobby: they stay public.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch.add_column(sa.Column("seat_log", sa.JSON(), nullable=True))
    op.execute(sa.text("UPDATE tables SET public = :yes").bindparams(yes=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seen_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seen_at")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seat_log")
        batch.drop_column("public")
