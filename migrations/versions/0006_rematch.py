"""A finished table's rematch, and an index on when tables last changed (the lobby leaves
stale tables out, ``guildhall cleanup`` deletes them).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
    op.create_index("ix_tables_updated_at", "tables", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_updated_at", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch")
