"""The step a table's stored state was taken at (the state is no longer written every step).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Tables stored before this kept their state at every step: it is at their last one.
    op.add_column(
        "tables", sa.Column("state_seq", sa.Integer(), server_default="0", nullable=False)
    )
    op.execute(
        "UPDATE tables SET state_seq ="
        " (SELECT coalesce(max(seq), 0) FROM commands WHERE commands.table_id = tables.id)"
    )


def downgrade() -> None:
    # The state column must hold the newest state again; ``guildhall migrate`` cannot replay
    # the engines here, so a downgrade keeps the snapshot and its step as they are.
    op.drop_column("tables", "state_seq")
