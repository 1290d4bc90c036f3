"""Turn clocks: each table's clock beside its state, the next moment it is due, and when the
server was last seen running (for the downtime extension of live clocks).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Tables made before this revision have no clock: untimed, as they always were.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("due_at", sa.Float(), nullable=True))
        batch.create_index("ix_tables_due_at", ["due_at"])
    op.create_table(
        "clock_beat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_clock_beat"),
    )


def downgrade() -> None:
    op.drop_table("clock_beat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_due_at")
        batch.drop_column("due_at")
        batch.drop_column("clock")
