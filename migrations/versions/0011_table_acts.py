"""The table acts of the last minute, which the act rate limit counts.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_acts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_table_acts_table_id_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_table_acts"),
    )
    op.create_index("ix_table_acts_table_at", "table_acts", ["table_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_table_acts_table_at", table_name="table_acts")
    op.drop_table("table_acts")
