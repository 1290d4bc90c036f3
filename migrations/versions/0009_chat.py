"""The table chat: one log per table beside the game, never in its state or record.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_chat_table_id_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat"),
        sa.UniqueConstraint("table_id", "seq", name="uq_chat_table_seq"),
        sa.UniqueConstraint("table_id", "author", "client_id", name="uq_chat_client_id"),
    )


def downgrade() -> None:
    op.drop_table("chat")
