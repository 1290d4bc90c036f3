"""Post-game analysis: one row per finished game (queued, claimed with a lease, done) and
its positions, each stored once so that an interrupted analysis resumes where it stopped.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("steps", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("params", sa.JSON(), nullable=True),
        sa.Column("queued_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_analyses_table_id_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("table_id", name="pk_analyses"),
    )
    op.create_index("ix_analyses_status_lease", "analyses", ["status", "lease_until"])
    op.create_table(
        "analysis_positions",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name="fk_analysis_positions_table_id_tables",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", "step", name="pk_analysis_positions"),
    )


def downgrade() -> None:
    op.drop_table("analysis_positions")
    op.drop_index("ix_analyses_status_lease", table_name="analyses")
    op.drop_table("analyses")
