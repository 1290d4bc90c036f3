"""Who created a table (a keyed hash of the client address), for the per-address limits.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Tables made before this revision have no creator key: no address is charged for them.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator_key", sa.String(32), nullable=True))
    op.create_index("ix_tables_creator_key", "tables", ["creator_key", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator_key", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator_key")
