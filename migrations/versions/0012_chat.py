"""The table chat: one log per table beside the game, never in its state or record; and the
outbox of its notices to players who are away.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
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
    op.create_table(
        "chat_notices",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("by_name", sa.String(40), nullable=False),
        sa.Column("wrote_at", sa.Float(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("channels", sa.JSON(), nullable=True),
        sa.Column("rev", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name="fk_chat_notices_table_id_tables",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_notices"),
        sa.UniqueConstraint("table_id", "seat", name="uq_chat_notices_table_seat"),
    )
    op.create_index("ix_chat_notices_status_due", "chat_notices", ["status", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_chat_notices_status_due", table_name="chat_notices")
    op.drop_table("chat_notices")
    op.drop_table("chat")
