"""The "your move" notices: their outbox, a seat's e-mail address and a table's webhook URL.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("webhook_url", sa.String(2000), nullable=True))
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("decision", sa.Float(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("channels", sa.JSON(), nullable=True),
        sa.Column("rev", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_notices_table_id_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notices"),
        sa.UniqueConstraint("table_id", "seat", name="uq_notices_table_seat"),
    )
    op.create_index("ix_notices_status_due", "notices", ["status", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_notices_status_due", table_name="notices")
    op.drop_table("notices")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("webhook_url")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("email")
