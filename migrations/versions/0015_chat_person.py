"""The table chat's rate limit counted in the database: who wrote each message (a keyed hash),
so that a person writing through several processes is held to one limit.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("person", sa.String(64), nullable=True))
    op.create_index("ix_chat_person_at", "chat", ["table_id", "person", "at"])


def downgrade() -> None:
    op.drop_index("ix_chat_person_at", table_name="chat")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("person")
